"""All live rooms of a server: creating, finding, restoring, and the game catalogue."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from jokeapp.core.codes import CLOSE_RECONNECT
from jokeapp.core.contract import Game
from jokeapp.core.errors import GameError
from jokeapp.core.options import resolve_options
from jokeapp.games import load_games
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import Clock
from jokeapp.rooms.dispatch import handle
from jokeapp.rooms.errors import RoomError, error_frame
from jokeapp.rooms.match import LoggedStep, Match
from jokeapp.rooms.messages import game_info, room_info
from jokeapp.rooms.nickname import clean_nickname
from jokeapp.rooms.restore import restore_room
from jokeapp.rooms.room import Room
from jokeapp.rooms.status import RoomStatus
from jokeapp.store.api import Store
from jokeapp.telemetry.metrics import Metrics
from jokeapp.wire import protocol as p

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at a table
CODE_LENGTH = 6
OPEN_ROOMS_LIMIT = 100
EVICT_AFTER = 600.0  # seconds a finished, unwatched room stays in memory


def installed_games(ids: Iterable[str] | None = None) -> dict[str, Game[Any]]:
    """Every registered game; a broken engine raises (GameLoadError) instead of vanishing."""
    return load_games(ids)


class RoomManager:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        bot_delay: float = 1.0,
        games: Callable[[], dict[str, Game[Any]]] = installed_games,
        metrics: Metrics | None = None,
    ) -> None:
        self.metrics = metrics or Metrics()
        self.metrics.watch_rooms(lambda: [(r.game.id, str(r.status)) for r in self.rooms.values()])
        self.store = store
        self.clock = clock
        self.bot_delay = bot_delay
        self._games = games
        self.rooms: dict[str, Room] = {}
        self.by_code: dict[str, str] = {}
        # codes handed to rooms being created (not yet in by_code nor stored): two rooms opened
        # at once never get the same one (the second's row would break the unique code)
        self._codes_pending: set[str] = set()
        # A cluster's hooks (jokeapp.cluster); unset, one process holds every room.
        self.guard: Callable[[str], bool] | None = None  # may this node bring the room back?
        self.on_create: Callable[[Room], Awaitable[None]] | None = None  # before the host joins
        self.resume_clocks = False  # a room brought back keeps its decisions' start times

    def games(self) -> dict[str, Game[Any]]:
        return self._games()

    def catalogue(self) -> list[p.GameInfo]:
        return [game_info(g) for g in self.games().values()]

    def _game(self, game_id: object) -> Game[Any]:
        game = self.games().get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise RoomError("unknown_game")
        return game

    async def create(
        self, game_id: str, options: dict[str, Any], nickname: str
    ) -> tuple[Room, str, str]:
        game = self._game(game_id)
        clean_nickname(nickname)
        try:
            full = resolve_options(game.options, options)
        except GameError as exc:
            raise RoomError(exc.code, exc.detail) from exc
        code = await self._new_code()
        try:
            room = Room(
                room_id=secrets.token_hex(8),
                code=code,
                game=game,
                options=full,
                store=self.store,
                clock=self.clock,
                bot_delay=self.bot_delay,
                created_at=self.clock.now(),
            )
            await self.store.save_room(room.row())
            self._add(room)
        finally:
            self._codes_pending.discard(code)
        if self.on_create is not None:
            await self.on_create(room)
        token, player_id = await room.call(cmd.Join(nickname, "player"))
        assert player_id is not None
        return room, token, player_id

    async def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code in self.by_code or code in self._codes_pending:
                continue
            self._codes_pending.add(code)
            try:
                taken = await self.store.code_taken(code)
            except BaseException:
                self._codes_pending.discard(code)
                raise
            if not taken:
                return code
            self._codes_pending.discard(code)

    def _add(self, room: Room) -> None:
        room.attach(self.metrics)
        self.rooms[room.room_id] = room
        self.by_code[room.code] = room.room_id
        room.start_task(handle)

    async def get(self, ref: str) -> Room:
        ref_id = self.by_code.get(ref.upper(), ref) if len(ref) == CODE_LENGTH else ref
        room = self.rooms.get(ref_id)
        if room is not None:
            return room
        loaded = await self.store.load_room(ref_id if len(ref) != CODE_LENGTH else ref.upper())
        if loaded is None:
            raise RoomError("room_not_found")
        if loaded.room.room_id in self.rooms:  # restored meanwhile by another request
            return self.rooms[loaded.room.room_id]
        if self.guard is not None and not self.guard(loaded.room.room_id):
            raise RoomError("room_moving")  # another node owns it
        room = restore_room(
            loaded,
            self._game(loaded.room.game),
            self.store,
            self.clock,
            self.bot_delay,
            resume_clocks=self.resume_clocks,
        )
        if room.status == RoomStatus.PLAYING and room.match is not None and room.match.over:
            await room.finish()  # the server stopped between the last action and the end
        elif room.status == RoomStatus.PLAYING and not room.members.people_left():
            await room.finish(abandoned=True)  # stored before bots-only rooms were stopped
        self._add(room)
        room.schedule()
        return room

    def local(self, ref: str) -> Room | None:
        """The room if this server holds it in memory, without loading it."""
        ref_id = self.by_code.get(ref.upper(), ref) if len(ref) == CODE_LENGTH else ref
        return self.rooms.get(ref_id)

    async def drop(self, room_id: str, *, notice: bool = True) -> None:
        """Forgets a live room at once (another node owns it now): its task stops, its
        sockets close with "reconnect", after a `room_moving` frame unless ``notice`` is
        False (a planned move: the client just reconnects). The store keeps everything it
        acknowledged."""
        room = self.rooms.pop(room_id, None)
        if room is None:
            return
        self.by_code.pop(room.code, None)
        for key, conn in room.audience:
            if notice:
                conn.send(error_frame("room_moving"))
            conn.close(CLOSE_RECONNECT)
            room.audience.detach(key)
        await room.stop()

    async def restore_all(self) -> int:
        """Brings back every unfinished room; their clocks resume from now."""
        count = 0
        for room_id in await self.store.unfinished_room_ids():
            try:
                await self.get(room_id)
                count += 1
            except Exception:
                log.exception("room could not be restored", extra={"room_id": room_id})
        return count

    def open_rooms(self) -> list[p.RoomInfo]:
        live = [r for r in self.rooms.values() if r.status != RoomStatus.FINISHED]
        live.sort(key=lambda r: r.created_at, reverse=True)
        return [room_info(r) for r in live[:OPEN_ROOMS_LIMIT]]

    async def record(self, ref: str, match: int | None) -> dict[str, Any]:
        room = await self.get(ref)
        number = match if match is not None else room.series.number
        if room.status != RoomStatus.FINISHED and number >= room.series.number:
            number = room.series.number - 1 if match is None else number
        if (
            number < 1
            or (number == room.series.number and room.status != RoomStatus.FINISHED)
            or number > room.series.number
        ):
            raise RoomError("record_not_ready")
        stored = await self.store.match_log(room.room_id, number)
        if stored is None:
            raise RoomError("record_not_ready")
        row, actions = stored
        steps = [LoggedStep(a.actor, a.action, a.auto) for a in actions]
        replayed = Match(room.game, row.match, row.options, row.players, row.seed, None)
        record = replayed.record(steps)
        nicknames = {pid: s.nickname for pid, s in room.members.seats.items()}
        record.update(
            roomId=room.room_id, match=number, seedHash=replayed.seed_hash, nicknames=nicknames
        )
        if (row.result or {}).get("abandoned"):
            record["abandoned"] = True  # stopped when no person was left: it has no result
        return record

    async def evict_idle(self, after: float = EVICT_AFTER) -> int:
        """Drops finished rooms nobody watches; the store still has them (loaded on demand)."""
        now = self.clock.now()
        idle = [
            room
            for room in self.rooms.values()
            if room.status == RoomStatus.FINISHED
            and not room.audience
            and room.series.finished_at is not None
            and room.series.finished_at <= now - after
        ]
        for room in idle:
            await room.stop()
            del self.rooms[room.room_id]
            self.by_code.pop(room.code, None)
        return len(idle)

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            await room.stop()
