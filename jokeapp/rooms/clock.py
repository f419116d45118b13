"""The clocks a room runs on. Injected, so tests run timers without sleeping."""

from __future__ import annotations

import asyncio
import heapq
import itertools
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


class RealClock:
    """Wall time and the running event loop's timers."""

    def now(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        loop = asyncio.get_running_loop()
        if delay <= 0:
            return loop.call_soon(callback)
        return loop.call_later(delay, callback)


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
