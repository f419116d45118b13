"""The room's command queue: one task, in order, nothing lost (rooms/queue.py, Room._run)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.queue import CommandQueue
from jokeapp.rooms.room import Room
from jokeapp.store.memory import MemoryStore
from tests.rooms.fakegame import GAME as RACE


def _room() -> Room:
    return Room(
        room_id="r1", code="ABCD", game=RACE, options={}, store=MemoryStore(), clock=FakeClock()
    )


class _Recorder:
    """A handler that notes each command, one at a time, and may block on a gate."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.inside = 0
        self.most_inside = 0
        self.gate: asyncio.Event | None = None

    async def __call__(self, room: Room, command: cmd.Command) -> Any:
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        try:
            assert isinstance(command, cmd.BotMove)
            if self.gate is not None:
                await self.gate.wait()
            await asyncio.sleep(0)  # a handler that awaits: the next one must still wait
            self.seen.append(command.player_id)
            if command.player_id == "boom":
                raise RoomError("not_host")
            return command.player_id.upper()
        finally:
            self.inside -= 1


async def test_commands_are_handled_one_at_a_time_in_order() -> None:
    room, handler = _room(), _Recorder()
    room.start_task(handler)
    futures = [room.submit(cmd.BotMove(f"p{i}")) for i in range(50)]
    for i in range(50, 100):
        room.post(cmd.BotMove(f"p{i}"))  # nobody waits for these
    assert [await f for f in futures] == [f"P{i}" for i in range(50)]
    await room.settle()
    assert handler.seen == [f"p{i}" for i in range(100)]
    assert handler.most_inside == 1
    await room.stop()


async def test_a_command_queued_while_the_task_sleeps_wakes_it() -> None:
    room, handler = _room(), _Recorder()
    room.start_task(handler)
    for round_ in range(3):
        await asyncio.sleep(0.01)  # the task now sleeps on an empty queue
        assert await room.call(cmd.BotMove(f"w{round_}")) == f"W{round_}"
    assert handler.seen == ["w0", "w1", "w2"]
    await room.stop()


async def test_a_failing_command_does_not_stop_the_next() -> None:
    room, handler = _room(), _Recorder()
    room.start_task(handler)
    failing, after = room.submit(cmd.BotMove("boom")), room.submit(cmd.BotMove("ok"))
    with pytest.raises(RoomError):
        await failing
    assert await after == "OK"
    await room.stop()


async def test_settle_waits_for_the_command_being_handled() -> None:
    room, handler = _room(), _Recorder()
    handler.gate = asyncio.Event()
    room.start_task(handler)
    room.post(cmd.BotMove("a"))
    room.post(cmd.BotMove("b"))
    settled = asyncio.ensure_future(room.settle())
    await asyncio.sleep(0.01)
    assert not settled.done()
    handler.gate.set()
    await settled
    assert handler.seen == ["a", "b"]
    await room.stop()


async def test_held_room_takes_no_next_command_and_stop_answers_the_queued() -> None:
    room, handler = _room(), _Recorder()
    handler.gate = asyncio.Event()
    room.start_task(handler)
    first = room.submit(cmd.BotMove("first"))
    await asyncio.sleep(0.01)  # being handled, at the gate
    second = room.submit(cmd.BotMove("second"))
    held = asyncio.ensure_future(room.hold())
    await asyncio.sleep(0.01)
    assert not held.done()  # hold waits for the command being handled
    handler.gate.set()
    await held
    assert await first == "FIRST"
    third = room.submit(cmd.BotMove("third"))  # queued while held
    await asyncio.sleep(0.01)
    assert handler.seen == ["first"]
    await room.stop()
    for future in (second, third):
        with pytest.raises(RoomError) as refused:
            await future
        assert refused.value.code == "room_moving"


async def test_a_room_held_while_its_queue_is_empty_takes_nothing_after() -> None:
    room, handler = _room(), _Recorder()
    room.start_task(handler)
    await asyncio.sleep(0.01)  # the task sleeps on the empty queue
    await room.hold()
    late = room.submit(cmd.BotMove("late"))
    await asyncio.sleep(0.01)
    assert handler.seen == []
    await room.stop()
    with pytest.raises(RoomError):
        await late


async def test_command_queue_alone() -> None:
    queue: CommandQueue[int] = CommandQueue()
    waiting = asyncio.ensure_future(queue.wait())
    await asyncio.sleep(0)
    assert not waiting.done()
    queue.put(1)
    queue.put(2)
    await waiting
    assert list(queue.items) == [1, 2] and len(queue) == 2
    joined = asyncio.ensure_future(queue.join())
    queue.items.popleft()
    queue.done()
    await asyncio.sleep(0)
    assert not joined.done()  # one is still queued
    queue.items.popleft()
    queue.done()
    await joined
    await queue.join()  # nothing unfinished: at once
