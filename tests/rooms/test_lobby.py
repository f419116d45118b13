"""Seats, host, spectators and the host's commands before and between matches."""

from __future__ import annotations

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import FakeConn, as_json, settle


async def test_create_room_seats_the_creator_as_host(
    manager: RoomManager, store: MemoryStore
) -> None:
    room, token, player = await manager.create("race", {}, "  수진 ")
    assert player == "p1" and room.members.host_id == "p1"
    assert room.members.seats["p1"].nickname == "수진"
    assert len(token) >= 32 and token not in str(store.seats)  # only a hash is stored
    assert room.options == {"turnSeconds": 10, "confirmSeconds": 20}
    assert len(room.code) == 6 and (await manager.get(room.code.lower())) is room


@pytest.mark.parametrize("nickname", ["", "   ", "x" * 13, "a\x00b", "보\u202eb", 7])
async def test_odd_nicknames_are_refused(manager: RoomManager, nickname: object) -> None:
    with pytest.raises(RoomError) as err:
        await manager.create("race", {}, nickname)  # type: ignore[arg-type]
    assert err.value.code == "invalid_nickname" and err.value.status == 400
    assert manager.rooms == {}


async def test_unknown_game_and_bad_options_are_refused(manager: RoomManager) -> None:
    with pytest.raises(RoomError) as err:
        await manager.create("chess", {}, "a")
    assert err.value.code == "unknown_game"
    with pytest.raises(RoomError) as err:
        await manager.create("race", {"turnSeconds": 11}, "a")
    assert err.value.code == "invalid_option_value"
    with pytest.raises(RoomError) as err:
        await manager.create("race", {"speed": 1}, "a")
    assert err.value.code == "unknown_option"


async def test_join_fills_seats_then_only_spectators(manager: RoomManager) -> None:
    room, _, _ = await manager.create("race", {}, "a")
    for name, expected in [("b", "p2"), ("c", "p3"), ("d", "p4")]:
        _, pid = await room.call(cmd.Join(name, "player"))
        assert pid == expected
    with pytest.raises(RoomError) as err:
        await room.call(cmd.Join("e", "player"))
    assert err.value.code == "room_full"
    token, pid = await room.call(cmd.Join("e", "spectator"))
    assert pid is None and len(room.members.spectators) == 1


async def test_nickname_taken_by_another_seat(manager: RoomManager) -> None:
    room, _, _ = await manager.create("race", {}, "a")
    with pytest.raises(RoomError) as err:
        await room.call(cmd.Join("a", "player"))
    assert err.value.code == "nickname_taken"


async def test_only_the_host_runs_host_commands(manager: RoomManager) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    guest, _ = await room.call(cmd.Join("b", "player"))
    host_only: list[cmd.Command] = [
        cmd.Start(guest),
        cmd.AddBot(guest, "random"),
        cmd.SetOptions(guest, {"turnSeconds": 30}),
    ]
    for command in host_only:
        with pytest.raises(RoomError) as err:
            await room.call(command)
        assert err.value.code == "not_host"
    with pytest.raises(RoomError) as err:
        await room.call(cmd.Start("not-a-token"))
    assert err.value.code == "bad_token"
    assert room.status == "lobby" and len(room.members.seats) == 2


async def test_start_needs_the_game_s_player_count(manager: RoomManager) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    with pytest.raises(RoomError) as err:
        await room.call(cmd.Start(host))
    assert err.value.code == "not_enough_players"
    await room.call(cmd.AddBot(host, "random"))
    info = as_json(await room.call(cmd.Start(host)))
    assert info["status"] == "playing" and info["seedHash"] and len(info["seedHash"]) == 64


async def test_bots_added_and_removed_by_the_host(manager: RoomManager) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    pid = await room.call(cmd.AddBot(host, "heuristic"))
    assert room.members.seats[pid].bot and room.members.seats[pid].nickname == "봇 1"
    with pytest.raises(RoomError) as err:
        await room.call(cmd.AddBot(host, "genius"))
    assert err.value.code == "unknown_bot"
    await room.call(cmd.RemoveBot(host, pid))
    assert pid not in room.members.seats
    with pytest.raises(RoomError) as err:
        await room.call(cmd.RemoveBot(host, "p1"))
    assert err.value.code == "seat_not_found"


async def test_options_change_only_in_the_lobby(manager: RoomManager) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    info = as_json(await room.call(cmd.SetOptions(host, {"turnSeconds": 30})))
    assert info["options"]["turnSeconds"] == 30
    with pytest.raises(RoomError) as err:
        await room.call(cmd.SetOptions(host, {"turnSeconds": 31}))
    assert err.value.code == "invalid_option_value"
    await room.call(cmd.AddBot(host, "random"))
    await room.call(cmd.Start(host))
    with pytest.raises(RoomError) as err:
        await room.call(cmd.SetOptions(host, {"turnSeconds": 10}))
    assert err.value.code == "wrong_status"


async def test_host_passes_to_the_next_seated_person_when_leaving(manager: RoomManager) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    await room.call(cmd.AddBot(host, "random"))  # p2, a bot never hosts
    await room.call(cmd.Join("c", "player"))  # p3
    await room.call(cmd.Leave(host))
    assert room.members.host_id == "p3" and "p1" not in room.members.seats


async def test_kick_in_the_lobby_frees_the_seat_and_voids_the_token(manager: RoomManager) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    guest, pid = await room.call(cmd.Join("b", "player"))
    conn = FakeConn()
    await room.call(cmd.Connect(conn, guest))
    await room.call(cmd.Kick(host, pid))
    assert (
        pid not in room.members.seats
        and conn.closed == 4403
        and conn.last("error")["code"] == "kicked"
    )
    again = FakeConn()
    await room.call(cmd.Connect(again, guest))
    assert again.last("error")["code"] == "bad_token" and again.closed == 4401
    await settle(manager)
