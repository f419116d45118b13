"""Rooms under a fake clock and an in-memory store: timers run without sleeping."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from jokeapp.core.contract import presentation_pause
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from jokeapp.rooms.room import Room
from jokeapp.store.memory import MemoryStore
from jokeapp.wire.protocol import ServerMessage
from tests.heldview import held_view, with_defaults
from tests.rooms.fakegame import GAME as RACE
from tests.rooms.lapsgame import GAME as LAPS

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


def with_laps() -> dict[str, Any]:
    """Every game and ``laps`` (tests/rooms/lapsgame.py: rounds, for the AFK offers)."""
    return {**all_games(), "laps": LAPS}


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


@pytest.fixture
async def laps_manager(store: MemoryStore, clock: FakeClock) -> AsyncIterator[RoomManager]:
    mgr = RoomManager(store, clock, bot_delay=1.0, games=with_laps)
    yield mgr
    await mgr.close()


async def seated_room(
    manager: RoomManager,
    game: str = "race",
    people: int = 2,
    bots: int = 0,
    options: dict[str, Any] | None = None,
) -> tuple[Room, list[str], list[FakeConn]]:
    """A started match: the host ``n1`` and players ``n2`` …, each connected, then ``bots``
    heuristic bots; the people's tokens and connections in seat order."""
    room, host, _ = await manager.create(game, options or {}, "n1")
    tokens = [host]
    for i in range(2, people + 1):
        token, _ = await room.call(cmd.Join(f"n{i}", "player"))
        tokens.append(token)
    for _ in range(bots):
        await room.call(cmd.AddBot(host, "heuristic"))
    conns = []
    for token in tokens:
        conn = FakeConn()
        await room.call(cmd.Connect(conn, token))
        conns.append(conn)
    await room.call(cmd.Start(host))
    return room, tokens, conns


async def confirm_all(room: Room, conns: list[FakeConn]) -> None:
    """race: everybody confirms their secret; the race begins."""
    for conn in conns:
        await room.call(cmd.ClientAction(conn, 1, {"type": "confirm"}))
    assert room.match is not None and room.match.state["phase"] == "race", [
        c.sent[-1] for c in conns
    ]


def setup_pause(room: Room) -> float:
    """The game's pause after its setup events (dalmuti shows the seat draw first)."""
    assert room.match is not None
    return presentation_pause(room.game, room.match.setup_events)


def current(room: Room) -> str:
    """The player whose turn it is (race, laps)."""
    assert room.match is not None
    return str(room.match.state["players"][room.match.state["current"]])


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


async def until(
    manager: RoomManager, clock: FakeClock, condition: Any, limit: float = 2000
) -> None:
    """Moves the fake clock half a second at a time until ``condition()``, at most ``limit``
    seconds of it."""
    spent = 0.0
    while not condition():
        assert spent < limit, "condition not reached"
        await tick(manager, clock, 0.5)
        spent += 0.5


def next_seq(room: Room, player: str) -> int:
    """The clientSeq the seat's next action must carry: its last applied one + 1."""
    return room.series.last_client_seq.get(player, 0) + 1
