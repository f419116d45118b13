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

LAG_INTERVAL = 0.05  # seconds between two looks at the loop: ~20 cheap wake-ups a second


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


async def watch_loop_lag(metrics: Metrics, interval: float = LAG_INTERVAL) -> None:
    """Observes into ``joke_event_loop_lag_seconds`` how late each of its own wake-ups comes:
    the time the loop was busy with something else (or the process had no core)."""
    lag = metrics.loop_lag_seconds
    while True:
        due = time.perf_counter() + interval
        await asyncio.sleep(interval)
        lag.observe(max(0.0, time.perf_counter() - due))
