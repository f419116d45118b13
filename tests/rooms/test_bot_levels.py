"""Rooms ask bots with their seat's knowledge, off the event loop, within the think budget."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from jokeapp.core.bots import Budget, SeatKnowledge, decides_quickly, quick
from jokeapp.core.contract import Action
from jokeapp.core.record import verify_record
from jokeapp.core.rng import Rng
from jokeapp.rooms import commands as cmd
from jokeapp.rooms import turns
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from tests.rooms.conftest import FakeConn, run_until_over, tick

GAMES = installed_games()


@pytest.mark.skipif("dalmuti" not in GAMES, reason="dalmuti engine not installed yet")
async def test_hard_bots_play_a_card_room_to_the_end_from_their_knowledge(
    manager: RoomManager, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turns, "BOT_THINK_SECONDS", 0.01)  # the real clock: keep the test short
    game = GAMES["dalmuti"]
    hard = game.bots["hard"]
    handed: list[tuple[type, float]] = []

    def watched(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
        assert budget is not None and budget.out_of_time is not None
        handed.append((type(knowledge), budget.iterations))
        return hard(knowledge, rng, budget)

    monkeypatch.setitem(game.bots._bots, "hard", watched)  # type: ignore[attr-defined]
    room, host, _ = await manager.create("dalmuti", {"rounds": 1}, "n1")
    for _ in range(3):
        await room.call(cmd.AddBot(host, "hard"))
    conn = FakeConn()
    await room.call(cmd.Connect(conn, host))
    await room.call(cmd.Start(host))
    await run_until_over(manager, clock, room)
    record: dict[str, Any] = await manager.record(room.code, None)
    assert verify_record(game, record) == []
    assert handed and all(kind is SeatKnowledge for kind, _ in handed)
    bot_steps = [s for s in record["steps"] if s["actor"] != "p1" and not s["auto"]]
    assert len(bot_steps) == len(handed)  # every bot move was the bot's own, none replaced


def test_the_bots_that_never_search_are_marked_quick() -> None:
    for game in GAMES.values():
        if game.id not in ("marble", "dalmuti"):
            continue
        marked = {name for name in game.bots if decides_quickly(game.bots[name])}
        assert marked == {"random", "easy", "normal"}, game.id


@pytest.mark.skipif("marble" not in GAMES, reason="marble engine not installed yet")
async def test_a_quick_bot_decides_on_the_event_loop_and_a_search_bot_in_a_thread(
    manager: RoomManager, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turns, "BOT_THINK_SECONDS", 0.01)  # the real clock: keep the test short
    game = GAMES["marble"]
    threads: dict[str, set[int]] = {"normal": set(), "hard": set()}
    moves: dict[str, list[str]] = {"normal": [], "hard": []}

    def watching(name: str) -> Any:
        bot = game.bots[name]

        def watched(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
            threads[name].add(threading.get_ident())
            moves[name].append(knowledge.player)
            return bot(knowledge, rng, budget)

        return quick(watched) if decides_quickly(bot) else watched

    for name in threads:
        monkeypatch.setitem(game.bots._bots, name, watching(name))  # type: ignore[attr-defined]
    room, host, _ = await manager.create("marble", {"maxRounds": 15}, "n1")
    await room.call(cmd.AddBot(host, "normal"))
    await room.call(cmd.AddBot(host, "hard"))
    conn = FakeConn()
    await room.call(cmd.Connect(conn, host))
    await room.call(cmd.Start(host))
    for _ in range(10_000):  # until each bot has moved a few times
        if min(len(moves[name]) for name in moves) >= 3 or room.status == "finished":
            break
        await tick(manager, clock, 1.0)
    loop = threading.get_ident()
    assert threads["normal"] == {loop}
    assert threads["hard"] and loop not in threads["hard"]
