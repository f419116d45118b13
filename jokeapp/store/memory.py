"""A store in process memory: for tests of the rooms, and for a throwaway server."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from jokeapp.store.api import (
    AbsenceRow,
    ActionRow,
    FencedError,
    LoadedRoom,
    MatchRow,
    RoomRow,
    SeatRow,
    SpectatorRow,
    StoreError,
)

RELEASED = 0  # the fence of a room this store let go (epochs start at 1)


class MemoryStore:
    """``MemoryStore(shared=other)`` is a second node's store on the same data (tests of
    the cluster): the rows and the owners' epochs are shared, each store's fences its own."""

    def __init__(self, shared: MemoryStore | None = None) -> None:
        self.rooms: dict[str, RoomRow] = {} if shared is None else shared.rooms
        self.seats: dict[tuple[str, str], SeatRow] = {} if shared is None else shared.seats
        self.spectators: dict[tuple[str, str], SpectatorRow] = (
            {} if shared is None else shared.spectators
        )
        self.matches: dict[tuple[str, int], MatchRow] = {} if shared is None else shared.matches
        self.actions: dict[tuple[str, int], list[ActionRow]] = (
            {} if shared is None else shared.actions
        )
        self.snapshots: dict[tuple[str, int], tuple[int, dict[str, Any]]] = (
            {} if shared is None else shared.snapshots
        )
        self.absences: dict[tuple[str, int, str], AbsenceRow] = (
            {} if shared is None else shared.absences
        )
        self.owners: dict[str, tuple[int, str]] = {} if shared is None else shared.owners
        self.fail_appends = False  # tests: simulate a store that cannot commit
        self._fences: dict[str, int] = {}
        self.on_fenced: list[Callable[[str], None]] = []

    def _check(self, room_id: str) -> None:
        """Raises FencedError if this store claimed the room and no longer holds it."""
        fence = self._fences.get(room_id)
        if fence is None:
            return
        held = self.owners.get(room_id)
        if fence == RELEASED or held is None or held[0] != fence:
            for listener in list(self.on_fenced):
                listener(room_id)
            raise FencedError(room_id)

    async def claim_room(self, room_id: str, epoch: int, node: str) -> bool:
        held = self.owners.get(room_id)
        if held is not None and held[0] >= epoch:
            return False
        self.owners[room_id] = (epoch, node)
        self._fences[room_id] = epoch
        return True

    def release_room(self, room_id: str) -> None:
        self._fences[room_id] = RELEASED

    async def room_owner(self, room_id: str) -> tuple[int, str] | None:
        return self.owners.get(room_id)

    async def save_room(self, row: RoomRow) -> None:
        self._check(row.room_id)
        self.rooms[row.room_id] = copy.deepcopy(row)

    async def save_seat(self, row: SeatRow) -> None:
        self._check(row.room_id)
        self.seats[(row.room_id, row.player_id)] = copy.deepcopy(row)

    async def delete_seat(self, room_id: str, player_id: str) -> None:
        self._check(room_id)
        self.seats.pop((room_id, player_id), None)

    async def save_spectator(self, row: SpectatorRow) -> None:
        self._check(row.room_id)
        self.spectators[(row.room_id, row.token_key)] = copy.deepcopy(row)

    async def delete_spectator(self, room_id: str, token_key: str) -> None:
        self._check(room_id)
        self.spectators.pop((room_id, token_key), None)

    async def begin_match(self, row: MatchRow) -> None:
        self._check(row.room_id)
        self.matches[(row.room_id, row.match)] = copy.deepcopy(row)
        self.actions[(row.room_id, row.match)] = []

    async def append_action(self, row: ActionRow) -> None:
        if self.fail_appends:
            raise StoreError("append refused")
        self._check(row.room_id)
        log = self.actions.setdefault((row.room_id, row.match), [])
        if any(a.step == row.step for a in log):
            raise StoreError(f"duplicate step {row.step}")
        log.append(copy.deepcopy(row))

    async def save_snapshot(
        self, room_id: str, match: int, step: int, state: dict[str, Any]
    ) -> None:
        self._check(room_id)
        self.snapshots[(room_id, match)] = (step, copy.deepcopy(state))

    async def save_absence(self, row: AbsenceRow) -> None:
        self._check(row.room_id)
        self.absences[(row.room_id, row.match, row.player_id)] = copy.deepcopy(row)

    async def finish_match(self, room_id: str, match: int, result: dict[str, Any]) -> None:
        self._check(room_id)
        self.matches[(room_id, match)].result = copy.deepcopy(result)

    async def code_taken(self, code: str) -> bool:
        return any(r.code == code for r in self.rooms.values())

    async def load_room(self, ref: str) -> LoadedRoom | None:
        room = self.rooms.get(ref) or next((r for r in self.rooms.values() if r.code == ref), None)
        if room is None:
            return None
        rid = room.room_id
        loaded = LoadedRoom(
            room=copy.deepcopy(room),
            seats=[copy.deepcopy(s) for (r, _), s in self.seats.items() if r == rid],
            spectators=[copy.deepcopy(s) for (r, _), s in self.spectators.items() if r == rid],
        )
        match = self.matches.get((rid, room.match))
        if match is None:
            return loaded
        loaded.match = copy.deepcopy(match)
        log = self.actions.get((rid, room.match), [])
        snap = self.snapshots.get((rid, room.match))
        loaded.snapshot = copy.deepcopy(snap)
        start = snap[0] if snap else 0
        loaded.tail = [copy.deepcopy(a) for a in log if a.step > start]
        loaded.last_seq = max((a.seq for a in log), default=0)
        loaded.last_action_at = log[-1].at if log else None
        for a in log:
            if a.client_seq is not None:
                loaded.last_client_seq[a.actor] = max(
                    loaded.last_client_seq.get(a.actor, 0), a.client_seq
                )
        loaded.absences = [
            copy.deepcopy(a)
            for (r, m, _), a in self.absences.items()
            if r == rid and m == room.match
        ]
        return loaded

    async def unfinished_room_ids(self) -> list[str]:
        return [r.room_id for r in self.rooms.values() if r.status != "finished"]

    async def match_log(self, room_id: str, match: int) -> tuple[MatchRow, list[ActionRow]] | None:
        row = self.matches.get((room_id, match))
        if row is None:
            return None
        return copy.deepcopy(row), [
            copy.deepcopy(a) for a in self.actions.get((room_id, match), [])
        ]

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None
