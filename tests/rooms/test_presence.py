"""Who is at the table: ``away`` per seat, and marble 8.5's 강퇴/계속 offer counted in rounds."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from jokeapp.rooms.messages import pending_info, room_info
from jokeapp.rooms.room import Room
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import (
    FakeConn,
    as_json,
    seated_room,
    settle,
    setup_pause,
    tick,
    until,
    with_laps,
)

GAMES = installed_games()
needs_dalmuti = pytest.mark.skipif(
    "dalmuti" not in GAMES, reason="dalmuti engine not installed yet"
)


def round_now(room: Room) -> int:
    assert room.match is not None
    return int(room.match.state["round"])


def seat(update_or_info: dict[str, Any], player: str) -> dict[str, Any]:
    room = update_or_info.get("room", update_or_info)
    return next(s for s in room["seats"] if s["playerId"] == player)


async def test_afk_offer_waits_for_two_absent_rounds_not_two_absent_turns(
    laps_manager: RoomManager, clock: FakeClock
) -> None:
    room, _, conns = await seated_room(laps_manager, "laps")
    await room.call(cmd.Disconnect(conns[1]))
    # Round 1 gives p2 two turns (a "double"), both played by the timeout rule: one round.
    await until(laps_manager, clock, lambda: round_now(room) == 2)
    assert room.absences.offers == {}
    await until(laps_manager, clock, lambda: bool(room.absences.offers))
    assert room.absences.offers == {"p2": 2} and round_now(room) == 2
    offers = [u["room"]["afkOffers"] for u in conns[0].of_type("update") if u["room"]]
    assert [{"playerId": "p2", "rounds": 2}] in offers


async def test_keep_asks_again_after_two_more_rounds_and_a_return_withdraws_the_offer(
    laps_manager: RoomManager, clock: FakeClock
) -> None:
    room, tokens, conns = await seated_room(laps_manager, "laps")
    await room.call(cmd.Disconnect(conns[1]))
    await until(laps_manager, clock, lambda: bool(room.absences.offers))
    asked_in = round_now(room)
    info = as_json(await room.call(cmd.AfkAnswer(tokens[0], "p2", "keep")))
    assert info["afkOffers"] == []
    await until(laps_manager, clock, lambda: round_now(room) == asked_in + 2)
    assert room.absences.offers == {}, "asked again after one more round"
    await until(laps_manager, clock, lambda: bool(room.absences.offers))
    assert round_now(room) == asked_in + 2
    again = FakeConn()
    await room.call(cmd.Connect(again, tokens[1]))
    assert room.absences.offers == {} and again.last("snapshot")["room"]["afkOffers"] == []
    assert "p2" not in room.absences.rounds


async def test_an_own_action_clears_the_absent_rounds(
    laps_manager: RoomManager, clock: FakeClock
) -> None:
    room, tokens, conns = await seated_room(laps_manager, "laps")
    await room.call(cmd.Disconnect(conns[1]))
    await until(laps_manager, clock, lambda: room.absences.rounds.get("p2") == 1)
    back = FakeConn()
    await room.call(cmd.Connect(back, tokens[1]))
    await until(
        laps_manager, clock, lambda: any(p["player"] == "p2" for p in as_json(pending_info(room)))
    )
    await room.call(cmd.ClientAction(back, 1, {"type": "go"}))
    assert "p2" not in room.absences.rounds


async def test_absence_counters_survive_a_restart(
    laps_manager: RoomManager, store: MemoryStore, clock: FakeClock
) -> None:
    room, tokens, conns = await seated_room(laps_manager, "laps")
    await room.call(cmd.Disconnect(conns[1]))
    await until(laps_manager, clock, lambda: bool(room.absences.offers))
    rounds, timeouts = dict(room.absences.rounds), dict(room.absences.timeouts_in_row)
    await laps_manager.close()
    second = RoomManager(store, clock, bot_delay=1.0, games=with_laps)
    assert await second.restore_all() == 1
    again = second.rooms[room.room_id]
    assert again.absences.offers == {"p2": 2} and again.absences.rounds == rounds
    assert again.absences.timeouts_in_row == timeouts and timeouts["p2"] >= 3
    info = as_json(await again.call(cmd.AfkAnswer(tokens[0], "p2", "kick")))
    assert info["status"] == "finished"
    await second.close()


async def test_away_goes_out_when_the_grace_ends_and_back_on_return(
    laps_manager: RoomManager, clock: FakeClock
) -> None:
    room, tokens, conns = await seated_room(laps_manager, "laps")
    await room.call(cmd.Disconnect(conns[1]))
    closed = conns[0].last("update")
    assert seat(closed, "p2")["connected"] is False and seat(closed, "p2")["away"] is False
    await tick(laps_manager, clock, 4.9)
    assert all(not seat(u, "p2")["away"] for u in conns[0].of_type("update") if u["room"])
    await tick(laps_manager, clock, 0.2)
    # p1 is the one to move now: the grace ending alone sends the room (nothing of p2 was due)
    update = conns[0].last("update")
    assert (
        update["room"] is not None
        and seat(update, "p2")["away"] is True
        and update["actor"] is None
    )
    await room.call(cmd.Connect(FakeConn(), tokens[1]))
    update = conns[0].last("update")
    assert seat(update, "p2")["connected"] is True and seat(update, "p2")["away"] is False


async def test_a_seat_left_mid_match_is_away(laps_manager: RoomManager, clock: FakeClock) -> None:
    room, tokens, conns = await seated_room(laps_manager, "laps")
    await room.call(cmd.Leave(tokens[1]))
    assert seat(conns[0].last("update"), "p2")["away"] is True
    assert seat(as_json(room_info(room)), "p1")["away"] is False


@needs_dalmuti
async def test_dalmuti_seat_is_away_once_timed_out_while_disconnected(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, _, conns = await seated_room(manager, "dalmuti", 4)
    await room.call(cmd.Disconnect(conns[0]))
    await tick(manager, clock, setup_pause(room) + 19)
    assert (
        seat(conns[1].last("update"), "p1")["away"] is False
    )  # no grace in dalmuti, not yet timed out
    await tick(manager, clock, 1.1)
    await settle(manager)
    assert seat(as_json(room_info(room)), "p1")["away"] is True
    assert any(u["room"] and seat(u, "p1")["away"] for u in conns[1].of_type("update"))
