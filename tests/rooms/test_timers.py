"""Both specs' section 8.5 under the fake clock: timeouts, disconnect grace, AFK, short deadlines."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from jokeapp.rooms.messages import pending_info
from jokeapp.rooms.room import Room
from jokeapp.rooms.timers import Timers
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import (
    FakeConn,
    as_json,
    next_seq,
    run_until_over,
    seated_room,
    setup_pause,
    tick,
)

GAMES = installed_games()
MARBLE_MAX_PAUSE = 2.0  # jokeapp/games/marble/presentation.py: the longest walk allowance
needs_marble = pytest.mark.skipif("marble" not in GAMES, reason="marble engine not installed yet")
needs_dalmuti = pytest.mark.skipif(
    "dalmuti" not in GAMES, reason="dalmuti engine not installed yet"
)


def autos(store: MemoryStore, room: Room) -> list[tuple[str, dict[str, Any]]]:
    return [
        (a.actor, a.action) for a in store.actions[(room.room_id, room.series.number)] if a.auto
    ]


def pending_of(room: Room, player: str) -> list[dict[str, Any]]:
    return [p for p in as_json(pending_info(room)) if p["player"] == player]


async def until_pending(
    manager: RoomManager, clock: FakeClock, room: Room, player: str, kind: str | None = None
) -> None:
    for _ in range(10_000):
        if any(p["kind"] == kind or kind is None for p in pending_of(room, player)):
            return
        assert room.status == "playing"
        await tick(manager, clock, 0.5)
    raise AssertionError(f"{player} never pending")


@needs_marble
async def test_marble_timeout_turn_start_rolls_and_decide_passes(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, _, _ = await seated_room(manager, "marble", 2, 0, {"turnSeconds": 15})
    first = as_json(pending_info(room))[0]["player"]
    await tick(manager, clock, 14.9)
    assert autos(store, room) == []
    await tick(manager, clock, 0.2)
    assert autos(store, room)[0] == (first, {"type": "ROLL"})
    await tick(manager, clock, 15 * 200)
    kinds_seen = {a["type"] for _, a in autos(store, room)}
    assert (
        kinds_seen <= {"ROLL", "PASS", "SPACE_TRAVEL", "SELL", "CONCEDE"}
        and "BUY" not in kinds_seen
    )


@needs_marble
async def test_marble_disconnect_gets_five_seconds_of_grace_then_acts_at_once(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, tokens, conns = await seated_room(manager, "marble", 2, 0, {"turnSeconds": 60})
    first = as_json(pending_info(room))[0]["player"]
    await room.call(cmd.Disconnect(conns[int(first[1:]) - 1]))
    assert pending_of(room, first)[0]["deadline"] == int((clock.now() + 5) * 1000)
    await tick(manager, clock, 4.9)
    assert autos(store, room) == []
    await tick(manager, clock, 0.1)
    assert autos(store, room)[0] == (first, {"type": "ROLL"})
    # From now on the absent player's decisions are taken at once, without waiting 60 s: after
    # every settle nothing of theirs is left open beyond the move's animation allowance (the
    # others still watch the token walk), while the present player's turns wait.
    for _ in range(200):
        await tick(manager, clock, 7)
        assert all(
            p["deadline"] <= (clock.now() + MARBLE_MAX_PAUSE) * 1000
            for p in pending_of(room, first)
        )
        if room.status == "finished":
            break
    assert len(autos(store, room)) > 3


@needs_marble
async def test_marble_afk_two_rounds_offers_the_host_kick_or_keep(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, tokens, conns = await seated_room(
        manager, "marble", 2, 1, {"turnSeconds": 15, "maxRounds": 0}
    )
    await room.call(cmd.Disconnect(conns[1]))
    for _ in range(2000):
        if room.absences.offers:
            break
        await tick(manager, clock, 1)
    assert room.absences.offers == {"p2": 2}
    offers = [u["room"]["afkOffers"] for u in conns[0].of_type("update") if u["room"]]
    assert [{"playerId": "p2", "rounds": 2}] in offers
    info = as_json(await room.call(cmd.AfkAnswer(tokens[0], "p2", "keep")))
    assert info["afkOffers"] == [] and "p2" not in room.absences.rounds
    for _ in range(2000):
        if room.absences.offers:
            break
        await tick(manager, clock, 1)
    await room.call(cmd.AfkAnswer(tokens[0], "p2", "kick"))
    assert ("p2", {"type": "CONCEDE"}) in autos(store, room)
    assert (
        room.match is not None
        and room.game.to_json(room.match.state)["players"]["p2"]["alive"] is False
    )


@needs_marble
async def test_marble_disconnected_player_turns_are_automatic_and_game_ends(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, _, conns = await seated_room(manager, "marble", 1, 1, {"maxRounds": 15})
    await room.call(cmd.Disconnect(conns[0]))
    await run_until_over(manager, clock, room, 2)
    assert (
        room.status == "finished" and room.match is not None and room.game.result(room.match.state)
    )


@needs_dalmuti
async def test_dalmuti_timeouts_confirm_without_revolution_and_play_on(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, _, _ = await seated_room(manager, "dalmuti", 4, 0)
    await tick(manager, clock, setup_pause(room) + 20.01)
    confirms = autos(store, room)
    assert len(confirms) == 4
    assert all(a["type"] == "confirmHand" and not a.get("declareRevolution") for _, a in confirms)


@needs_dalmuti
async def test_dalmuti_three_timeouts_in_a_row_shorten_the_deadline_to_five_seconds(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, tokens, conns = await seated_room(manager, "dalmuti", 1, 3, {"turnSeconds": 30})
    for _ in range(5000):
        if room.absences.timeouts_in_row.get("p1", 0) >= 3 and pending_of(room, "p1"):
            break
        await tick(manager, clock, 0.5)
    decision = next(d for d in room.book.decisions if d.player == "p1")
    assert pending_of(room, "p1")[0]["deadline"] == int((decision.since + 5) * 1000)
    # acting themselves gives the normal deadline back
    assert room.match is not None
    await room.call(
        cmd.ClientAction(
            conns[0], next_seq(room, "p1"), room.game.on_timeout(room.match.state, "p1")
        )
    )
    assert room.absences.timeouts_in_row["p1"] == 0


@needs_dalmuti
async def test_dalmuti_disconnect_removes_nobody_and_keeps_normal_deadlines(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, _, conns = await seated_room(manager, "dalmuti", 4, 0, {"rounds": 1})
    await room.call(cmd.Disconnect(conns[0]))
    assert pending_of(room, "p1")[0]["deadline"] == int(
        (clock.now() + setup_pause(room) + 20) * 1000
    )
    await run_until_over(manager, clock, room, 5)
    result = room.game.result(room.match.state)  # type: ignore[union-attr]
    assert result is not None and {r["player"] for r in result["ranking"]} == {
        "p1",
        "p2",
        "p3",
        "p4",
    }


@needs_marble
async def test_marble_leaving_mid_match_passes_host_and_plays_the_seat_at_once(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, tokens, conns = await seated_room(manager, "marble", 2, 0, {"turnSeconds": 60})
    await room.call(cmd.Leave(tokens[0]))
    assert (
        room.members.host_id == "p2" and room.members.seats["p1"].gone and conns[0].closed == 1000
    )
    for _ in range(50):
        await tick(manager, clock, MARBLE_MAX_PAUSE)
        # a gone seat acts as soon as the last move has been shown, never after its 60 s
        assert all(
            p["deadline"] <= (clock.now() + MARBLE_MAX_PAUSE) * 1000 for p in pending_of(room, "p1")
        )
        if any(p["player"] == "p2" for p in as_json(pending_info(room))):
            assert room.match is not None
            await room.call(
                cmd.ClientAction(
                    conns[1], next_seq(room, "p2"), room.game.on_timeout(room.match.state, "p2")
                )
            )
        if room.status == "finished":
            break
    assert any(actor == "p1" for actor, _ in autos(store, room))


@needs_dalmuti
async def test_dalmuti_kick_mid_match_voids_the_token_but_keeps_the_seat(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, tokens, conns = await seated_room(manager, "dalmuti", 4, 0, {"rounds": 1})
    info = as_json(await room.call(cmd.Kick(tokens[0], "p3")))
    assert [s["playerId"] for s in info["seats"]] == ["p1", "p2", "p3", "p4"]
    assert conns[2].closed == 4403 and conns[2].last("error")["code"] == "kicked"
    again = FakeConn()
    await room.call(cmd.Connect(again, tokens[2]))
    assert again.last("error")["code"] == "bad_token"
    await run_until_over(manager, clock, room, 5)
    result = room.game.result(room.match.state)  # type: ignore[union-attr]
    assert result is not None and "p3" in {r["player"] for r in result["ranking"]}


def _deadline_timers(clock: FakeClock) -> tuple[Timers, list[cmd.Command]]:
    posted: list[cmd.Command] = []
    return Timers(clock, posted.append, bot_delay=1.0), posted


def test_a_deadline_moved_later_keeps_one_timer_and_fires_at_the_new_deadline_only() -> None:
    clock = FakeClock()
    timers, posted = _deadline_timers(clock)
    start = clock.now()
    for step in range(5):  # each step's decision gets its whole budget again
        timers.arm(clock.now() + 30.0, None, {})
        clock.advance(2.0)
        assert posted == [], step
    assert clock.advance(28.0 - 0.001) >= 1  # the first timer fired, found the deadline later
    assert posted == []  # never early: armed again for the rest
    clock.advance(0.001)
    assert [type(c) for c in posted] == [cmd.Timeout]
    assert clock.now() == pytest.approx(start + 8.0 + 30.0)


def test_an_earlier_deadline_replaces_the_timer_and_none_cancels_it() -> None:
    clock = FakeClock()
    timers, posted = _deadline_timers(clock)
    timers.arm(clock.now() + 30.0, None, {})
    timers.arm(clock.now() + 5.0, None, {})  # e.g. a disconnected seat's grace
    clock.advance(5.0)
    assert [type(c) for c in posted] == [cmd.Timeout]
    timers.arm(clock.now() + 30.0, None, {})
    timers.arm(None, None, {})  # nothing to wait for: no Timeout comes
    clock.advance(60.0)
    assert len(posted) == 1
    timers.arm(clock.now() + 1.0, None, {})
    timers.cancel()
    clock.advance(60.0)
    assert len(posted) == 1
