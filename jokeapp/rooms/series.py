"""A room's matches, one after another: its status, the match on (or the last one), how it
ended, and each seat's last applied ``clientSeq``."""

from __future__ import annotations

from dataclasses import dataclass, field

from jokeapp.rooms.match import Match
from jokeapp.rooms.status import RoomStatus, moved


@dataclass
class Series:
    status: RoomStatus = RoomStatus.LOBBY  # changed only by ``begin`` and ``finish``
    number: int = 0  # the current (or last) match's number; 0 before the first
    match: Match | None = None
    abandoned: bool = False  # the match was stopped because no person was left in it
    finished_at: float | None = None
    last_client_seq: dict[str, int] = field(default_factory=dict)

    def begin(self, match: Match) -> None:
        """lobby or finished → playing, with ``match``."""
        self.status = moved(self.status, RoomStatus.PLAYING)
        self.match = match
        self.number = match.number
        self.abandoned = False

    def finish(self, now: float, *, abandoned: bool = False) -> None:
        """playing → finished."""
        self.status = moved(self.status, RoomStatus.FINISHED)
        self.abandoned = abandoned
        self.finished_at = now

    def reloaded(self, match: Match) -> None:
        """The same match, rebuilt from the store's log (after a failed write)."""
        assert self.match is not None and match.number == self.match.number
        self.match = match

    @property
    def playing(self) -> bool:
        return self.status is RoomStatus.PLAYING
