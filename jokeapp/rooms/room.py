"""A live room: one asyncio task handles its commands one at a time, in arrival order.

Every change (an action, a timeout, a bot's move, a join, a host command, a connection coming
or going) goes through ``handle`` and, when it changes what people see, takes the next update
number and is sent to every open connection, filtered for that viewer. An action is appended
to the store's log before its update leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from jokeapp.core.contract import Action, Event, Game, presentation_pause
from jokeapp.core.rng import Rng
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import Clock, Timer
from jokeapp.rooms.deadlines import AbsenceRules, DeadlineBook, rules_for
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.match import LoggedStep, Match
from jokeapp.rooms.members import Seat, Spectator
from jokeapp.store.api import AbsenceRow, ActionRow, FencedError, RoomRow, Store, StoreError

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 50  # actions between two stored state snapshots


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
        rules: AbsenceRules | None = None,
    ) -> None:
        self.room_id = room_id
        self.code = code
        self.game = game
        self.options = options
        self.store = store
        self.clock = clock
        self.bot_delay = bot_delay
        self.created_at = created_at
        self.status = "lobby"
        self.match_no = 0
        self.host_id: str | None = None
        self.seats: dict[str, Seat] = {}
        self.spectators: dict[str, Spectator] = {}
        self.conns: dict[str, cmd.Connection] = {}  # token key -> its one open connection
        self.match: Match | None = None
        self.seq = 0
        self.last_client_seq: dict[str, int] = {}
        self.book = DeadlineBook(rules or rules_for(game.id))
        # marble 8.5: rounds in a row whose turns the timeout rule played, and the last one
        self.afk_rounds: dict[str, int] = {}
        self.afk_last_round: dict[str, int] = {}
        self.afk_offers: dict[str, int] = {}
        self._absence_saved: dict[str, AbsenceRow] = {}
        self.abandoned = False  # the match was stopped because no person was left in it
        self.finished_at: float | None = None
        self._away_sent: frozenset[str] = frozenset()
        self._timer: Timer | None = None
        self._away_timer: Timer | None = None
        self._bots_waiting: dict[str, Timer] = {}
        self._bot_rng = Rng.from_seed(int.from_bytes(room_id.encode()[:8].ljust(8, b"\0"), "big"))
        self._queue: asyncio.Queue[tuple[cmd.Command, asyncio.Future[Any] | None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ the serialized task

    def start_task(self) -> None:
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"room-{self.room_id}"
        )

    async def stop(self) -> None:
        self._cancel_timers()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        while not self._queue.empty():  # nobody will handle these: their callers learn it
            _, future = self._queue.get_nowait()
            self._queue.task_done()
            if future is not None and not future.done():
                future.set_exception(RoomError("room_moving"))

    def submit(self, command: cmd.Command) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future))
        return future

    def post(self, command: cmd.Command) -> None:
        """Like ``submit`` when nobody waits for the answer (timers, sockets)."""
        self._queue.put_nowait((command, None))

    async def call(self, command: cmd.Command) -> Any:
        return await self.submit(command)

    async def settle(self) -> None:
        """Waits until every queued command is handled (tests)."""
        await self._queue.join()

    async def _run(self) -> None:
        while True:
            command, future = await self._queue.get()
            try:
                result = await self.handle(command)
            except asyncio.CancelledError:
                if future is not None and not future.done():
                    future.set_exception(RoomError("room_moving"))  # stopped under it
                raise
            except RoomError as exc:
                if future is not None and not future.done():
                    future.set_exception(exc)
            except Exception as exc:  # a bug must not take the room down with it
                log.exception("room %s: %r failed", self.room_id, command)
                if future is not None and not future.done():
                    future.set_exception(exc)
            else:
                if future is not None and not future.done():
                    future.set_result(result)
            finally:
                self._queue.task_done()

    async def handle(self, command: cmd.Command) -> Any:
        from jokeapp.rooms import hosting, playing

        match command:
            case cmd.Connect():
                return await playing.connect(self, command)
            case cmd.Disconnect():
                return await playing.disconnect(self, command)
            case cmd.ClientAction():
                return await playing.client_action(self, command)
            case cmd.Resync():
                key = self.key_of(command.conn)
                if key is not None:
                    command.conn.send(self.snapshot(key))
                return None
            case cmd.Timeout():
                return await playing.timeout(self)
            case cmd.AwayCheck():
                self._away_timer = None
                if self.away_players() != self._away_sent:
                    self.publish(room_changed=True)
                self.schedule()
                return None
            case cmd.BotMove():
                return await playing.bot_move(self, command.player_id)
            case cmd.Info():
                return self.info()
            case _:
                return await hosting.handle(self, command)

    # ------------------------------------------------------------ who is who

    def key_of(self, conn: cmd.Connection) -> str | None:
        for key, open_conn in self.conns.items():
            if open_conn is conn:
                return key
        return None

    def seat_of(self, key: str) -> Seat | None:
        for seat in self.seats.values():
            if seat.token_key == key:
                return seat
        return None

    def viewer_of(self, key: str) -> str | None:
        seat = self.seat_of(key)
        return seat.player_id if seat is not None else None

    # ------------------------------------------------------------ what people see

    def row(self) -> RoomRow:
        return RoomRow(
            self.room_id,
            self.code,
            self.game.id,
            self.options,
            self.status,
            self.match_no,
            self.host_id,
            self.created_at,
        )

    def is_away(self, seat: Seat) -> bool:
        """The timeout rules play for this seat now (see docs/server.md, "Connection state")."""
        if self.status != "playing" or seat.bot:
            return False
        if seat.gone:
            return True
        if seat.connected:
            return False
        if seat.timed_out_away:
            return True
        grace = self.book.rules.grace
        at = seat.disconnected_at
        return grace is not None and at is not None and self.clock.now() >= at + grace

    def people_left(self) -> bool:
        """Whether any person still holds a seat (connected or not); bots never play alone."""
        return any(not s.bot and not s.gone for s in self.seats.values())

    def away_players(self) -> frozenset[str]:
        return frozenset(p for p, seat in self.seats.items() if self.is_away(seat))

    def info(self) -> dict[str, Any]:
        seats = sorted(self.seats.values(), key=lambda s: int(s.player_id[1:]))
        away = self.away_players()
        return {
            "roomId": self.room_id,
            "code": self.code,
            "game": self.game.id,
            "title": self.game.title,
            "options": self.options,
            "status": self.status,
            "match": self.match_no,
            "hostId": self.host_id,
            "seats": [s.info(self.host_id, s.player_id in away) for s in seats],
            "spectators": len(self.spectators),
            "minPlayers": self.game.min_players,
            "maxPlayers": self.game.max_players,
            "seedHash": self.match.seed_hash if self.match is not None else None,
            "afkOffers": [{"playerId": p, "rounds": n} for p, n in sorted(self.afk_offers.items())],
            "abandoned": self.abandoned,
        }

    def pending_info(self) -> list[dict[str, Any]]:
        if self.match is None or self.status != "playing":
            return []
        out = []
        for decision in self.book.decisions:
            when = self.book.deadline(decision, self.seats.get(decision.player))
            out.append(
                {
                    "player": decision.player,
                    "kind": decision.kind,
                    "deadline": None if when is None else int(when * 1000),
                }
            )
        return out

    def view_for(self, viewer: str | None) -> dict[str, Any] | None:
        if self.match is None:
            return None
        return self.game.view(self.match.state, viewer)

    def snapshot(self, key: str) -> dict[str, Any]:
        seat = self.seat_of(key)
        spectator = self.spectators.get(key)
        viewer = seat.player_id if seat is not None else None
        nickname = seat.nickname if seat is not None else (spectator.nickname if spectator else "")
        return {
            "type": "snapshot",
            "seq": self.seq,
            "room": self.info(),
            "you": {
                "playerId": viewer,
                "role": "player" if seat is not None else "spectator",
                "nickname": nickname,
                "host": viewer is not None and viewer == self.host_id,
            },
            "view": self.view_for(viewer),
            "pending": self.pending_info(),
            "seedHash": self.match.seed_hash if self.match is not None else None,
            "lastClientSeq": self.last_client_seq.get(viewer, 0) if viewer else 0,
            "setupEvents": self.setup_events_for(viewer),
        }

    def setup_events_for(self, viewer: str | None) -> list[Event] | None:
        """The viewer's copy of the match's setup events (a draw, a deal) until its first step,
        so someone who connects before anyone played can still be shown how it began."""
        if self.match is None or self.status != "playing" or self.match.steps > 0:
            return None
        return self._redacted(self.match.setup_events, viewer)

    def publish(
        self,
        events: list[Event] | None = None,
        *,
        room_changed: bool = False,
        actor: str | None = None,
        auto: bool = False,
        ack: tuple[str, int] | None = None,
    ) -> None:
        """Takes the next update number and sends it to everyone, filtered per viewer."""
        self.seq += 1
        away = self.away_players()
        if away != self._away_sent:
            room_changed = True  # a seat's ``away`` changed: everyone must see it
        if room_changed:
            self._away_sent = away
        room = self.info() if room_changed else None
        pending = self.pending_info()
        per_viewer: dict[str | None, dict[str, Any]] = {}
        for key, conn in list(self.conns.items()):
            viewer = self.viewer_of(key)
            if viewer not in per_viewer:
                per_viewer[viewer] = {
                    "type": "update",
                    "seq": self.seq,
                    "events": self._redacted(events or [], viewer),
                    "view": self.view_for(viewer),
                    "pending": pending,
                    "room": room,
                    "ack": None,
                    "actor": actor,
                    "auto": auto,
                }
            message = per_viewer[viewer]
            if ack is not None and ack[0] == key:
                message = {**message, "ack": ack[1]}
            conn.send(message)

    def _redacted(self, events: list[Event], viewer: str | None) -> list[Event]:
        out = []
        for event in events:
            copy = self.game.redact_event(event, viewer)
            if copy is not None:
                out.append(copy)
        return out

    # ------------------------------------------------------------ the match and its clocks

    async def record_step(
        self, actor: str, action: Action, auto: bool, client_seq: int | None = None
    ) -> list[Event]:
        """Applies one action, makes it durable, then updates the clocks (not yet sent)."""
        assert self.match is not None
        events = self.match.apply(actor, action)
        row = ActionRow(
            self.room_id,
            self.match.number,
            self.match.steps,
            self.seq + 1,
            actor,
            action,
            auto,
            client_seq,
            self.clock.now(),
        )
        try:
            await self.store.append_action(row)
        except FencedError:
            raise  # another node owns the room now: this copy is dropped, nothing to undo
        except Exception as exc:
            log.exception("room %s: action not stored; rolling back", self.room_id)
            await self.reload_match()
            raise StoreError("action not stored") from exc
        if client_seq is not None:
            self.last_client_seq[actor] = client_seq
        if auto:
            self.book.timed_out(actor)
        else:
            self.book.acted_themselves(actor)
            self.afk_rounds.pop(actor, None)
            self.afk_last_round.pop(actor, None)
        if self.match.over:
            await self.finish()
        else:
            await self.save_absence(actor)
            if self.match.steps % SNAPSHOT_EVERY == 0:
                await self.store.save_snapshot(
                    self.room_id,
                    self.match.number,
                    self.match.steps,
                    self.game.to_json(self.match.state),
                )
            pause = presentation_pause(self.game, events)
            self.book.refresh(self.game.pending(self.match.state), actor, self.clock.now(), pause)
        return events

    def absence_row(self, player: str) -> AbsenceRow:
        assert self.match is not None
        return AbsenceRow(
            self.room_id,
            self.match.number,
            player,
            self.book.timeouts_in_row.get(player, 0),
            self.afk_rounds.get(player, 0),
            self.afk_last_round.get(player),
            self.afk_offers.get(player),
        )

    async def save_absence(self, player: str) -> None:
        """Stores a seat's absence counters when they changed, so a restart keeps them."""
        if self.match is None:
            return
        row = self.absence_row(player)
        if row == self._absence_saved.get(
            player, AbsenceRow(self.room_id, self.match.number, player)
        ):
            return  # unchanged (most own actions): no write
        await self.store.save_absence(row)
        self._absence_saved[player] = row

    def reset_absences(self) -> None:
        """A new match: every counter starts from zero (nothing is stored for it yet)."""
        self.afk_rounds.clear()
        self.afk_last_round.clear()
        self.afk_offers.clear()
        self.book.timeouts_in_row.clear()
        self._absence_saved.clear()

    def load_absences(self, rows: list[AbsenceRow]) -> None:
        for row in rows:
            self.book.timeouts_in_row[row.player_id] = row.timeouts_in_row
            if row.absent_rounds:
                self.afk_rounds[row.player_id] = row.absent_rounds
            if row.last_absent_round is not None:
                self.afk_last_round[row.player_id] = row.last_absent_round
            if row.offer is not None:
                self.afk_offers[row.player_id] = row.offer
            self._absence_saved[row.player_id] = row

    async def reload_match(self) -> None:
        """Puts the match back to exactly what the store holds (after a failed write)."""
        assert self.match is not None
        stored = await self.store.match_log(self.room_id, self.match.number)
        if stored is None:
            return
        row, actions = stored
        steps = [LoggedStep(a.actor, a.action, a.auto) for a in actions]
        self.match = Match.restore(
            self.game, row.match, row.options, row.players, row.seed, None, steps
        )
        self.book.refresh(self.game.pending(self.match.state), None, self.clock.now())

    async def finish(self, *, abandoned: bool = False) -> None:
        """Ends the match: by the rules, or ``abandoned`` when no person is left to play it."""
        assert self.match is not None
        self.status = "finished"
        self.abandoned = abandoned
        self.finished_at = self.clock.now()
        self.book.clear()
        self.afk_offers.clear()
        result = {"abandoned": True} if abandoned else self.game.result(self.match.state) or {}
        await self.store.finish_match(self.room_id, self.match.number, result)
        await self.store.save_room(self.row())

    def schedule(self) -> None:
        """Re-arms the room's one deadline timer and the bots' moves."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.status != "playing":
            self._cancel_timers()
            return
        now = self.clock.now()
        due = self.book.next_deadline(self.seats)
        if due is not None:
            self._timer = self.clock.call_later(due - now, lambda: self.post(cmd.Timeout()))
        self._arm_away_check(now)
        starts: dict[str, float] = {}
        for d in self.book.decisions:
            if self._is_bot(d.player):
                starts[d.player] = min(starts.get(d.player, d.since), d.since)
        for player in list(self._bots_waiting):
            if player not in starts:
                self._bots_waiting.pop(player).cancel()
        for player in set(starts) - set(self._bots_waiting):
            # a bot sits through the presentation pause too, then "thinks" for bot_delay
            delay = max(0.0, starts[player] - now) + self.bot_delay
            self._bots_waiting[player] = self.clock.call_later(
                delay,
                lambda p=player: self.post(cmd.BotMove(p)),  # type: ignore[misc]
            )

    def _arm_away_check(self, now: float) -> None:
        """A timer at the next end of a grace, so that seat's ``away`` goes out when it happens."""
        if self._away_timer is not None:
            self._away_timer.cancel()
            self._away_timer = None
        grace = self.book.rules.grace
        if grace is None:
            return
        ends = [
            seat.disconnected_at + grace
            for seat in self.seats.values()
            if not seat.bot
            and not seat.connected
            and seat.disconnected_at is not None
            and not self.is_away(seat)
        ]
        if ends:
            self._away_timer = self.clock.call_later(
                max(0.0, min(ends) - now), lambda: self.post(cmd.AwayCheck())
            )

    def bot_done(self, player: str) -> None:
        self._bots_waiting.pop(player, None)

    def _is_bot(self, player: str) -> bool:
        seat = self.seats.get(player)
        return seat is not None and seat.bot

    def _cancel_timers(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._away_timer is not None:
            self._away_timer.cancel()
            self._away_timer = None
        for timer in self._bots_waiting.values():
            timer.cancel()
        self._bots_waiting.clear()

    def bot_rng(self) -> Rng:
        return self._bot_rng

    def concede_action(self) -> Mapping[str, Any] | None:
        return self.book.rules.concede
