"""A match in a room: numbered updates, actions, duplicates, spectators, timeouts and bots."""

from __future__ import annotations

from typing import Any

from jokeapp.core.record import verify_record
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.messages import room_info
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import (
    FakeConn,
    as_json,
    confirm_all,
    current,
    next_seq,
    run_until_over,
    seated_room,
    settle,
    tick,
)
from tests.rooms.fakegame import GAME as RACE


async def test_updates_are_numbered_without_gaps_for_everyone(manager: RoomManager) -> None:
    room, _, conns = await seated_room(manager, people=3)
    await confirm_all(room, conns)
    for _ in range(1000):
        if room.status != "playing":
            break
        player = current(room)
        conn = conns[int(player[1:]) - 1]
        await room.call(cmd.ClientAction(conn, next_seq(room, player), {"type": "step", "n": 2}))
    for conn in conns:
        numbers = [m["seq"] for m in conn.sent if m["type"] in ("update", "snapshot")]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert conns[0].sent[-1]["room"]["status"] == "finished"


async def test_action_is_acknowledged_to_its_sender_only(manager: RoomManager) -> None:
    room, _, conns = await seated_room(manager)
    await room.call(cmd.ClientAction(conns[0], 1, {"type": "confirm"}))
    mine, theirs = conns[0].last("update"), conns[1].last("update")
    assert (
        mine["ack"] == 1
        and theirs["ack"] is None
        and mine["actor"] == "p1"
        and mine["seq"] == theirs["seq"]
    )


