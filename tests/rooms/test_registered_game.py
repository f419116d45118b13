"""A new game is its own module plus one registry line: the rooms tests' fake game, registered
through ``jokeapp.games.register_game`` exactly as marble and dalmuti are listed, is offered
by the room server's catalogue, plays in a room, and plays in the simulator, with no other
edit anywhere (it has no statistics of its own, so the simulator counts results)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from jokeapp.cli import main as joke
from jokeapp.core.record import verify_record
from jokeapp.games import GAME_IDS, get_game, register_game, unregister_game
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import FakeConn, as_json, run_until_over


@pytest.fixture
def race() -> Iterator[str]:
    register_game("race", "tests.rooms.fakegame")
    try:
        yield "race"
    finally:
        unregister_game("race")


def test_a_registered_game_is_listed_and_loaded_like_the_others(race: str) -> None:
    assert list(GAME_IDS) == ["marble", "dalmuti", "race"]
    assert get_game(race).id == race
    with pytest.raises(ValueError, match="already registered"):
        register_game("marble", "tests.rooms.fakegame")


def test_unregistering_takes_the_game_out_again() -> None:
    register_game("race", "tests.rooms.fakegame")
    unregister_game("race")
    assert "race" not in GAME_IDS
    with pytest.raises(KeyError, match="unknown game: race"):
        get_game("race")


async def test_a_registered_game_plays_in_a_room_of_the_default_catalogue(race: str) -> None:
    clock = FakeClock()
    manager = RoomManager(MemoryStore(), clock, bot_delay=1.0)  # the default catalogue
    try:
        assert race in [info["id"] for info in as_json(manager.catalogue())]
        room, host, _ = await manager.create(race, {}, "a")
        await room.call(cmd.AddBot(host, "random"))
        conn = FakeConn()
        await room.call(cmd.Connect(conn, host))
        await room.call(cmd.Start(host))
        await room.call(cmd.ClientAction(conn, 1, {"type": "confirm"}))
        await run_until_over(manager, clock, room)
        record = await manager.record(room.code, None)
        assert record["game"] == race and record["result"]["winners"]
        assert verify_record(get_game(race), record) == []
    finally:
        await manager.close()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_registered_game_plays_in_the_simulator(
    race: str, workers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "race.jsonl"
    args = ["simulate", race, "--games", "12", "--players", "3", "--quiet", "--workers", workers]
    assert joke([*args, "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "race: 12 games, 3 players, bot random" in out
    assert "finished games: 12" in out
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 12
    wins_line = next(line for line in out.splitlines() if line.startswith("wins by player: "))
    counted = {
        player: int(count)
        for player, count in (
            part.split(": ") for part in wins_line.removeprefix("wins by player: ").split(", ")
        )
    }
    assert sum(counted.values()) == sum(len(r["result"]["winners"]) for r in records)
    assert joke(["replay", str(log)]) == 0
    assert "12 records checked, 12 exact" in capsys.readouterr().out
