"""The room's lifecycle: lobby → playing ⇄ finished, and nothing else."""

from __future__ import annotations

import pytest

from jokeapp.rooms.match import Match
from jokeapp.rooms.series import Series
from jokeapp.rooms.status import RoomStatus, StatusError, moved
from tests.rooms.fakegame import GAME as RACE

LOBBY, PLAYING, FINISHED = RoomStatus.LOBBY, RoomStatus.PLAYING, RoomStatus.FINISHED


@pytest.mark.parametrize(
    ("current", "to"), [(LOBBY, PLAYING), (PLAYING, FINISHED), (FINISHED, PLAYING)]
)
def test_the_lifecycles_moves_are_allowed(current: RoomStatus, to: RoomStatus) -> None:
    assert moved(current, to) is to


@pytest.mark.parametrize(
    ("current", "to", "message"),
    [
        (PLAYING, PLAYING, "room status playing: expected lobby or finished, got playing"),
        (LOBBY, FINISHED, "room status finished: expected playing, got lobby"),
        (FINISHED, FINISHED, "room status finished: expected playing, got finished"),
        (PLAYING, LOBBY, "room status lobby: expected nothing .*, got playing"),
        (FINISHED, LOBBY, "room status lobby: expected nothing .*, got finished"),
    ],
)
def test_an_illegal_move_raises_expected_x_got_y(
    current: RoomStatus, to: RoomStatus, message: str
) -> None:
    with pytest.raises(StatusError, match=message):
        moved(current, to)


def test_the_status_is_its_wire_text() -> None:
    assert [str(s) for s in RoomStatus] == ["lobby", "playing", "finished"]
    assert RoomStatus("finished") is FINISHED
    with pytest.raises(ValueError):
        RoomStatus("paused")


def test_a_series_moves_only_along_the_lifecycle() -> None:
    series = Series()
    with pytest.raises(StatusError, match="expected playing, got lobby"):
        series.finish(1.0)
    match = Match.begin(RACE, 1, {}, ["p1", "p2"], seed=7)
    series.begin(match)
    assert series.status is PLAYING and series.number == 1 and series.match is match
    with pytest.raises(StatusError, match="expected lobby or finished, got playing"):
        series.begin(match)
    series.finish(2.0, abandoned=True)
    assert series.status is FINISHED and series.abandoned and series.finished_at == 2.0
    series.begin(Match.begin(RACE, 2, {}, ["p1", "p2"], seed=8))
    assert series.status is PLAYING and series.number == 2 and not series.abandoned
