"""The catalogue lists the levels a host picks from; a seat keeps the level's own name."""

from __future__ import annotations

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.store.memory import MemoryStore


def test_the_catalogue_lists_every_bot_and_the_levels_offered() -> None:
    manager = RoomManager(MemoryStore(), FakeClock())
    games = {info.id: info for info in manager.catalogue()}
    for game in ("marble", "dalmuti"):
        assert games[game].bots == ["random", "easy", "normal", "hard"]
        assert games[game].levels == ["easy", "normal", "hard"]


async def test_a_bot_seat_stores_its_level_and_the_old_name_becomes_normal() -> None:
    manager = RoomManager(MemoryStore(), FakeClock())
    room, host, _ = await manager.create("marble", {}, "a")
    hard = await room.call(cmd.AddBot(host, "hard"))
    old = await room.call(cmd.AddBot(host, "heuristic"))
    assert room.members.seats[hard].bot_policy == "hard"
    assert room.members.seats[old].bot_policy == "normal"
    with pytest.raises(RoomError) as err:
        await room.call(cmd.AddBot(host, "expert"))
    assert err.value.code == "unknown_bot"
