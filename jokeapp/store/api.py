"""What the rooms ask of a store, and the rows they exchange with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(slots=True)
class RoomRow:
    room_id: str
    code: str
    game: str
    options: dict[str, Any]
    status: str  # lobby | playing | finished
    match: int  # 0 before the first start
    host_id: str | None
    created_at: float
    # Every update the room sent has a number up to this one, or is a logged action's (its
    # ActionRow.seq): reserved ahead by the room (docs/protocol.md, "Update numbers and resync").
    seq_reserved: int = 0


@dataclass(slots=True)
class SeatRow:
    room_id: str
    player_id: str
    nickname: str
    token_key: str | None
    bot_policy: str | None


@dataclass(slots=True)
class SpectatorRow:
    room_id: str
    token_key: str
    nickname: str


@dataclass(slots=True)
class MatchRow:
    room_id: str
    match: int
    seed: int
    players: list[str]
    options: dict[str, Any]
    result: dict[str, Any] | None = None


@dataclass(slots=True)
class ActionRow:
    room_id: str
    match: int
    step: int  # 1 for the first action of the match; unique per room and match
    seq: int  # the room's update number this action produced
    actor: str
    action: dict[str, Any]
    auto: bool
    client_seq: int | None = None
    at: float | None = None  # when it was applied (seconds since the epoch)


@dataclass(slots=True)
class AbsenceRow:
    """One seat's absence counters in one match (both specs' 8.5), kept across restarts."""

    room_id: str
    match: int
    player_id: str
    timeouts_in_row: int = 0  # dalmuti: timeouts in a row (the deadline shrinks after three)
    absent_rounds: int = 0  # marble: rounds in a row whose turns the timeout rule played
    last_absent_round: int | None = None  # the round of the last of those turns
    offer: int | None = None  # an open 강퇴/계속 offer to the host: the rounds it names


@dataclass(slots=True)
class LoadedRoom:
    room: RoomRow
    seats: list[SeatRow]
    spectators: list[SpectatorRow]
    match: MatchRow | None = None
    snapshot: tuple[int, dict[str, Any]] | None = None  # (step, state JSON)
    tail: list[ActionRow] = field(default_factory=list)  # actions after the snapshot
    last_seq: int = 0
    last_client_seq: dict[str, int] = field(default_factory=dict)
    absences: list[AbsenceRow] = field(default_factory=list)  # of the current match
    last_action_at: float | None = None  # when the match's last stored action was applied


class StoreError(Exception):
    """The store could not make a write durable."""


class FencedError(StoreError):
    """A write for a room this store no longer owns: another node claimed a newer epoch, or
    this node let the room go. Nothing of the write is kept; the room must be dropped."""

    def __init__(self, room_id: str) -> None:
        super().__init__(f"room {room_id}: fenced (another node owns it)")
        self.room_id = room_id


class Store(Protocol):
    # Called with the room id when one of its writes was fenced (a cluster drops the room).
    on_fenced: list[Callable[[str], None]]

    async def save_room(self, row: RoomRow) -> None: ...

    async def save_seat(self, row: SeatRow) -> None: ...

    async def delete_seat(self, room_id: str, player_id: str) -> None: ...

    async def save_spectator(self, row: SpectatorRow) -> None: ...

    async def delete_spectator(self, room_id: str, token_key: str) -> None: ...

    async def begin_match(self, row: MatchRow) -> None: ...

    async def append_action(self, row: ActionRow) -> None:
        """Returns only once the action is committed."""
        ...

    async def save_snapshot(
        self, room_id: str, match: int, step: int, state: dict[str, Any]
    ) -> None: ...

    async def save_absence(self, row: AbsenceRow) -> None: ...

    async def finish_match(self, room_id: str, match: int, result: dict[str, Any]) -> None: ...

    async def code_taken(self, code: str) -> bool: ...

    async def load_room(self, ref: str) -> LoadedRoom | None:
        """A room by id or code, with what it takes to rebuild its current match."""
        ...

    async def unfinished_room_ids(self) -> list[str]: ...

    async def match_log(
        self, room_id: str, match: int
    ) -> tuple[MatchRow, list[ActionRow]] | None: ...

    async def ping(self) -> None:
        """Raises unless the database answers (the server's readiness check)."""
        ...

    async def claim_room(self, room_id: str, epoch: int, node: str) -> bool:
        """Records that ``node`` owns the room from ``epoch`` on (a cluster node that took
        its lease). From then on every write of this store for the room is fenced: it
        commits only while the stored epoch is still ``epoch``. False, and nothing changes,
        if the store already holds a newer epoch. A store never claimed writes unfenced."""
        ...

    def release_room(self, room_id: str) -> None:
        """This store stops writing for the room: its later writes fail with FencedError."""
        ...

    async def room_owner(self, room_id: str) -> tuple[int, str] | None:
        """The room's stored (epoch, node), None if no node ever claimed it."""
        ...

    async def close(self) -> None: ...