async def test_repeated_client_seq_is_applied_once(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _, conns = await seated_room(manager)
    await confirm_all(room, conns)
    conn = conns[int(current(room)[1:]) - 1]
    seq_before = room.audience.seq
    await room.call(cmd.ClientAction(conn, 2, {"type": "step", "n": 1}))
    state = RACE.to_json(room.match.state)  # type: ignore[union-attr]
    await room.call(cmd.ClientAction(conn, 2, {"type": "step", "n": 1}))
    await room.call(cmd.ClientAction(conn, 1, {"type": "step", "n": 1}))
    assert RACE.to_json(room.match.state) == state  # type: ignore[union-attr]
    assert room.audience.seq == seq_before + 1
    assert [e["code"] for e in conn.of_type("error")][-2:] == ["duplicate", "duplicate"]
    assert len(store.actions[(room.room_id, 1)]) == 3  # two confirms and one step


async def test_out_of_turn_and_malformed_actions_change_nothing(manager: RoomManager) -> None:
    room, _, conns = await seated_room(manager)
    await confirm_all(room, conns)
    waiting = conns[0] if current(room) == "p2" else conns[1]
    before, seq = RACE.to_json(room.match.state), room.audience.seq  # type: ignore[union-attr]
    refused: list[dict[str, Any]] = [
        {"type": "step", "n": 1},
        {"type": "fly"},
        {},
        {"type": "step", "n": "2"},
    ]
    for action in refused:
        await room.call(cmd.ClientAction(waiting, 2, action))  # a refused action keeps its number
    assert RACE.to_json(room.match.state) == before and room.audience.seq == seq  # type: ignore[union-attr]
    codes = [e["code"] for e in waiting.of_type("error")]
    assert len(codes) == 4 and codes[0] == "not_your_turn" and "client_seq_gap" not in codes
    assert all(isinstance(e["message"], str) for e in waiting.of_type("error"))


async def test_spectator_sees_updates_but_cannot_act(manager: RoomManager) -> None:
    room, tokens, conns = await seated_room(manager)
    token, _ = await room.call(cmd.Join("구경꾼", "spectator"))
    watcher = FakeConn()
    await room.call(cmd.Connect(watcher, token))
    snap = watcher.last("snapshot")
    assert snap["you"] == {
        "playerId": None,
        "role": "spectator",
        "nickname": "구경꾼",
        "host": False,
    }
    await room.call(cmd.ClientAction(watcher, 1, {"type": "confirm"}))
    assert watcher.last("error")["code"] == "spectator"
    await confirm_all(room, conns)
    assert watcher.last("update")["seq"] == conns[0].last("update")["seq"]


async def test_hidden_secret_only_reaches_its_owner(manager: RoomManager) -> None:
    room, _, conns = await seated_room(manager)
    assert room.match is not None
    secrets = room.match.state["secret"]
    await confirm_all(room, conns)
    for index, conn in enumerate(conns):
        me, other = f"p{index + 1}", f"p{2 - index}"
        text = str(conn.sent)
        assert str(secrets[me]) in text
        assert (
            f"'secret': {secrets[other]}" not in text
            and f"'mySecret': {secrets[other]}" not in text
        )


async def test_a_second_connection_with_the_same_token_replaces_the_first(
    manager: RoomManager,
) -> None:
    room, tokens, conns = await seated_room(manager)
    newer = FakeConn()
    await room.call(cmd.Connect(newer, tokens[0]))
    assert conns[0].closed == 4409 and conns[0].last("error")["code"] == "replaced"
    assert newer.last("snapshot")["you"]["playerId"] == "p1"
    await room.call(cmd.ClientAction(conns[0], 1, {"type": "confirm"}))  # the old one is gone
    assert room.match is not None and not room.match.state["confirmed"]["p1"]


async def test_reconnecting_returns_the_seat_and_last_client_seq(manager: RoomManager) -> None:
    room, tokens, conns = await seated_room(manager)
    await room.call(cmd.ClientAction(conns[1], 1, {"type": "confirm"}))
    await room.call(cmd.Disconnect(conns[1]))
    assert conns[0].last("update")["room"]["seats"][1]["connected"] is False
    again = FakeConn()
    await room.call(cmd.Connect(again, tokens[1]))
    snap = again.last("snapshot")
    assert (
        snap["you"]["playerId"] == "p2" and snap["lastClientSeq"] == 1 and snap["view"]["mySecret"]
    )


async def test_timeout_auto_action_is_logged_as_auto(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, _, conns = await seated_room(manager)
    confirm_deadline = conns[0].last("update")["pending"][0]["deadline"]
    await tick(manager, clock, 19.9)
    assert room.match is not None and room.match.state["phase"] == "confirm"
    await tick(manager, clock, 0.2)
    assert room.match.state["phase"] == "race"
    log = store.actions[(room.room_id, 1)]
    assert [(a.action, a.auto) for a in log] == [({"type": "confirm"}, True)] * 2
    update = conns[0].last("update")
    assert update["auto"] is True and update["pending"][0]["deadline"] == confirm_deadline + 10_000


async def test_deadline_of_a_waiting_player_is_kept_when_another_acts(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, _, conns = await seated_room(manager)
    first = conns[0].last("update")["pending"]
    await tick(manager, clock, 5)
    await room.call(cmd.ClientAction(conns[0], 1, {"type": "confirm"}))
    pending = conns[1].last("update")["pending"]
    assert pending == [p for p in first if p["player"] == "p2"]


async def test_bots_play_a_race_to_the_end_and_the_record_verifies(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    await room.call(cmd.Leave(host))  # nobody human: a bots-only room keeps running
    room2, host2, _ = await manager.create("race", {}, "b")
    for _ in range(3):
        await room2.call(cmd.AddBot(host2, "random"))
    await room2.call(cmd.Kick(host2, "p4"))
    conn = FakeConn()
    await room2.call(cmd.Connect(conn, host2))
    await room2.call(cmd.Start(host2))
    await room2.call(cmd.ClientAction(conn, 1, {"type": "confirm"}))
    await run_until_over(manager, clock, room2)
    record = await manager.record(room2.code, None)
    assert verify_record(RACE, record) == [] and record["result"]["winners"]
    assert record["seedHash"] == as_json(room_info(room2))["seedHash"]
    assert any(not s["auto"] and s["actor"] in ("p2", "p3") for s in record["steps"])


async def test_record_is_not_ready_before_the_end(manager: RoomManager) -> None:
    from jokeapp.rooms.errors import RoomError

    room, _, _ = await seated_room(manager)
    try:
        await manager.record(room.code, None)
    except RoomError as err:
        assert err.code == "record_not_ready"
    else:
        raise AssertionError("record served before the end")


async def test_a_failed_store_write_rolls_the_action_back(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _, conns = await seated_room(manager)
    store.fail_appends = True
    seq = room.audience.seq
    await room.call(cmd.ClientAction(conns[0], 1, {"type": "confirm"}))
    assert (
        room.match is not None
        and not room.match.state["confirmed"]["p1"]
        and room.audience.seq == seq
    )
    assert conns[0].last("error")["code"] == "internal"
    store.fail_appends = False
    await room.call(cmd.ClientAction(conns[0], 1, {"type": "confirm"}))  # not stored: same number
    assert room.match.state["confirmed"]["p1"]


async def test_rematch_keeps_the_seats_with_a_new_seed(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, tokens, conns = await seated_room(manager)
    first_hash = as_json(room_info(room))["seedHash"]
    await run_until_over(manager, clock, room, 5)
    info = as_json(await room.call(cmd.Rematch(tokens[0])))
    assert info["status"] == "playing" and info["match"] == 2 and info["seedHash"] != first_hash
    assert [s["playerId"] for s in info["seats"]] == ["p1", "p2"]
    assert (await manager.record(room.code, 1))["match"] == 1
    await settle(manager)


def _unused(_: Any) -> None:
    return None


async def test_finished_unwatched_rooms_leave_memory_and_come_back_from_the_store(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, tokens, conns = await seated_room(manager)
    await run_until_over(manager, clock, room, 5)
    assert await manager.evict_idle() == 0  # still watched
    for conn in conns:
        await room.call(cmd.Disconnect(conn))
    await tick(manager, clock, 601)
    assert await manager.evict_idle() == 1 and room.room_id not in manager.rooms
    again = await manager.get(room.code)
    assert again is not room and again.status == "finished" and again.series.number == 1
    assert verify_record(RACE, await manager.record(room.code, None)) == []
    info = as_json(await again.call(cmd.Rematch(tokens[0])))
    assert info["match"] == 2 and info["status"] == "playing"


async def test_a_client_seq_jump_is_refused_unchanged_and_names_the_expected_number(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, _, conns = await seated_room(manager)
    before, seq = RACE.to_json(room.match.state), room.audience.seq  # type: ignore[union-attr]
    for jump in (2, 2**31 - 1):  # the highest number used to lock the seat for good
        await room.call(cmd.ClientAction(conns[0], jump, {"type": "confirm"}))
        error = conns[0].last("error")
        assert (error["code"], error["clientSeq"], error["detail"]) == (
            "client_seq_gap",
            jump,
            {"expected": 1},
        )
    assert RACE.to_json(room.match.state) == before and room.audience.seq == seq  # type: ignore[union-attr]
    assert (
        room.series.last_client_seq.get("p1", 0) == 0
        and store.actions.get((room.room_id, 1), []) == []
    )
    await room.call(cmd.ClientAction(conns[0], 1, {"type": "confirm"}))
    assert conns[0].last("update")["ack"] == 1 and room.series.last_client_seq["p1"] == 1
