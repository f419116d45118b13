"""A live room: its collaborators, and one asyncio task handling its commands in order.

Each part of a room owns its fields: ``members`` (seats, spectators, host), ``series`` (the
status and the match), ``absences`` (spec 8.5's counters), ``book`` (open decisions and their
deadlines), ``audience`` (open connections and the update number) and ``timers``. The room
changes them only through their methods, here and in the command modules (``dispatch``
routes each command); an action is appended to the store's log before its update leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from jokeapp.core.contract import (
    Action,
    Event,
    Game,
    ViewParts,
    presentation_pause,
    view_parts,
)
from jokeapp.core.rng import Rng
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.absence import Absences
from jokeapp.rooms.audience import Audience
from jokeapp.rooms.clock import Clock
from jokeapp.rooms.deadlines import DeadlineBook, earliest
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.match import LoggedStep, Match
from jokeapp.rooms.members import Members, Seat, token_key
from jokeapp.rooms.queue import CommandQueue
from jokeapp.rooms.series import Series
from jokeapp.rooms.status import RoomStatus
from jokeapp.rooms.timers import Timers
from jokeapp.store.api import ActionRow, FencedError, MatchRow, RoomRow, Store, StoreError
from jokeapp.telemetry import logs
from jokeapp.telemetry.metrics import DETACHED, Metrics

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 50  # actions between two stored state snapshots
# Update numbers the store reserves at once for updates that are not logged actions (room
# changes: a join, a connection coming or going, a host command): at most one write per this
# many updates, and a restored room skips at most this many numbers.
SEQ_RESERVE = 100
# The most update numbers one command takes (a timeout: its step, then an AFK offer).
SEQ_PER_COMMAND = 3
NOBODY: frozenset[str] = frozenset()  # nobody away

Handler = Callable[["Room", cmd.Command], Awaitable[Any]]


# a room's commands, each with its future (None: nobody waits) and its sender's request id
_Queued = tuple[cmd.Command, asyncio.Future[Any] | None, str | None]
_Queue = CommandQueue[_Queued]


def _post(queue: _Queue, command: cmd.Command) -> None:
    queue.put((command, None, logs.REQUEST_ID.get()))


class Room:
    def __init__(
        self,
        *,
        room_id: str,
        code: str,
        game: Game[Any],
        options: dict[str, Any],
        store: Store,
        clock: Clock,
        bot_delay: float = 1.0,
        created_at: float = 0.0,
        members: Members | None = None,
        series: Series | None = None,
        seq: int = 0,
        seq_reserved: int = 0,
    ) -> None:
        """A new room, or (``members``, ``series``, ``seq``, ``seq_reserved``) one rebuilt
        from the store."""
        self.room_id = room_id
        self.code = code
        self.game = game
        self.options = options  # the next match's options (the host may change them)
        self.store = store
        self.clock = clock
        self.created_at = created_at
        self.members = members or Members()
        self.series = series or Series()
        self.absences = Absences(room_id)
        self.book = DeadlineBook(game.absence, self.absences)
        self.audience = Audience(seq, seq_reserved)
        self.bot_rng = Rng.from_seed(int.from_bytes(room_id.encode()[:8].ljust(8, b"\0"), "big"))
        self._queue: _Queue = CommandQueue()
        # the timers post to the queue, not through the room: a room its manager dropped then
        # holds no cycle (room -> timers -> bound method -> room), so reference counting frees
        # it at once instead of leaving it for the collector's full pass (server/collector.py)
        self.timers = Timers(clock, functools.partial(_post, self._queue), bot_delay)
        self._task: asyncio.Task[None] | None = None
        self._command: cmd.Command | None = None  # the one being handled, for its log lines
        self._busy = False  # a command is being handled
        self._idle: asyncio.Future[None] | None = None  # hold() waits on it for that command
        self._holding: asyncio.Future[None] | None = None  # set: take no next command (hold)
        self.counts = DETACHED.for_game(game.id)
        self.metrics = DETACHED  # the server's, once the manager holds the room (attach)
        # the views the last update built for the bots about to move: (match, its steps then,
        # the parts), so a bot's move builds no view of its own (keep_bot_views, bot_view)
        self._bot_views: tuple[Match, int, ViewParts] | None = None

    def attach(self, metrics: Metrics) -> None:
        """Counts into ``metrics`` (the server's) from now on."""
        self.metrics = metrics
        self.counts = metrics.for_game(self.game.id)

    # ------------------------------------------------------------ the serialized task

    def start_task(self, handler: Handler) -> None:
        """Starts handling the queued commands, each by ``handler`` (rooms.dispatch.handle)."""
        self._task = asyncio.get_running_loop().create_task(
            self._run(handler), name=f"room-{self.room_id}"
        )

    async def stop(self) -> None:
        self.timers.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        items = self._queue.items
        while items:  # nobody will handle these: their callers learn it
            _, future, _ = items.popleft()
            self._queue.done()
            if future is not None and not future.done():
                future.set_exception(RoomError("room_moving"))

    def submit(self, command: cmd.Command) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put((command, future, logs.REQUEST_ID.get()))
        return future

    def post(self, command: cmd.Command) -> None:
        """Like ``submit`` when nobody waits for the answer (timers, sockets)."""
        _post(self._queue, command)

    async def call(self, command: cmd.Command) -> Any:
        return await self.submit(command)

    async def settle(self) -> None:
        """Waits until every queued command is handled (tests; a room handed to another node)."""
        await self._queue.join()

    async def hold(self) -> None:
        """Lets the command being handled finish and takes no next one (they stay queued
        until ``stop`` answers them ``room_moving``): a room let go on purpose is stopped
        between two commands, never in the middle of one (a start whose match row is stored
        but not yet its room's status)."""
        loop = asyncio.get_running_loop()
        if self._holding is None:
            self._holding = loop.create_future()
        if self._busy:
            if self._idle is None:
                self._idle = loop.create_future()
            await asyncio.shield(self._idle)

    async def _run(self, handler: Handler) -> None:
        logs.ROOM_ID.set(self.room_id)  # this task's context: every line it logs names the room
        logs.SEAT.set(self._seat_now)  # resolved only when a line is written: nothing per command
        queue = self._queue
        items = queue.items
        while True:
            if self._holding is not None:
                await self._holding  # until stop() cancels it: the queue waits for stop()
            if not items:
                await queue.wait()
                if self._holding is not None:
                    continue  # held while it slept: the command stays queued for stop()
            command, future, request_id = items.popleft()
            self._command = command
            self._busy = True
            logs.REQUEST_ID.set(request_id)
            try:
                result = await handler(self, command)
            except asyncio.CancelledError:
                if future is not None and not future.done():
                    future.set_exception(RoomError("room_moving"))  # stopped under it
                raise
            except RoomError as exc:
                if future is not None and not future.done():
                    future.set_exception(exc)
            except FencedError:
                # Another node owns the room now (this copy is being dropped): nothing of the
                # refused write was kept; whoever waits asks the new owner.
                if future is not None and not future.done():
                    future.set_exception(RoomError("room_moving"))
            except Exception:  # a bug must not take the room down with it
                # Logged here, once, with its traceback; whoever waits gets `internal`, which
                # the HTTP layer answers without logging it again.
                self.metrics.room_failures.inc()
                log.exception("room command %s failed", type(command).__name__)
                if future is not None and not future.done():
                    future.set_exception(RoomError("internal"))
            else:
                if future is not None and not future.done():
                    future.set_result(result)
            finally:
                self._busy = False
                idle = self._idle
                if idle is not None:
                    self._idle = None
                    if not idle.done():
                        idle.set_result(None)
                queue.done()

    def _seat_now(self) -> str | None:
        return None if self._command is None else self.seat_named_by(self._command)

    def seat_named_by(self, command: cmd.Command) -> str | None:
        """The seat (or ``spectator``) a command comes from, for the log line it causes."""
        conn = getattr(command, "conn", None)
        token = getattr(command, "token", None)
        key = self.audience.key_of(conn) if conn is not None else None
        if key is None and isinstance(token, str):
            key = token_key(token)  # a connection that is not in the room yet, an HTTP command
        if key is None:
            player = getattr(command, "player_id", None)  # a bot's move
            return player if isinstance(player, str) and conn is None else None
        seat = self.members.seat_of(key)
        if seat is not None:
            return seat.player_id
        return "spectator" if key in self.members.spectators else None

    # ------------------------------------------------------------ what the room is in

    @property
    def status(self) -> RoomStatus:
        return self.series.status

    @property
    def match(self) -> Match | None:
        return self.series.match

    def row(self) -> RoomRow:
        return RoomRow(
            self.room_id,
            self.code,
            self.game.id,
            self.options,
            str(self.status),
            self.series.number,
            self.members.host_id,
            self.created_at,
            self.audience.reserved,
        )

    async def reserve_numbers(self) -> None:
        """Before a command whose updates may not be logged actions: makes sure the store holds
        the next ``SEQ_PER_COMMAND`` numbers as reserved (reserving ``SEQ_RESERVE`` ahead when
        not), so a room restored from the store goes on above every number it sent. A logged
        action's number is in its row: only room changes need this."""
        audience = self.audience
        if audience.seq + SEQ_PER_COMMAND <= audience.reserved:
            return
        row = self.row()
        row.seq_reserved = audience.seq + SEQ_RESERVE
        await self.store.save_room(row)
        audience.reserved = row.seq_reserved

    def is_away(self, seat: Seat) -> bool:
        """The timeout rules play for this seat now (see docs/server.md, "Connection state")."""
        if not self.series.playing or seat.bot:
            return False
        if seat.gone:
            return True
        if seat.connected:
            return False
        if seat.timed_out_away:
            return True
        grace = self.book.policy.grace
        at = seat.disconnected_at
        return grace is not None and at is not None and self.clock.now() >= at + grace

    def everyone_here(self) -> bool:
        """Every seat is a bot or connected: nobody is away and no grace runs (``is_away``
        needs a seat that is not connected), which is almost always so while people play."""
        for seat in self.members.seats.values():
            if not seat.connected and seat.bot_policy is None:
                return False
        return True

    def away_players(self) -> frozenset[str]:
        if self.everyone_here():
            return NOBODY
        return frozenset(p for p, seat in self.members.seats.items() if self.is_away(seat))

    def view_for(self, viewer: str | None) -> dict[str, Any] | None:
        match = self.series.match
        return None if match is None else self.game.view(match.state, viewer)

    def views_for(self, viewers: Iterable[str | None]) -> ViewParts:
        """``view_for`` of several viewers at once, as the part they see alike and each one's
        own keys (core.contract.view_parts)."""
        match = self.series.match
        if match is None:
            return ViewParts({}, dict.fromkeys(viewers))
        return view_parts(self.game, match.state, viewers)

    def deciding_bots(self) -> list[str]:
        """The bots with an open decision: the seats whose view their next move reads."""
        members = self.members
        if not self.series.playing or not members.has_bots():
            return []
        return [d.player for d in self.book.decisions if members.is_bot(d.player)]

    def keep_bot_views(self, parts: ViewParts) -> None:
        """Keeps the views of ``parts`` (built for the state now) for the bots' next moves."""
        match = self.series.match
        self._bot_views = None if match is None else (match, match.steps, parts)

    def bot_view(self, player: str) -> dict[str, Any] | None:
        """``player``'s view of the state now, as the last update built it; None when it did
        not (not a deciding bot then) or the match moved on since (a step, a reload)."""
        kept = self._bot_views
        match = self.series.match
        if kept is None or kept[0] is not match or match is None or kept[1] != match.steps:
            return None
        parts = kept[2]
        return parts.view(player) if player in parts.own else None

    def kick_action(self) -> Mapping[str, Any] | None:
        return self.book.policy.kick_action

    # ------------------------------------------------------------ the match

    async def begin_match(self, match: Match) -> None:
        """Starts ``match`` (lobby or finished → playing), stored, with its first deadlines."""
        await self.store.begin_match(
            MatchRow(self.room_id, match.number, match.seed, match.players, dict(match.options))
        )
        match.remember_only(self.members.bot_players())  # only bots ask what their seat saw
        self.series.begin(match)
        self.absences.reset()
        await self.store.save_room(self.row())
        pause = presentation_pause(self.game, match.setup_events)  # e.g. a seat draw is shown
        self.book.refresh(self.game.pending(match.state), None, self.clock.now(), pause)

    async def record_step(
        self, actor: str, action: Action, auto: bool, client_seq: int | None = None
    ) -> list[Event]:
        """Applies one action, makes it durable, then updates the clocks (not yet sent)."""
        match = self.series.match
        assert match is not None
        events = match.apply(actor, action)
        row = ActionRow(
            self.room_id,
            match.number,
            match.steps,
            self.audience.seq + 1,
            actor,
            action,
            auto,
            client_seq,
            self.clock.now(),
        )
        began = time.perf_counter()
        try:
            await self.store.append_action(row)
            self.counts.store_append.observe(time.perf_counter() - began)
        except FencedError:
            raise  # another node owns the room now: this copy is dropped, nothing to undo
        except Exception as exc:
            log.exception("action not stored; rolling back")
            await self.reload_match()
            raise StoreError("action not stored") from exc
        if client_seq is not None:
            self.series.last_client_seq[actor] = client_seq
        if auto:
            self.absences.timed_out(actor)
        else:
            self.absences.acted_themselves(actor)
        if match.over:
            await self.finish()
        else:
            absence = self.absences.unsaved(match.number, actor)  # most steps: None, no await
            if absence is not None:
                await self.store.save_absence(absence)
                self.absences.saved(absence)
            if match.steps % SNAPSHOT_EVERY == 0:
                began = time.perf_counter()
                await self.store.save_snapshot(
                    self.room_id, match.number, match.steps, self.game.to_json(match.state)
                )
                self.counts.store_snapshot.observe(time.perf_counter() - began)
            pause = presentation_pause(self.game, events)
            self.book.refresh(self.game.pending(match.state), actor, self.clock.now(), pause)
        return events

    async def save_absence(self, player: str) -> None:
        """Stores a seat's absence counters when they changed, so a restart keeps them."""
        if self.series.match is None:
            return
        row = self.absences.unsaved(self.series.match.number, player)
        if row is not None:
            await self.store.save_absence(row)
            self.absences.saved(row)

    async def reload_match(self) -> None:
        """Puts the match back to exactly what the store holds (after a failed write)."""
        assert self.series.match is not None
        stored = await self.store.match_log(self.room_id, self.series.match.number)
        if stored is None:
            return
        row, actions = stored
        steps = [LoggedStep(a.actor, a.action, a.auto) for a in actions]
        match = Match.restore(self.game, row.match, row.options, row.players, row.seed, None, steps)
        match.remember_only(self.members.bot_players())
        self.series.reloaded(match)
        self.book.refresh(self.game.pending(match.state), None, self.clock.now())

    async def finish(self, *, abandoned: bool = False) -> None:
        """Ends the match: by the rules, or ``abandoned`` when no person is left to play it."""
        match = self.series.match
        assert match is not None
        self.series.finish(self.clock.now(), abandoned=abandoned)
        self.book.clear()
        self.absences.clear_offers()
        result = {"abandoned": True} if abandoned else self.game.result(match.state) or {}
        await self.store.finish_match(self.room_id, match.number, result)
        await self.store.save_room(self.row())

    # ------------------------------------------------------------ the clocks

    def schedule(self, deadlines: list[float | None] | None = None) -> None:
        """Re-arms the room's deadline timer, the next end of a grace and the bots' moves;
        ``deadlines``: the book's ``deadlines`` of now, when the update just sent worked them
        out (so they are worked out once)."""
        if not self.series.playing:
            self.timers.cancel()
            return
        seats = self.members.seats
        starts: dict[str, float] = {}
        for d in self.book.decisions:
            if self.members.is_bot(d.player):
                starts[d.player] = min(starts.get(d.player, d.since), d.since)
        if deadlines is None:
            deadlines = self.book.deadlines(seats)
        self.timers.arm(earliest(deadlines), self._next_grace_end(), starts)

    def _next_grace_end(self) -> float | None:
        """When the next disconnected seat's grace ends, so its ``away`` goes out then."""
        grace = self.book.policy.grace
        if grace is None or self.everyone_here():
            return None
        ends = [
            seat.disconnected_at + grace
            for seat in self.members.seats.values()
            if not seat.bot
            and not seat.connected
            and seat.disconnected_at is not None
            and not self.is_away(seat)
        ]
        return min(ends) if ends else None
