"""Two nodes that both believe they own a room: a paused owner whose lease expired, and the
node that took the room over. Exactly one of them can append; the other drops the room.

Each node here is a RoomManager with its own store (on shared data: memory, SQLite or
PostgreSQL) and its own ClusterNode on the same Redis prefix; the renewal loops are not
started, so the test decides when a node renews (a paused node never does).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from typing import Any

import pytest

from jokeapp.cluster.leases import Leases
from jokeapp.cluster.node import ClusterNode, NodeStopping, Remote
from jokeapp.core.codes import CLOSE_RECONNECT
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.room import Room
from jokeapp.rooms.status import RoomStatus
from jokeapp.store.api import Store
from tests.cluster.conftest import REDIS_URL, until
from tests.rooms.conftest import FakeConn, all_games, confirm_all, next_seq, seated_room

TTL = 0.5  # seconds a lease lives unrenewed


@pytest.fixture
async def nodes(two_nodes: list[Store], redis_prefix: str) -> AsyncIterator[list[ClusterNode]]:
    clock = FakeClock()
    made = []
    for name, store in zip("ab", two_nodes, strict=True):
        manager = RoomManager(store, clock, bot_delay=1.0, games=all_games)
        leases = Leases.connect(REDIS_URL, redis_prefix, name, TTL)
        node = ClusterNode(manager, leases, f"http://node-{name}.invalid", ttl=TTL)
        await leases.announce(node.url)
        made.append(node)
    yield made
    for node in made:
        await node.close()
        await node.manager.close()


async def playing_room(node: ClusterNode) -> tuple[Room, list[str], list[FakeConn]]:
    """A race on ``node``, both players connected and past their confirms."""
    room, tokens, conns = await seated_room(node.manager)
    await confirm_all(room, conns)
    return room, tokens, conns


def turn(room: Room) -> int:
    assert room.match is not None
    return int(room.match.state["current"])


async def take_over(a: ClusterNode, b: ClusterNode, room: Room) -> Room:
    """a is paused: its lease expires, then b is asked for the room and takes it."""
    await until(lambda: _free(a, room.room_id))
    found = await b.locate(room.code)
    assert isinstance(found, Room) and found is not room
    return found


def leases_outlive_the_test(*nodes: ClusterNode) -> None:
    """For a test in which no lease may end: a lease (and a handed-over room's reservation)
    then lasts a minute instead of ending by chance while a busy machine runs the test."""
    for node in nodes:
        node.ttl = 60.0
        node.leases.ttl_ms = 60_000
        node.reserve = 60.0


async def _free(node: ClusterNode, room_id: str) -> bool:
    return await node.leases.holder(room_id) is None


async def test_the_paused_owner_cannot_append_and_drops_the_room(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    room, tokens, conns = await playing_room(a)
    stale = await take_over(a, b, room)
    assert a.owns(room.room_id) and b.owns(room.room_id)  # both believe it
    assert stale.match is not None and stale.match.steps == 2  # rebuilt from the log

    # the paused owner wakes up and applies the player's move: its append is fenced
    mover = turn(room)
    player = f"p{mover + 1}"
    action = {"type": "step", "n": 2}
    await room.call(cmd.ClientAction(conns[mover], next_seq(room, player), action))
    refused = conns[mover].of_type("error")[0]
    assert refused["code"] == "room_moving" and refused["clientSeq"] == 2
    await until(lambda: _dropped(a, room))
    assert not a.owns(room.room_id) and all(c.closed == CLOSE_RECONNECT for c in conns)

    # the player reconnects (through any node) and the new owner applies the same move
    again = FakeConn()
    await stale.call(cmd.Connect(again, tokens[mover]))
    await stale.call(cmd.ClientAction(again, 2, action))
    assert again.last("update")["ack"] == 2
    stored = await b.store.match_log(room.room_id, 1)
    assert stored is not None
    assert [(s.step, s.actor) for s in stored[1]] == [(1, "p1"), (2, "p2"), (3, player)]
    assert await b.store.room_owner(room.room_id) == (2, "b")


async def _dropped(node: ClusterNode, room: Room) -> bool:
    return room.room_id not in node.manager.rooms


async def test_the_new_owner_appends_while_the_paused_one_is_refused_in_either_order(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    room, tokens, conns = await playing_room(a)
    fresh = await take_over(a, b, room)
    mover = turn(room)
    player = f"p{mover + 1}"
    other = FakeConn()
    await fresh.call(cmd.Connect(other, tokens[mover]))
    await fresh.call(cmd.ClientAction(other, 2, {"type": "step", "n": 1}))
    assert other.last("update")["ack"] == 2  # the new owner appends first
    await room.call(cmd.ClientAction(conns[mover], 2, {"type": "step", "n": 2}))
    assert conns[mover].of_type("error")[0] == {
        **conns[mover].of_type("error")[0],
        "code": "room_moving",
        "clientSeq": 2,
    }
    await until(lambda: _dropped(a, room))
    stored = await b.store.match_log(room.room_id, 1)
    assert stored is not None and [(s.step, s.action["n"]) for s in stored[1][2:]] == [(3, 1)]
    assert player in {"p1", "p2"}


async def test_a_node_that_learns_its_lease_is_lost_drops_the_room_before_any_write(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    room, _, conns = await playing_room(a)
    await take_over(a, b, room)
    await a.renew_once()  # a wakes up: its renewal finds b's lease
    assert not a.owns(room.room_id) and room.room_id not in a.manager.rooms
    assert all(c.closed == CLOSE_RECONNECT for c in conns)
    await b.renew_once()
    assert b.owns(room.room_id) and (await b.leases.holder(room.room_id)) is not None


async def test_an_owner_that_renews_keeps_its_room(nodes: list[ClusterNode]) -> None:
    a, b = nodes
    room, _, _ = await playing_room(a)
    holder = await a.leases.holder(room.room_id)
    assert holder is not None and holder.node == "a"
    for _ in range(3):
        await a.renew_once()
        assert not await b.scan_once()  # nothing to take: the lease is alive
    found = await b.locate(room.code)
    assert found == Remote("a", "http://node-a.invalid")  # b forwards to a


async def test_each_node_spaces_its_commits_by_the_number_of_live_nodes(
    nodes: list[ClusterNode],
) -> None:
    """Two live nodes: each commits at most half as often as one would (the cluster in all no
    more often than one process); once the other leaves, a node alone keeps the store's own
    spacing. The number comes with the renewal, which announces the node too."""
    a, b = nodes
    leases_outlive_the_test(a, b)  # b's announcement must not end by chance meanwhile
    await b.renew_once()
    base = a.base_spacing
    await a.renew_once()
    assert a.live_nodes == 2
    assert set(await a.leases.nodes()) == {"a", "b"}
    if base is not None:  # a SQL store (the memory store has no commits to space)
        assert getattr(a.store, "commit_spacing") == base * 2  # noqa: B009
    await b.hand_over()  # b leaves the cluster: its address is withdrawn
    await a.renew_once()
    assert a.live_nodes == 1
    assert set(await a.leases.nodes()) == {"a"}
    if base is not None:
        assert getattr(a.store, "commit_spacing") == base  # noqa: B009


async def test_a_dead_node_leaves_the_count_once_its_announcement_ends(
    nodes: list[ClusterNode], redis_prefix: str
) -> None:
    """A node killed (no withdrawal) counts as live until its announcement's time to live ends;
    then nobody spaces commits for it and it is no longer listed."""
    a, b = nodes
    leases_outlive_the_test(a, b)
    await b.renew_once()  # b stays live for the test, whatever the machine's pace
    dead = Leases.connect(REDIS_URL, redis_prefix, "c", 0.05)
    try:
        assert await dead.announce("http://node-c.invalid") == 3
    finally:
        await dead.close()

    async def gone() -> bool:
        await a.renew_once()
        return a.live_nodes == 2

    await until(gone)
    assert set(await a.leases.nodes()) == {"a", "b"}


async def test_a_taken_over_room_fires_a_deadline_that_passed_while_nobody_owned_it(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    clock = a.manager.clock
    assert isinstance(clock, FakeClock)
    room, _, _ = await playing_room(a)
    mover = f"p{turn(room) + 1}"
    await a.manager.drop(room.room_id)  # a dies: its copy is gone, its lease runs out
    clock.advance(60)  # longer than the turn's 10 s, while nobody owns the room
    fresh = await take_over(a, b, room)
    assert clock.advance(0) >= 1  # the deadline is already past: it fires now, not in 10 s
    await fresh.settle()
    stored = await b.store.match_log(room.room_id, 1)
    assert stored is not None and len(stored[1]) == 3
    last = stored[1][-1]
    assert (last.actor, last.auto) == (mover, True)


async def test_a_node_handing_its_rooms_over_says_it_cannot_serve(
    nodes: list[ClusterNode],
) -> None:
    a, _ = nodes
    await a.serving()  # a working node: no complaint
    room, _, _ = await playing_room(a)
    await a.hand_over()
    with pytest.raises(NodeStopping):
        await a.serving()
    assert not a.owns(room.room_id)


async def test_a_room_follows_its_sockets_and_its_lease_is_kept_for_the_node_holding_them(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    leases_outlive_the_test(a, b)  # nothing renews them here
    a.follow_after = 0.05
    room, _, conns = await playing_room(a)
    a.attach(room.room_id, "a")  # a socket connected to a, two relayed by b: it stays (a
    a.attach(room.room_id, "b")  # move would close the socket on a)
    a.attach(room.room_id, "b")
    assert a.follow_target(room.room_id) is None
    a.attach(room.room_id, "c")
    a.detach(room.room_id, "a")  # the one on a leaves: b relays more than half of them
    assert a.follow_target(room.room_id) == "b"
    await until(lambda: _dropped(a, room))
    assert not a.owns(room.room_id) and a.handed_over == 1
    assert all(c.closed == CLOSE_RECONNECT for c in conns)  # "reconnect", and no error frame
    assert not any(e["code"] == "room_moving" for c in conns for e in c.of_type("error"))

    assert not await a.take(room.room_id)  # reserved for b: not even its old owner takes it
    found = await b.locate(room.code)
    assert isinstance(found, Room) and b.owns(room.room_id)
    assert found.match is not None and found.match.steps == 2  # rebuilt from the log
    assert await b.store.room_owner(room.room_id) == (2, "b")


# ---------------------------------------------------------------- a start while the room moves


async def lobby_room(node: ClusterNode) -> tuple[Room, str]:
    room, host, _ = await node.manager.create("race", {}, "n1")
    await room.call(cmd.Join("n2", "player"))
    return room, host


def stall_the_status_write(store: Store) -> tuple[asyncio.Event, asyncio.Event]:
    """The start's second write (the room's status) waits for ``gate``; ``reached`` is set
    when it does: the match row is stored, the room's row not yet (a slow commit)."""
    reached, gate = asyncio.Event(), asyncio.Event()
    original = store.save_room

    async def stalled(row: Any) -> None:
        if row.status == "playing" and not gate.is_set():
            reached.set()
            await gate.wait()
        await original(row)

    store.save_room = stalled  # type: ignore[method-assign]
    return reached, gate


