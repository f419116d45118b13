"""The room's lifecycle: lobby → playing ⇄ finished, and nothing else."""

from __future__ import annotations

import pytest

from jokeapp.rooms.status import RoomStatus, StatusError, moved

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
