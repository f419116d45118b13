"""The process's own pauses, which delay every room at once: the collector's passes and how
late the event loop runs what is due.

At a human pace a server is mostly idle, so its latency tail is not queueing: it is the moments
the whole loop stops (a full collection walking every live object, a long callback). These two
histograms (``/metrics``) tell those apart from a room's own work (``joke_action_update_seconds``)
and from the network or the client.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from typing import Any

from jokeapp.telemetry.metrics import Metrics

# Seconds between two looks at the loop: 10 wake-ups a second, on which the server's
# collector ticks too (server/app.py). Each wake-up of an idle loop costs about 0.1 ms of CPU
# on this 2-core VM, what it runs included or not: the watcher's 20 a second at 50 ms and
# the collector's own 10 were 3–4 ms of CPU a second of a server with no room at all.
LAG_INTERVAL = 0.1


class GcWatch:
    """Times every collection into ``joke_gc_pause_seconds{generation}`` and its CPU time into
    ``joke_gc_cpu_seconds``, and counts what it freed into ``joke_gc_collected_total`` (a
    ``gc.callbacks`` entry: called by the interpreter at each pass's start and stop)."""

    def __init__(self, metrics: Metrics) -> None:
        self.pauses = [metrics.gc_pause_seconds.labels(str(g)) for g in range(3)]
        self.cpu = metrics.gc_cpu_seconds
        self.collected = metrics.gc_collected
        self._began = self._began_cpu = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
        else:
            self.pauses[info["generation"]].observe(time.perf_counter() - self._began)
            self.cpu.observe(time.thread_time() - self._began_cpu)
            self.collected.inc(info["collected"])

    def install(self) -> Callable[[], None]:
        """Starts timing; returns what stops it."""
        gc.callbacks.append(self)
        return lambda: gc.callbacks.remove(self)


async def watch_loop_lag(
    metrics: Metrics,
    interval: float = LAG_INTERVAL,
    tick: Callable[[], None] | None = None,
    tick_every: int = 1,
) -> None:
    """Observes into ``joke_event_loop_lag_seconds`` how late each of its own wake-ups comes:
    the time the loop was busy with something else (or the process had no core). ``tick``
    (the collector's) runs after every ``tick_every``-th look, on the same wake-up."""
    lag = metrics.loop_lag_seconds
    looks = 0
    while True:
        due = time.perf_counter() + interval
        await asyncio.sleep(interval)
        lag.observe(max(0.0, time.perf_counter() - due))
        if tick is not None:
            looks += 1
            if looks >= tick_every:
                looks = 0
                tick()
