"""Update numbers never name two updates of a room, across restarts and takeovers: a room
restored from the store goes on above every number it sent, room changes included."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.room import SEQ_RESERVE, Room
from jokeapp.store.api import RoomRow
from jokeapp.store.memory import MemoryStore
from tests.rooms.conftest import (
    FakeConn,
    all_games,
    current,
    next_seq,
    seated_room,
    tick,
    until,
    with_laps,
)


class CountingStore(MemoryStore):
    """A memory store that counts the room rows written."""

    def __init__(self) -> None:
        super().__init__()
        self.room_writes = 0

    async def save_room(self, row: RoomRow) -> None:
        self.room_writes += 1
        await super().save_room(row)


class Witness(FakeConn):
    """A connection that checks, as each update arrives, that its number is safe from reuse:
    a logged action's is in the store's log, any other is at most the store's reserved one."""

    def __init__(self, store: MemoryStore, room_id: str) -> None:
        super().__init__()
        self.store, self.room_id = store, room_id

    def send(self, message: Any) -> None:
        super().send(message)
        kept = self.sent[-1]
        if kept["type"] != "update":
            return
        logged = {a.seq for log in self._logs() for a in log}
        if kept["seq"] not in logged:
            reserved = self.store.rooms[self.room_id].seq_reserved
            assert kept["seq"] <= reserved, (kept["seq"], reserved, kept["actor"])

    def _logs(self) -> list[list[Any]]:
        return [log for (rid, _), log in self.store.actions.items() if rid == self.room_id]


def numbers(conns: list[FakeConn]) -> set[int]:
    return {m["seq"] for c in conns for m in c.sent if m["type"] == "update"}


async def restored(store: MemoryStore, clock: FakeClock, room_id: str) -> tuple[RoomManager, Room]:
    manager = RoomManager(store, clock, bot_delay=1.0, games=with_laps)
    assert await manager.restore_all() == 1
    return manager, manager.rooms[room_id]


async def test_a_lobby_restored_after_room_changes_only_never_reuses_a_number(
    clock: FakeClock,
) -> None:
    store = MemoryStore()
    first = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    room, host, _ = await first.create("race", {}, "방장")
    friend, _ = await room.call(cmd.Join("친구", "player"))
    conns = [FakeConn(), FakeConn()]
    await room.call(cmd.Connect(conns[0], host))
    for _ in range(3):  # a friend whose page reloads: nothing of it is logged
        await room.call(cmd.Connect(conns[1], friend))
        await room.call(cmd.Disconnect(conns[1]))
    sent = numbers(conns)
    assert len(sent) >= 6 and not store.actions  # no action: no number in any log
    await first.close()  # the process stops; nothing more is written

    second = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    assert await second.restore_all() == 1
    again = second.rooms[room.room_id]
    back = FakeConn()
    await again.call(cmd.Connect(back, host))
    await again.call(cmd.Join("셋째", "player"))
    assert back.sent[0]["type"] == "snapshot" and back.sent[0]["seq"] >= max(sent)
    new = numbers([back])
    assert new and min(new) > max(sent)
    await second.close()


async def test_a_match_restored_after_room_changes_past_its_last_action_goes_on_above_them(
    clock: FakeClock,
) -> None:
    store = CountingStore()
    first = RoomManager(store, clock, bot_delay=1.0, games=with_laps)
    room, tokens, conns = await seated_room(first, "laps")
    await room.call(cmd.ClientAction(conns[0], next_seq(room, "p1"), {"type": "go"}))
    assert conns[0].last("update")["ack"] == 1
    last_logged = max(a.seq for a in store.actions[(room.room_id, 1)])
    writes = store.room_writes
    # then only room changes, two reservations' worth: a connection coming and going
    spare = FakeConn()
    toggles = SEQ_RESERVE
    for _ in range(toggles):
        await room.call(cmd.Connect(spare, tokens[1]))
        await room.call(cmd.Disconnect(spare))
    sent = numbers([*conns, spare])
    assert max(sent) > last_logged + SEQ_RESERVE  # all of them above the log's last number
    # cheap: a row written once per SEQ_RESERVE room changes, not once per change
    assert store.room_writes - writes <= 2 * toggles // SEQ_RESERVE + 1
    await first.close()

    seen = set(sent)
    for _ in range(2):  # restored twice: each time above everything sent before
        manager, again = await restored(store, clock, room.room_id)
        back = [FakeConn(), FakeConn()]
        await again.call(cmd.Connect(back[0], tokens[0]))
        await again.call(cmd.Connect(back[1], tokens[1]))
        turn = current(again)
        go = cmd.ClientAction(back[int(turn[1:]) - 1], next_seq(again, turn), {"type": "go"})
        await again.call(go)
        assert back[0].last("update")["actor"] == turn  # a logged action after the restore
        new = numbers(back)
        assert new and min(new) > max(seen), (sorted(new)[:3], max(seen))
        seen |= new
        await manager.close()


async def test_every_number_a_room_sends_is_logged_or_reserved_before_it_goes_out(
    clock: FakeClock,
) -> None:
    store = MemoryStore()
    manager = RoomManager(store, clock, bot_delay=1.0, games=with_laps)
    room, host, _ = await manager.create("laps", {}, "방장")
    watch = Witness(store, room.room_id)
    spectator, _ = await room.call(cmd.Join("", "spectator"))
    await room.call(cmd.Connect(watch, spectator))
    other, _ = await room.call(cmd.Join("친구", "player"))
    conns = [Witness(store, room.room_id), Witness(store, room.room_id)]
    await room.call(cmd.Connect(conns[0], host))
    await room.call(cmd.Connect(conns[1], other))
    bot = await room.call(cmd.AddBot(host, "random"))
    await room.call(cmd.RemoveBot(host, bot))
    await room.call(cmd.SetOptions(host, {}))
    await room.call(cmd.Start(host))
    await room.call(cmd.Disconnect(conns[1]))  # then timeouts play for p2, and an AFK offer
    await until(manager, clock, lambda: bool(room.absences.offers))
    await room.call(cmd.AfkAnswer(host, "p2", "keep"))
    await room.call(cmd.Connect(conns[1], other))
    await room.call(cmd.Kick(host, "p2"))
    await tick(manager, clock, 600)
    assert room.status == "finished"
    await room.call(cmd.AddBot(host, "random"))  # the kicked seat's place
    await room.call(cmd.Rematch(host))
    await tick(manager, clock, 60)  # the bot plays too
    updates = [m for c in (watch, *conns) for m in c.sent if m["type"] == "update"]
    assert {m["actor"] is None for m in updates} == {True, False}  # room changes and actions
    await manager.close()


async def test_a_room_another_node_took_over_reserves_nothing_and_sends_nothing(
    clock: FakeClock,
) -> None:
    store = MemoryStore()
    manager = RoomManager(store, clock, bot_delay=1.0, games=all_games)
    room, host, _ = await manager.create("race", {}, "방장")
    assert await store.claim_room(room.room_id, 1, "a")
    conn = FakeConn()
    await room.call(cmd.Connect(conn, host))
    reserved = store.rooms[room.room_id].seq_reserved
    room.audience.reserved = room.audience.seq  # the next room change needs a reservation
    assert await MemoryStore(shared=store).claim_room(room.room_id, 2, "b")  # taken over
    with pytest.raises(RoomError) as refused:
        await room.call(cmd.Join("친구", "player"))
    assert refused.value.code == "room_moving"
    assert store.rooms[room.room_id].seq_reserved == reserved and len(room.members.seats) == 1
    assert [m["type"] for m in conn.sent] == ["snapshot"]
    await manager.close()
