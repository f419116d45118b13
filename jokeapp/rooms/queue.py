"""A room's queue of commands: a deque and one wake-up for the room's task.

One task per room takes the commands in order (``Room._run``); a put appends and, only when
the task sleeps on an empty queue, wakes it. ``asyncio.Queue`` does the same with a getter
list, a finished event cleared and set per command and a coroutine per ``get``: the room's task
has one consumer and only ``Room.settle`` joins, so it needs none of them (docs/server.md, "One
task per room"). The queue holds no reference to its room: the timers post to it directly.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class CommandQueue(Generic[T]):
    __slots__ = ("items", "_waiter", "_unfinished", "_joiners")

    def __init__(self) -> None:
        self.items: deque[T] = deque()  # the task pops from it directly while it is not empty
        self._waiter: asyncio.Future[None] | None = None  # the task sleeping on an empty queue
        self._unfinished = 0  # put and not yet done (queued or being handled)
        self._joiners: list[asyncio.Future[None]] = []

    def put(self, item: T) -> None:
        self.items.append(item)
        self._unfinished += 1
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self) -> None:
        """Until something is queued (at once if something is)."""
        while not self.items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:  # cancelled while it slept
                    self._waiter = None

    def done(self) -> None:
        """One taken item is handled (``asyncio.Queue.task_done``)."""
        self._unfinished -= 1
        if self._unfinished == 0 and self._joiners:
            joiners, self._joiners = self._joiners, []
            for joiner in joiners:
                if not joiner.done():
                    joiner.set_result(None)

    async def join(self) -> None:
        """Until every item put so far is handled."""
        if self._unfinished:
            joiner = asyncio.get_running_loop().create_future()
            self._joiners.append(joiner)
            await joiner

    def __len__(self) -> int:
        return len(self.items)
