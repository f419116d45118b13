"""An accepted action works each fact out once: the deadlines (sent in ``pending`` and armed
as the room's timer) and who is away (nobody, without asking seat by seat, while everyone is
here)."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.deadlines import DeadlineBook
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.room import Room
from tests.rooms.conftest import confirm_all, current, next_seq, seated_room


def _counting(monkeypatch: pytest.MonkeyPatch, cls: Any, name: str) -> list[int]:
    calls = [0]
    original = getattr(cls, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return calls


async def _act(room: Room, conns: list[Any], tokens: list[str]) -> None:
    player = current(room)
    conn = conns[int(player[1:]) - 1]
    await room.call(cmd.ClientAction(conn, next_seq(room, player), {"type": "step", "n": 1}))


async def test_an_action_works_each_deadline_out_once(
    manager: RoomManager, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, tokens, conns = await seated_room(manager, "race", 3)
    await confirm_all(room, conns)
    calls = _counting(monkeypatch, DeadlineBook, "deadline")
    for _ in range(5):
        calls[0] = 0
        await _act(room, conns, tokens)
        assert room.series.playing
        assert calls[0] == len(room.book.decisions) > 0  # not once for pending, once for the timer
        # what was sent is what the timer waits for
        sent = [p["deadline"] for p in conns[0].last("update")["pending"]]
        assert room.timers._deadline_at is not None
        assert min(d for d in sent if d is not None) == int(room.timers._deadline_at * 1000)


async def test_nobody_away_is_known_without_asking_each_seat(
    manager: RoomManager, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, tokens, conns = await seated_room(manager, "race", 3)
    await confirm_all(room, conns)
    calls = _counting(monkeypatch, Room, "is_away")
    await _act(room, conns, tokens)
    assert calls[0] == 0
    assert room.away_players() == frozenset()


async def test_a_disconnected_seat_is_still_asked_and_shown_away(
    manager: RoomManager, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, tokens, conns = await seated_room(manager, "race", 3)
    await confirm_all(room, conns)
    await room.call(cmd.Disconnect(conns[2]))
    calls = _counting(monkeypatch, Room, "is_away")
    assert room.away_players() == frozenset()  # race has no grace: not yet away
    assert calls[0] > 0  # a seat not connected is asked
    room.members.seats["p3"].timed_out_while_away()  # the timeout rule played for them
    assert room.away_players() == frozenset({"p3"})
