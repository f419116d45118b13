"""The opening (setup events reach every viewer) and the pause a game asks for after a step."""

from __future__ import annotations

import pytest

from jokeapp.core.contract import presentation_pause
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from jokeapp.rooms.messages import pending_info
from jokeapp.store.memory import MemoryStore
from jokeapp.wire.protocol import ServerMessage
from tests.rooms.conftest import FakeConn, as_json, run_until_over, seated_room, tick, with_laps
from tests.rooms.lapsgame import MOVE_PAUSE

GAMES = installed_games()
needs_marble = pytest.mark.skipif("marble" not in GAMES, reason="marble engine not installed yet")
needs_dalmuti = pytest.mark.skipif(
    "dalmuti" not in GAMES, reason="dalmuti engine not installed yet"
)


class TimedConn(FakeConn):
    """Also notes the (fake) time each message was sent."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.clock = clock
        self.times: list[float] = []

    def send(self, message: ServerMessage) -> None:
        super().send(message)
        self.times.append(self.clock.now())


async def test_the_first_update_and_an_early_snapshot_carry_each_viewers_setup_events(
    manager: RoomManager,
) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    other, _ = await room.call(cmd.Join("b", "player"))
    watch, _ = await room.call(cmd.Join("c", "spectator"))
    conns = [FakeConn(), FakeConn(), FakeConn()]
    for conn, token in zip(conns, [host, other, watch], strict=True):
        await room.call(cmd.Connect(conn, token))
    assert conns[0].last("snapshot")["setupEvents"] is None  # lobby: no match yet
    await room.call(cmd.Start(host))
    dealt = [{"type": "dealt", "counts": {"p1": 1, "p2": 1}}]
    for conn in conns:
        first = conn.last("update")
        assert first["room"]["status"] == "playing" and first["events"] == dealt
    late = FakeConn()
    await room.call(cmd.Connect(late, other))
    assert late.last("snapshot")["setupEvents"] == dealt
    await room.call(cmd.ClientAction(late, 1, {"type": "confirm"}))
    after = FakeConn()
    await room.call(cmd.Connect(after, watch))
    assert after.last("snapshot")["setupEvents"] is None  # once play began it is history


async def test_a_rematch_sends_the_new_matchs_setup_events(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    await room.call(cmd.AddBot(host, "heuristic"))
    conn = FakeConn()
    await room.call(cmd.Connect(conn, host))
    await room.call(cmd.Start(host))
    await run_until_over(manager, clock, room, 5)
    await room.call(cmd.Rematch(host))
    update = conn.last("update")
    assert update["room"]["match"] == 2 and update["events"] == [
        {"type": "dealt", "counts": {"p1": 1, "p2": 1}}
    ]


@needs_dalmuti
async def test_dalmuti_opening_draw_reaches_players_and_the_first_deadline_waits_for_it(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, host, _ = await manager.create("dalmuti", {}, "a")
    for i in range(3):
        await room.call(cmd.Join(f"b{i}", "player"))
    conn = FakeConn()
    await room.call(cmd.Connect(conn, host))
    start = clock.now()
    await room.call(cmd.Start(host))
    update = conn.last("update")
    assert [e["type"] for e in update["events"]] == ["firstRankDraw", "dealt"]
    pause = presentation_pause(room.game, room.match.setup_events)  # type: ignore[union-attr]
    assert pause > 0
    assert {p["deadline"] for p in update["pending"]} == {int((start + pause + 20) * 1000)}


async def test_a_decision_starts_after_the_games_pause_for_people_and_bots(
    store: MemoryStore, clock: FakeClock
) -> None:
    manager = RoomManager(store, clock, bot_delay=1.0, games=with_laps)
    room, host, _ = await manager.create("laps", {}, "a")
    await room.call(cmd.AddBot(host, "heuristic"))
    conn = TimedConn(clock)
    await room.call(cmd.Connect(conn, host))
    await room.call(cmd.Start(host))
    await room.call(cmd.ClientAction(conn, 1, {"type": "go"}))
    moved_at = clock.now()
    assert conn.last("update")["pending"][0]["deadline"] == int((moved_at + MOVE_PAUSE + 10) * 1000)
    await room.call(cmd.ClientAction(conn, 2, {"type": "go"}))  # p1's second step: the bot is next
    bot_turn_at = clock.now()
    await tick(manager, clock, MOVE_PAUSE + 1.0 - 0.01)
    assert conn.last("update")["actor"] == "p1", "the bot moved during the pause"
    await tick(manager, clock, 0.02)
    assert conn.last("update")["actor"] == "p2" and conn.times[-1] == pytest.approx(
        bot_turn_at + MOVE_PAUSE + 1.0
    )
    await manager.close()


@needs_dalmuti
async def test_dalmuti_round_end_pauses_before_the_next_rounds_deadlines(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, host, _ = await manager.create("dalmuti", {"rounds": 3}, "a")
    for _ in range(3):
        await room.call(cmd.AddBot(host, "heuristic"))
    conn = TimedConn(clock)
    await room.call(cmd.Connect(conn, host))
    await room.call(cmd.Start(host))
    await run_until_over(manager, clock, room, 2)
    updates = [(m, t) for m, t in zip(conn.sent, conn.times, strict=True) if m["type"] == "update"]
    ends = [
        i for i, (m, _) in enumerate(updates) if any(e["type"] == "roundOver" for e in m["events"])
    ]
    assert ends, "no round ended"
    index = ends[0]
    message, at = updates[index]
    pause = presentation_pause(room.game, message["events"])
    assert pause >= 5
    # every deadline the next round opens starts after the pause (5 s: the shortest deadline)
    assert message["pending"] and all(
        p["deadline"] >= (at + pause + 5) * 1000 for p in message["pending"]
    )
    next_message, next_at = updates[index + 1]
    assert next_at >= at + pause, "somebody acted during the round-end pause"


@needs_marble
def test_marble_gives_a_walking_token_its_time() -> None:
    from jokeapp.games.marble.presentation import MAX_PAUSE, SECONDS_PER_SQUARE

    game = GAMES["marble"]
    walk = [
        {"type": "moved", "player": "p1", "from": 37, "to": 3, "passedStart": True, "by": "dice"}
    ]
    assert presentation_pause(game, walk) == pytest.approx(6 * SECONDS_PER_SQUARE)
    jump = [
        {"type": "moved", "player": "p1", "from": 30, "to": 5, "passedStart": True, "by": "space"}
    ]
    assert presentation_pause(game, jump) == pytest.approx(SECONDS_PER_SQUARE)
    around = [
        {"type": "moved", "player": "p1", "from": 1, "to": 0, "passedStart": True, "by": "card"}
    ] * 30
    assert presentation_pause(game, around) == MAX_PAUSE
    assert (
        presentation_pause(
            game, [{"type": "rolled", "player": "p1", "dice": [1, 2], "double": False}]
        )
        == 0
    )


@needs_marble
async def test_marble_pending_deadline_includes_the_walk(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, _, conns = await seated_room(manager, "marble", 2, options={"turnSeconds": 30})
    first = as_json(pending_info(room))[0]["player"]
    conn = conns[int(first[1:]) - 1]
    await room.call(cmd.ClientAction(conn, 1, {"type": "ROLL"}))
    update = conn.last("update")
    pause = presentation_pause(room.game, update["events"])
    assert pause > 0 and update["pending"]
    assert all(p["deadline"] == int((clock.now() + pause + 30) * 1000) for p in update["pending"])
