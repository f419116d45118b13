"""Rooms under a fake clock and an in-memory store: timers run without sleeping."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from jokeapp.rooms.room import Room
from jokeapp.store.memory import MemoryStore
from jokeapp.wire.protocol import ServerMessage
from tests.heldview import held_view, with_defaults
from tests.rooms.fakegame import GAME as RACE

_server_message = msgspec.json.Decoder(ServerMessage)


class FakeConn:
    """A connection that keeps what it was sent, checked against the wire protocol.

    Like a client, it patches the view it holds with each update's ``patch``; the update kept
    in ``sent`` then has that view as its ``view`` (the patch stays under ``patch``)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.view: Any = None

    def send(self, message: ServerMessage) -> None:
        raw = msgspec.json.encode(message)
        _server_message.decode(raw)  # every message the room sends is a valid protocol message
        kept = with_defaults(msgspec.json.decode(raw))
        if kept["type"] in ("snapshot", "update"):
            self.view = held_view(self.view, kept)
            kept["view"] = self.view
        self.sent.append(kept)

    def close(self, code: int) -> None:
        self.closed = code

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == kind]

    def last(self, kind: str) -> dict[str, Any]:
        return self.of_type(kind)[-1]


def as_json(message: Any) -> Any:
    """A wire Struct (or a list of them) as the JSON a client reads: dicts, camelCase keys."""
    return msgspec.json.decode(msgspec.json.encode(message))


def all_games() -> dict[str, Any]:
    return {"race": RACE, **installed_games()}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
async def manager(store: MemoryStore, clock: FakeClock) -> AsyncIterator[RoomManager]:
    mgr = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    yield mgr
    await mgr.close()


async def settle(manager: RoomManager) -> None:
    for room in list(manager.rooms.values()):
        await room.settle()


async def tick(manager: RoomManager, clock: FakeClock, seconds: float) -> None:
    """Moves the clock, stopping at each due timer so rooms act at the exact instant."""
    await settle(manager)
    target = clock.now() + seconds
    for _ in range(100_000):
        due = clock.next_due()
        if due is None or clock.now() + due > target:
            break
        clock.advance(max(due, 0.0))
        await settle(manager)
    else:
        raise AssertionError("timers keep firing at the same instant")
    clock.advance(max(target - clock.now(), 0.0))
    await settle(manager)


async def run_until_over(
    manager: RoomManager, clock: FakeClock, room: Room, step: float = 1.0
) -> None:
    for _ in range(100_000):
        if room.status == "finished":
            return
        await tick(manager, clock, step)
    raise AssertionError("the match did not end")


def next_seq(room: Room, player: str) -> int:
    """The clientSeq the seat's next action must carry: its last applied one + 1."""
    return room.series.last_client_seq.get(player, 0) + 1
