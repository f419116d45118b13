"""Who watches a room right now: the open connections (one per token key) and the number of
the last update sent to them, and the view each viewer holds."""

from __future__ import annotations

from collections.abc import Iterator

from jokeapp.rooms.commands import Connection
from jokeapp.rooms.viewpatch import SentViews


class Audience:
    __slots__ = ("conns", "seq", "reserved", "away_sent", "views")

    def __init__(self, seq: int = 0, reserved: int = 0) -> None:
        self.conns: dict[str, Connection] = {}  # token key -> its one open connection
        self.seq = seq  # the last update's number (a restored room goes on above any sent)
        # the store holds this number as reserved: an update that is not a logged action (a
        # room change) may take a number up to it, never above (Room.reserve_numbers)
        self.reserved = reserved
        self.away_sent: frozenset[str] = frozenset()  # the away seats the last room info showed
        self.views = SentViews()  # the view each viewer's connections hold, to patch it

    def key_of(self, conn: Connection) -> str | None:
        for key, open_conn in self.conns.items():
            if open_conn is conn:
                return key
        return None

    def attach(self, key: str, conn: Connection) -> None:
        self.conns[key] = conn

    def detach(self, key: str) -> Connection | None:
        return self.conns.pop(key, None)

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def __iter__(self) -> Iterator[tuple[str, Connection]]:
        return iter(list(self.conns.items()))

    def __bool__(self) -> bool:
        return bool(self.conns)
