"""The specs' section 10 items that concern the room server, named after them."""

from __future__ import annotations

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from jokeapp.rooms.match import LoggedStep, Match
from jokeapp.rooms.restore import restore_room
from jokeapp.rooms.room import SEQ_RESERVE, SNAPSHOT_EVERY
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import FakeConn, next_seq, run_until_over, seated_room, tick

GAMES = installed_games()
needs_marble = pytest.mark.skipif("marble" not in GAMES, reason="marble engine not installed yet")
needs_dalmuti = pytest.mark.skipif(
    "dalmuti" not in GAMES, reason="dalmuti engine not installed yet"
)


@needs_marble
async def test_marble_disconnected_player_turns_run_automatically_and_tolls_are_still_collected(
    manager: RoomManager, clock: FakeClock
) -> None:
    """marble §10 "연결 끊김: 끊긴 사람의 차례가 자동 진행되고 통행료는 정상 수령"."""
    room, tokens, conns = await seated_room(manager, "marble", 1, 1, {"maxRounds": 15})
    token, _ = await room.call(cmd.Join("구경", "spectator"))
    watcher = FakeConn()
    await room.call(cmd.Connect(watcher, token))
    assert room.match is not None
    game = room.game
    data = game.to_json(room.match.state)
    # p1 owns every land still in the bank's hands: any landing of p2 on one of them owes p1.
    from jokeapp.games.marble.data import CITIES

    data["owners"] = {str(pos): {"owner": "p1", "level": 0} for pos in CITIES}
    room.match.state = game.from_json(data)
    await room.call(cmd.Disconnect(conns[0]))
    await run_until_over(manager, clock, room, 2)
    events = [e for m in watcher.of_type("update") for e in m["events"]]
    tolls = [e for e in events if e["type"] == "tollPaid" and e["to"] == "p1" and not e["waived"]]
    assert tolls, "p2 never paid p1 a toll"
    mine = [m for m in watcher.of_type("update") if m["actor"] == "p1"]
    assert mine and all(m["auto"] for m in mine)


@needs_dalmuti
async def test_dalmuti_out_of_turn_play_unknown_cards_and_duplicate_packets_are_refused_unchanged(
    manager: RoomManager, clock: FakeClock
) -> None:
    """dalmuti §10 "차례가 아닌 play, 손에 없는 카드, 중복 패킷은 거부되고 상태가 바뀌지 않는다"."""
    room, tokens, conns = await seated_room(manager, "dalmuti", 4, 0)
    for conn in conns:
        await room.call(cmd.ClientAction(conn, 1, {"type": "confirmHand"}))
    for _ in range(200):
        if (
            room.match is not None
            and room.game.view(room.match.state, None)["phase"]["kind"] == "playing"
        ):
            break
        await tick(manager, clock, 31)
    assert room.match is not None
    game = room.game
    current = game.view(room.match.state, None)["current"]
    other = next(p for p in ("p1", "p2", "p3", "p4") if p != current)
    other_conn = conns[int(other[1:]) - 1]
    current_conn = conns[int(current[1:]) - 1]
    before, seq = game.to_json(room.match.state), room.audience.seq
    own_card = game.view(room.match.state, other)["hand"][0]["id"]
    other_seq, current_seq = next_seq(room, other), next_seq(room, current)
    await room.call(
        cmd.ClientAction(other_conn, other_seq, {"type": "play", "cardIds": [own_card]})
    )
    foreign = game.view(room.match.state, other)["hand"][0]["id"]
    mine = {c["id"] for c in game.view(room.match.state, current)["hand"]}
    assert foreign not in mine
    await room.call(
        cmd.ClientAction(current_conn, current_seq, {"type": "play", "cardIds": [foreign]})
    )
    assert game.to_json(room.match.state) == before and room.audience.seq == seq
    assert other_conn.last("error")["clientSeq"] == other_seq
    assert current_conn.last("error")["clientSeq"] == current_seq
    legal = game.legal_actions(room.match.state, current)
    await room.call(
        cmd.ClientAction(current_conn, current_seq, legal[0])
    )  # the refused number again
    after = game.to_json(room.match.state)
    await room.call(cmd.ClientAction(current_conn, current_seq, legal[0]))
    assert (
        game.to_json(room.match.state) == after
        and current_conn.last("error")["code"] == "duplicate"
    )


@needs_marble
async def test_restore_from_snapshot_and_tail_equals_replay_from_the_seed(
    manager: RoomManager, store: MemoryStore, clock: FakeClock
) -> None:
    room, host, _ = await manager.create("marble", {"maxRounds": 30}, "a")
    for _ in range(3):
        await room.call(cmd.AddBot(host, "heuristic"))
    await room.call(cmd.Leave(host))  # a seat played by the timeout rules, bots on the others
    room2, host2, _ = await manager.create("marble", {"maxRounds": 30}, "b")
    await room2.call(cmd.Join("c", "player"))  # stays, never connects: the room is not abandoned
    for _ in range(2):
        await room2.call(cmd.AddBot(host2, "random"))
    await room2.call(cmd.Start(host2))
    await room2.call(cmd.Leave(host2))
    while (
        room2.status == "playing"
        and room2.match is not None
        and room2.match.steps < SNAPSHOT_EVERY * 2 + 7
    ):
        await tick(manager, clock, 1)
    assert room2.match is not None and room2.status == "playing", "game too short for the test"
    loaded = await store.load_room(room2.room_id)
    assert (
        loaded is not None
        and loaded.snapshot is not None
        and loaded.snapshot[0] % SNAPSHOT_EVERY == 0
    )
    restored = restore_room(loaded, room2.game, store, clock, 1.0)
    assert restored.match is not None and restored.match.steps == room2.match.steps
    stored = await store.match_log(room2.room_id, room2.series.number)
    assert stored is not None
    row, actions = stored
    replayed = Match.restore(
        room2.game,
        row.match,
        row.options,
        row.players,
        row.seed,
        None,
        [LoggedStep(a.actor, a.action, a.auto) for a in actions],
    )
    game = room2.game
    assert (
        game.to_json(restored.match.state)
        == game.to_json(replayed.state)
        == game.to_json(room2.match.state)
    )
    # above every number sent (room changes' reserved ones included), skipping at most a block
    assert room2.audience.seq <= restored.audience.seq <= room2.audience.seq + SEQ_RESERVE


@needs_marble
async def test_a_restarted_manager_resumes_unfinished_rooms_and_their_clocks(
    store: MemoryStore, clock: FakeClock
) -> None:
    from tests.rooms.conftest import all_games

    first = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    room, host, _ = await first.create("marble", {"maxRounds": 15}, "a")
    await room.call(cmd.AddBot(host, "heuristic"))
    await room.call(cmd.Start(host))
    await tick(first, clock, 100)
    steps = room.match.steps  # type: ignore[union-attr]
    await first.close()
    second = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    assert await second.restore_all() == 1
    again = second.rooms[room.room_id]
    assert again.match is not None and again.match.steps == steps and again.status == "playing"
    conn = FakeConn()
    await again.call(cmd.Connect(conn, host))
    assert conn.last("snapshot")["you"]["host"] is True
    await run_until_over(second, clock, again, 5)
    record = await second.record(room.code, None)
    from jokeapp.core.record import verify_record

    assert verify_record(again.game, record) == []
    await second.close()
