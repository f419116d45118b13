"""Between matches and at the edges: bots after a kick, options before a rematch, rooms left
by every person, spectators without a name."""

from __future__ import annotations

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import FakeConn, all_games, as_json, run_until_over, tick


async def test_after_an_afk_kick_in_a_full_room_a_bot_takes_the_seat_and_the_rematch_starts(
    laps_manager: RoomManager, clock: FakeClock
) -> None:
    room, host, _ = await laps_manager.create("laps", {}, "방장")
    tokens = [host] + [(await room.call(cmd.Join(f"친구{i}", "player")))[0] for i in range(3)]
    conns = [FakeConn() for _ in tokens]
    for conn, token in zip(conns, tokens, strict=True):
        await room.call(cmd.Connect(conn, token))
    await room.call(cmd.Start(host))
    await room.call(cmd.Disconnect(conns[3]))
    for _ in range(4000):
        if room.absences.offers:
            break
        await tick(laps_manager, clock, 0.5)
    info = as_json(await room.call(cmd.AfkAnswer(host, "p4", "kick")))
    assert (
        info["status"] == "finished" and room.members.seats["p4"].gone
    )  # the laps game ends on a concession
    bot = await room.call(cmd.AddBot(host, "heuristic"))
    assert bot == "p4" and room.members.seats["p4"].bot
    info = as_json(await room.call(cmd.Rematch(host)))
    assert info["status"] == "playing" and info["match"] == 2 and len(info["seats"]) == 4


async def test_a_two_seat_room_after_a_kick_needs_a_bot_before_the_rematch(
    laps_manager: RoomManager, clock: FakeClock
) -> None:
    room, host, _ = await laps_manager.create("laps", {}, "방장")
    other, _ = await room.call(cmd.Join("친구", "player"))
    await room.call(cmd.Start(host))
    await room.call(cmd.Kick(host, "p2"))
    assert room.status == "finished"
    with pytest.raises(RoomError) as refused:
        await room.call(cmd.Rematch(host))
    assert refused.value.code == "not_enough_players"
    await room.call(cmd.AddBot(host, "heuristic"))
    assert (as_json(await room.call(cmd.Rematch(host))))["status"] == "playing"


async def test_when_every_person_leaves_mid_match_the_match_stops_abandoned(
    manager: RoomManager, clock: FakeClock, store: MemoryStore
) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    await room.call(cmd.AddBot(host, "heuristic"))
    watch, _ = await room.call(cmd.Join("", "spectator"))
    watcher = FakeConn()
    await room.call(cmd.Connect(watcher, watch))
    await room.call(cmd.Start(host))
    await room.call(cmd.Leave(host))
    last = watcher.last("update")["room"]
    assert last["status"] == "finished" and last["abandoned"] is True and last["hostId"] is None
    steps = len(store.actions[(room.room_id, 1)])
    await tick(manager, clock, 600)  # the bot never plays on by itself
    assert len(store.actions[(room.room_id, 1)]) == steps and room.status == "finished"
    assert store.matches[(room.room_id, 1)].result == {"abandoned": True}
    record = await manager.record(room.code, 1)
    assert record["abandoned"] is True and record["result"] is None
    with pytest.raises(RoomError) as refused:
        await room.call(cmd.Join("new", "player"))
    assert refused.value.code == "already_started"


async def test_the_host_changes_options_after_a_match_and_the_rematch_plays_with_them(
    manager: RoomManager, clock: FakeClock
) -> None:
    room, host, _ = await manager.create("race", {"turnSeconds": 10}, "a")
    await room.call(cmd.AddBot(host, "heuristic"))
    await room.call(cmd.Start(host))
    with pytest.raises(RoomError) as refused:
        await room.call(cmd.SetOptions(host, {"turnSeconds": 30}))
    assert refused.value.code == "wrong_status"
    await run_until_over(manager, clock, room, 5)
    info = as_json(await room.call(cmd.SetOptions(host, {"turnSeconds": 30})))
    assert info["options"]["turnSeconds"] == 30 and info["status"] == "finished"
    await room.call(cmd.Rematch(host))
    assert room.match is not None and room.match.options["turnSeconds"] == 30
    assert room.match.state["options"]["turnSeconds"] == 30
    with pytest.raises(RoomError) as bad:
        await room.call(cmd.SetOptions(host, {"turnSeconds": 31}))
    assert bad.value.code == "wrong_status"


async def test_a_spectator_without_a_nickname_is_named_and_a_player_is_not(
    manager: RoomManager,
) -> None:
    room, host, _ = await manager.create("race", {}, "a")
    await room.call(cmd.Join("", "spectator"))
    await room.call(cmd.Join("   ", "spectator"))
    await room.call(cmd.Join("구경", "spectator"))
    assert sorted(s.nickname for s in room.members.spectators.values()) == [
        "관전자 1",
        "관전자 2",
        "구경",
    ]
    with pytest.raises(RoomError) as refused:
        await room.call(cmd.Join("", "player"))
    assert refused.value.code == "invalid_nickname" and len(room.members.seats) == 1


async def test_a_restored_match_with_only_bots_left_is_stopped_not_played(
    store: MemoryStore, clock: FakeClock
) -> None:
    first = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    room, host, _ = await first.create("race", {}, "a")
    await room.call(cmd.AddBot(host, "heuristic"))
    await room.call(cmd.Start(host))
    await first.close()
    row = store.seats[(room.room_id, "p1")]
    row.token_key = None  # as a server of before this rule left it: the person gone, a bot seated
    second = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    await second.restore_all()
    again = second.rooms[room.room_id]
    await tick(second, clock, 120)
    assert (
        again.status == "finished"
        and again.series.abandoned
        and store.actions[(room.room_id, 1)] == []
    )
    await second.close()


async def test_a_start_or_rematch_of_a_room_playing_already_says_a_match_is_on(
    manager: RoomManager, clock: FakeClock
) -> None:
    """A start tried again after its answer was lost (the load generator's setup under load)
    finds its match playing: it is told so, not the bare wrong_status."""
    room, host, _ = await manager.create("race", {"turnSeconds": 10}, "a")
    await room.call(cmd.AddBot(host, "heuristic"))
    with pytest.raises(RoomError) as early:
        await room.call(cmd.Rematch(host))
    assert early.value.code == "wrong_status"  # a lobby has no match to play again
    await room.call(cmd.Start(host))
    for again in (cmd.Start(host), cmd.Rematch(host)):
        with pytest.raises(RoomError) as refused:
            await room.call(again)
        assert refused.value.code == "match_in_progress"
    assert room.series.number == 1
    await run_until_over(manager, clock, room, 5)
    with pytest.raises(RoomError) as over:
        await room.call(cmd.Start(host))
    assert over.value.code == "wrong_status"  # finished: a rematch, not a start
    await room.call(cmd.Rematch(host))
    with pytest.raises(RoomError) as twice:
        await room.call(cmd.Rematch(host))
    assert twice.value.code == "match_in_progress" and room.series.number == 2
