"""The turns of a match in progress: a player's action, a timeout, a bot's move, and the
server acting for a player; each one step, validated by the game, stored, then sent."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from jokeapp.core.bots import Budget, decides_quickly
from jokeapp.core.contract import Action, round_of
from jokeapp.core.errors import GameError
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.errors import error_frame
from jokeapp.rooms.messages import publish
from jokeapp.rooms.room import Room
from jokeapp.rooms.status import RoomStatus
from jokeapp.store.api import FencedError, StoreError

log = logging.getLogger(__name__)

# A search bot thinks at most this long per move (in a worker thread, so the event loop and
# the other rooms carry on); the iteration cap only matters on a very fast machine.
BOT_THINK_SECONDS = 0.3
BOT_MAX_ITERATIONS = 100_000


def bot_budget() -> Budget:
    stop = time.monotonic() + BOT_THINK_SECONDS
    return Budget(BOT_MAX_ITERATIONS, lambda: time.monotonic() >= stop)


def _refuse(
    room: Room,
    conn: cmd.Connection,
    error: GameError | str,
    client_seq: int | None,
    detail: dict[str, Any] | None = None,
) -> None:
    """Answers a client's refused action with its error, and counts it by code."""
    code = error if isinstance(error, str) else error.code
    room.counts.refused(code)
    if isinstance(error, str):
        conn.send(error_frame(error, client_seq, detail))
    else:
        conn.send(error_frame(error, client_seq))


async def client_action(room: Room, command: cmd.ClientAction) -> None:
    conn = command.conn
    key = room.audience.key_of(conn)
    if key is None:
        return
    seat = room.members.seat_of(key)
    if seat is None:
        _refuse(room, conn, "spectator", command.client_seq)
        return
    if room.status == RoomStatus.LOBBY or room.match is None:
        _refuse(room, conn, "not_started", command.client_seq)
        return
    if room.status == RoomStatus.FINISHED:
        _refuse(room, conn, "game_over", command.client_seq)
        return
    player = seat.player_id
    # clientSeq rises by exactly one per applied action of the seat: a repeat is a duplicate,
    # a jump is refused without changing anything (a refused action does not use its number),
    # so one bad number can never lock a seat out, and the error says which number comes next.
    expected = room.series.last_client_seq.get(player, 0) + 1
    if command.client_seq < expected:
        _refuse(room, conn, "duplicate", command.client_seq)
        return
    if command.client_seq > expected:
        _refuse(room, conn, "client_seq_gap", command.client_seq, {"expected": expected})
        return
    await _apply(
        room,
        player,
        command.action,
        auto=False,
        client_seq=command.client_seq,
        conn=conn,
        key=key,
        received=command.received,
    )


async def _apply(
    room: Room,
    player: str,
    action: Action,
    *,
    auto: bool,
    client_seq: int | None = None,
    conn: cmd.Connection | None = None,
    key: str | None = None,
    room_changed: bool = False,
    received: float = 0.0,
) -> bool:
    """One step of the match: validated by the game, stored, then sent. False if refused."""
    status_before = room.status
    try:
        events = await room.record_step(player, action, auto, client_seq)
    except GameError as exc:
        if conn is not None:
            _refuse(room, conn, exc, client_seq)
        return False
    except FencedError:
        if conn is not None:  # another node owns the room now; this copy is being dropped
            conn.send(error_frame("room_moving", client_seq))
        return False
    except StoreError:
        if conn is not None:
            _refuse(room, conn, "internal", client_seq)
        room.schedule()
        return False
    except Exception:
        # An engine that raises something else on odd input may have half-changed its state:
        # the store's log is the truth, so rebuild from it.
        log.exception("action %r by %s failed", action, player)
        await room.reload_match()
        if conn is not None:
            _refuse(room, conn, "malformed_action", client_seq)
        room.schedule()
        return False
    counts = room.counts
    ack = (key, client_seq) if key is not None and client_seq is not None else None
    # worked out once: the pending deadlines sent and the timer armed after them
    deadlines = room.book.deadlines(room.members.seats) if room.series.playing else None
    publish(
        room,
        events,
        room_changed=room_changed or room.status != status_before,
        actor=player,
        auto=auto,
        ack=ack,
        deadlines=deadlines,
    )
    counts.accepted.inc()
    if received:
        counts.action_seconds.observe(time.perf_counter() - received)
    room.schedule(deadlines)
    return True


async def timeout(room: Room) -> None:
    if room.status != RoomStatus.PLAYING or room.match is None:
        return
    decision = room.book.due(room.members.seats, room.clock.now())
    if decision is None:
        room.schedule()
        return
    player = decision.player
    seat = room.members.seats.get(player)
    action = _timeout_action(room, player)
    if action is None:
        # The engine offers nothing for this player: push the decision back rather than spin.
        decision.since = room.clock.now()
        room.schedule()
        return
    # spec 8.5 speaks of the disconnected ("끊긴 사람"): a connected player who is slow is not away
    absent = seat is not None and not seat.bot and not seat.connected
    if absent and seat is not None:
        seat.timed_out_while_away()
    counts_for_afk = absent and decision.kind == room.book.policy.afk_kind
    round_now = round_of(room.game, room.match.state)
    done = await _apply(room, player, action, auto=True)
    if done:
        room.counts.timeouts.inc()
    if done and counts_for_afk:
        await _count_absent_round(room, player, round_now)


def _timeout_action(room: Room, player: str) -> Action | None:
    assert room.match is not None
    try:
        return room.game.on_timeout(room.match.state, player)
    except Exception:
        log.exception("on_timeout failed for %s", player)
        legal = room.game.legal_actions(room.match.state, player)
        return legal[0] if legal else None


async def _count_absent_round(room: Room, player: str, round_now: int | None) -> None:
    """Spec 8.5 "N라운드 연속 자리 비움": the timeout rule started an absent person's turn
    (a decision of the policy's ``afk_kind``); after ``afk_rounds`` rounds the host is asked.

    A round counts once, however many turns it gave them (a double's extra roll is the same
    round); a turn they play themselves, or coming back, clears the count. A game without
    rounds (``round_of`` gives None) counts each such turn as a round.
    """
    limit = room.book.policy.afk_rounds
    if limit is None or not room.series.playing:
        return
    if room.absences.count_round(player, round_now, limit):
        publish(room, room_changed=True)
    await room.save_absence(player)


async def bot_move(room: Room, player: str) -> None:
    room.timers.bot_done(player)
    if room.status != RoomStatus.PLAYING or room.match is None:
        return
    if player not in {d.player for d in room.book.decisions}:
        room.schedule()
        return
    seat = room.members.seats.get(player)
    if seat is None or seat.bot_policy is None:
        return
    action: Any = None
    try:
        policy = room.game.bots[seat.bot_policy]
        # never the state: bots cannot peek; the view the last update built for this seat
        knowledge = room.match.knowledge(player, room.bot_view(player))
        if decides_quickly(policy):  # no search: the hop to a thread would cost more
            action = policy(knowledge, room.bot_rng, bot_budget())
        else:
            action = await asyncio.to_thread(policy, knowledge, room.bot_rng, bot_budget())
    except Exception:
        log.exception("bot %s failed to choose", player)
    if action is None or not await _apply(room, player, action, auto=False):
        fallback = _timeout_action(room, player)
        if fallback is not None:
            await _apply(room, player, fallback, auto=True)


async def act_for(room: Room, player: str, action: Action) -> bool:
    """The server acts for a player (the game's kick action), logged as auto."""
    return await _apply(room, player, action, auto=True, room_changed=True)
