"""A room's status and the only moves between them: lobby → playing ⇄ finished."""

from __future__ import annotations

from jokeapp.wire.protocol import RoomStatus

__all__ = ["RoomStatus", "StatusError", "moved"]


# status -> the statuses a room may move to it from
_FROM: dict[RoomStatus, tuple[RoomStatus, ...]] = {
    RoomStatus.LOBBY: (),
    RoomStatus.PLAYING: (RoomStatus.LOBBY, RoomStatus.FINISHED),
    RoomStatus.FINISHED: (RoomStatus.PLAYING,),
}


class StatusError(RuntimeError):
    """A move between statuses that the room's lifecycle does not have (a bug, not a refusal:
    the commands check the status first and answer ``wrong_status``)."""


def moved(current: RoomStatus, to: RoomStatus) -> RoomStatus:
    """``to``, if a room in ``current`` may move there; else StatusError "expected X, got Y"."""
    allowed = _FROM[to]
    if current not in allowed:
        expected = " or ".join(str(s) for s in allowed) or "nothing (a room never returns there)"
        raise StatusError(f"room status {to}: expected {expected}, got {current}")
    return to
