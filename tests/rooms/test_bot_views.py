"""A bot's move reads the view the room's last update built for its seat (Room.bot_view):
at every bot move of whole games of both games, that kept view equals the view built afresh
for that seat from the state then (nothing hidden shown, nothing stale), and it is the very
view the bot is handed."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.match import Match
from jokeapp.rooms.room import Room
from tests.rooms.conftest import run_until_over, seated_room


@pytest.mark.parametrize(("game", "bots"), [("marble", 3), ("dalmuti", 4)])
async def test_every_bot_move_reads_the_kept_view_which_is_the_fresh_view(
    manager: RoomManager, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, game: str, bots: int
) -> None:
    kept: list[tuple[str, Any]] = []  # (player, the view bot_view gave) at each bot move
    handed: list[tuple[str, Any]] = []  # (player, the view the bot's knowledge holds)
    original_bot_view = Room.bot_view
    original_knowledge = Match.knowledge

    def bot_view(room: Room, player: str) -> Any:
        view = original_bot_view(room, player)
        assert room.match is not None
        assert view == room.game.view(room.match.state, player)  # the state now, this seat
        kept.append((player, view))
        return view

    def knowledge(match: Match, player: str, view: Any = None) -> Any:
        known = original_knowledge(match, player, view)
        handed.append((player, known.view))
        return known

    monkeypatch.setattr(Room, "bot_view", bot_view)
    monkeypatch.setattr(Match, "knowledge", knowledge)
    room, _, conns = await seated_room(manager, game, 1, bots)
    await room.call(cmd.Disconnect(conns[0]))  # the person's seat is played by the timeouts
    await run_until_over(manager, clock, room, 5.0)
    assert not room.series.abandoned and room.match is not None and room.match.over
    assert len(kept) > 50  # whole games, many bot moves
    assert all(view is not None for _, view in kept)  # every move had its seat's view kept
    assert [p for p, _ in kept] == [p for p, _ in handed]
    assert all(k is h for (_, k), (_, h) in zip(kept, handed, strict=True))  # the one used


async def test_a_kept_view_is_not_used_once_the_match_moved_on(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, _, _ = await seated_room(manager, "dalmuti", 1, 4)
    bot = room.deciding_bots()
    assert bot and room.match is not None
    assert room.bot_view(bot[0]) is not None  # the start's update kept it
    assert room.bot_view("p1") is None  # a person's seat: never kept
    match = room.match
    match.steps += 1  # a step no update followed (e.g. one the store refused)
    assert room.bot_view(bot[0]) is None
    match.steps -= 1
    assert room.bot_view(bot[0]) is not None
    await room.reload_match()  # the match rebuilt from the store: another object
    assert room.match is not match
    assert room.bot_view(bot[0]) is None
