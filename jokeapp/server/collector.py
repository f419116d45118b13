"""The cyclic garbage collector's policy in a server: short passes only, a full one only when
the heap has really grown.

CPython (3.11) collects a generation when its count passes a threshold, but the count is
allocations *minus deallocations*. A server replaces its objects all the time (every action
makes new views, events and frames and frees the previous ones by reference counting), so the
count barely moves while the young generation fills with every object that outlived its
predecessor: when a pass finally runs it walks most of the heap (measured 2026-12-01 at 500
rooms with the young threshold at 50,000: 41 ms of CPU, up to 250 ms of wall time on a loaded
machine, and 0.1–1 s while rooms were being opened). Full passes are worse: their trigger counts objects
*promoted* to the old generation, not the ones still alive, so churn alone sets them off, and
each one walks every live object (hundreds of ms at a few thousand rooms). Each pause stops
every room at once: that was the latency tail at a human pace.

So, every ``young_every`` seconds the server runs one young pass (it walks only what was made
since the previous one and survived) and freezes its survivors (``gc.freeze``: out of every
later pass's reach; they are still freed by reference counting when they die). A full pass
(unfreeze, collect, freeze again) runs only when the heap (the interpreter's allocated memory
blocks, ``sys.getallocatedblocks``: cheap to read, unlike the frozen objects' count) grew by
``full_growth`` since the last one: cycles that became garbage after being frozen wait for it,
bounded by that share of the heap.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class GcPolicy:
    """``joke serve --gc-threshold``, ``--gc-young-every``, ``--gc-full-growth``, ``--no-gc-freeze``.

    ``freeze`` False keeps CPython's own scheduling (with ``threshold``), nothing frozen.
    """

    threshold: tuple[int, int, int] = (700, 10, 10)  # CPython's defaults
    freeze: bool = True
    young_every: float = 0.1  # seconds between two young passes (each freezes its survivors)
    full_growth: float = 0.5  # a full pass once the frozen objects grew by this share

    def apply(self) -> None:
        """At start-up: the thresholds; then everything alive now (modules, the games'
        tables, restored rooms) is frozen."""
        gc.set_threshold(*self.threshold)
        if self.freeze:
            gc.freeze()


class Collector:
    """Runs a policy's young passes and, when the heap grew enough, a full one."""

    def __init__(self, policy: GcPolicy) -> None:
        self.policy = policy
        self.baseline = sys.getallocatedblocks()  # the heap after the last full pass
        self.full_passes = 0

    def tick(self) -> None:
        """One young pass, its survivors frozen; a full pass instead if the heap grew enough."""
        if sys.getallocatedblocks() > self.baseline * (1 + self.policy.full_growth):
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.baseline = sys.getallocatedblocks()
            self.full_passes += 1
            return
        gc.collect(0)
        gc.freeze()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.policy.young_every)
            self.tick()