async def refusal(future: Awaitable[Any]) -> str:
    with pytest.raises(RoomError) as refused:
        await future
    return refused.value.code


async def test_a_start_cut_between_its_writes_answers_room_moving_and_works_on_the_next_owner(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    room, host = await lobby_room(a)
    reached, _ = stall_the_status_write(a.store)
    starting = asyncio.ensure_future(room.call(cmd.Start(host)))
    await reached.wait()
    await a.lose(room.room_id)  # its lease is lost: the room is dropped under the start
    assert await refusal(starting) == "room_moving"  # a clear "ask again", not `internal`

    await until(lambda: _free(a, room.room_id))
    fresh = await b.locate(room.code)
    assert isinstance(fresh, Room) and fresh.status is RoomStatus.LOBBY  # what the store says
    info = await fresh.call(cmd.Start(host))  # the host's start, asked again, just works
    assert info.status == "playing" and fresh.match is not None
    stored = await b.store.match_log(room.room_id, 1)
    assert stored is not None and stored[0].seed == fresh.match.seed


async def test_a_start_whose_write_is_fenced_answers_room_moving(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    room, host = await lobby_room(a)
    reached, gate = stall_the_status_write(a.store)
    starting = asyncio.ensure_future(room.call(cmd.Start(host)))
    await reached.wait()
    fresh = await take_over(a, b, room)  # a is paused mid-start; b owns the room now
    gate.set()  # a wakes up: its write is refused by the store's fence
    assert await refusal(starting) == "room_moving"
    await until(lambda: _dropped(a, room))
    info = await fresh.call(cmd.Start(host))
    assert info.status == "playing"
    assert await b.store.room_owner(room.room_id) == (2, "b")


async def test_a_room_handed_over_mid_start_finishes_the_start_first(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    leases_outlive_the_test(a, b)  # the room moves by hand-over only, not at a lease's end
    a.queue_wait = 0.05  # the start holds the queue until the gate opens: this wait ends
    a.command_wait = 60.0  # and the start, let finish, is not cut by a busy machine
    room, host = await lobby_room(a)
    reached, gate = stall_the_status_write(a.store)
    starting = asyncio.ensure_future(room.call(cmd.Start(host)))
    await reached.wait()
    moving = asyncio.ensure_future(a.hand_to(room.room_id, "b"))
    queued = asyncio.ensure_future(room.call(cmd.Info()))  # arrives while the room moves
    await until(lambda: _holding(room))  # done waiting for the queue: now for the start only
    gate.set()
    info = await starting  # answered by the old owner, whole
    assert info.status == "playing"
    await moving
    assert await refusal(queued) == "room_moving"  # not handled there: asked again elsewhere
    assert not a.owns(room.room_id)
    fresh = await b.locate(room.code)
    assert isinstance(fresh, Room) and fresh.status is RoomStatus.PLAYING
    assert fresh.match is not None and fresh.match.seed == room.match.seed  # type: ignore[union-attr]


async def _holding(room: Room) -> bool:
    return room._holding is not None


# ---------------------------------------------------------------- the scan for rooms to take


async def test_the_scan_looks_only_at_rooms_due_and_takes_a_dead_owners(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    a.leases.ttl_ms = b.leases.ttl_ms = 60_000  # no lease ends by chance on a busy machine
    room, _, _ = await playing_room(a)
    other, _, _ = await playing_room(b)
    assert room.room_id not in await b.leases.due()  # a's lease is alive yet
    # a's last renewal before its pause: its lease ends a moment later (b's outlives the test)
    a.leases.ttl_ms = 100
    assert await a.leases.renew({room.room_id: a.owned[room.room_id].epoch}) == set()
    await until(lambda: _due(b, room.room_id))  # a's lease ended: its room is due
    assert await b.leases.due() == [room.room_id]
    assert await b.scan_once() == 1 and b.owns(room.room_id)
    assert await b.leases.due() == []  # taken: due again only when b's lease would end
    assert b.owns(other.room_id)


async def test_a_room_let_go_is_due_at_once(nodes: list[ClusterNode]) -> None:
    a, b = nodes
    a.leases.ttl_ms = 60_000  # a's lease would not end during the test
    room, _, _ = await playing_room(a)
    assert room.room_id not in await b.leases.due()
    await a.let_go(room.room_id)
    assert await b.leases.due() == [room.room_id]  # not at its lease's end: now
    assert await b.scan_once() == 1 and b.owns(room.room_id)


async def _due(node: ClusterNode, room_id: str) -> bool:
    return room_id in await node.leases.due()


async def _live(node: ClusterNode, room_id: str) -> bool:
    """The room is in the live set (its score: when its lease ends unless renewed)."""
    return await node.leases.client.zscore(node.leases._live, room_id) is not None


async def test_a_rematched_room_is_live_again_and_taken_over_when_its_owner_dies(
    nodes: list[ClusterNode],
) -> None:
    a, b = nodes
    room, tokens, conns = await playing_room(a)
    assert await _live(a, room.room_id)
    mover = turn(room)
    concede = {"type": "CONCEDE"}
    await room.call(cmd.ClientAction(conns[mover], next_seq(room, f"p{mover + 1}"), concede))
    assert room.status is RoomStatus.FINISHED
    await a.renew_once()
    assert not await _live(a, room.room_id)  # finished: nothing for a dead owner's heirs

    info = await room.call(cmd.Rematch(tokens[0]))
    assert info.status == "playing"
    await a.renew_once()
    assert await _live(a, room.room_id)  # playing again: live again, scored by a's lease

    await a.manager.drop(room.room_id)  # a dies: its copy is gone, its lease runs out
    await until(lambda: _due(b, room.room_id))
    assert await b.scan_once() == 1 and b.owns(room.room_id)  # found by the scan alone
    fresh = b.manager.rooms[room.room_id]
    assert fresh.status is RoomStatus.PLAYING and fresh.series.number == 2  # the rematch
    assert await b.store.room_owner(room.room_id) == (2, "b")
    await b.renew_once()
    assert await _live(b, room.room_id) and await b.leases.due() == []
