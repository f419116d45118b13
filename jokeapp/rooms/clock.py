"""The clocks a room runs on. Injected, so tests run timers without sleeping."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...


# Seconds: a room's timer (a bot's move, a deadline, a grace's end) fires at the end of the
# slot of this length its due time falls in, so the timers of all the rooms due in one slot
# fire in one wake-up of the event loop instead of one each (at a human pace most timers are
# bots' moves: 500 a second at 5,000 rooms). A timer fires at most this much late; none early.
TIMER_SLOT = 0.01


def slot_end(due: float, slot: float = TIMER_SLOT) -> float:
    """The end of the slot ``due`` falls in (``due`` itself when it is one)."""
    return math.ceil(due / slot) * slot


class RealClock:
    """Wall time and the running event loop's timers, in slots of ``TIMER_SLOT``."""

    def now(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        loop = asyncio.get_running_loop()
        if delay <= 0:
            return loop.call_soon(callback)
        return loop.call_at(slot_end(loop.time() + delay), callback)


class _FakeTimer:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that only moves when a test says so; ``advance`` fires the timers due."""

    def __init__(self, start: float = 1_764_547_200.0) -> None:
        self._now = start
        self._order = itertools.count()
        self._timers: list[tuple[float, int, _FakeTimer, Callable[[], None]]] = []

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = _FakeTimer()
        heapq.heappush(
            self._timers, (self._now + max(delay, 0.0), next(self._order), timer, callback)
        )
        return timer

    def advance(self, seconds: float) -> int:
        """Moves time forward, firing every due timer in order; returns how many fired."""
        target = self._now + seconds
        fired = 0
        while self._timers and self._timers[0][0] <= target:
            when, _, timer, callback = heapq.heappop(self._timers)
            self._now = max(self._now, when)
            if not timer.cancelled:
                fired += 1
                callback()
        self._now = target
        return fired

    def next_due(self) -> float | None:
        live = [when for when, _, timer, _ in self._timers if not timer.cancelled]
        return min(live) - self._now if live else None
