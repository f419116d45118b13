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

So, every ``young_every`` seconds (a tick) the server runs one young pass (it walks only what was made
since the previous one and survived) and freezes its survivors (``gc.freeze``: out of every
later pass's reach; they are still freed by reference counting when they die). A full pass
(unfreeze, collect, freeze again) runs only when the heap (the interpreter's allocated memory
blocks, ``sys.getallocatedblocks``) grew by ``full_growth`` since the last one: cycles that
became garbage after being frozen wait for it, bounded by that share of the heap. Reading the
heap is not cheap: ``sys.getallocatedblocks`` walks every memory pool (about 1.5 ms of CPU at
a few hundred MiB, more than the young pass itself), so the heap is read only every
``heap_every`` seconds (counted in ticks), not every tick; a full pass is then at most that
much late, while the heap grows by a share, not by a tick's worth.

At a human pace those young passes find nothing (the server breaks its cycles where it makes
them), so one that found nothing doubles the ticks to the next, up to ``young_skip_max``; the
ticks between only freeze, and a pass that finds garbage brings a pass at every tick back.

A full pass walks every tracked object: about 490 per playing room of four seats (three
WebSockets; measured with ``joke_gc_tracked_objects``, 100 rooms), so at 5,000 rooms about
2.6 M, and 2.6 M small objects took 0.6–0.8 s of CPU to walk on the 2-core VM: a stall of
every room (measured 2026-12-08 at 5,000 rooms: 2.85 M objects walked, 0 freed, 3.0 s). So a
full pass that found almost nothing (under ``FOUND_LITTLE`` of what it walked: this server
makes few cycles that outlive a young pass) makes the next one wait for ``full_growth_max``
at once; one that found more sets it back to ``full_growth``. Doubling instead (0.5, 1, 2)
was not enough: a node whose first full pass measured its rooms at 500 (in the capacity
run of 2026-12-08) held twice as many blocks per open room at 5,000, where a pass costs most,
and crossed the line there.

Nor is a heap that grew because more rooms are open a reason for one: their objects are alive,
and a node filling up to thousands of rooms would stop once or twice on the way at the size
where a pass costs most. So the collector is told how many rooms are open (``rooms``): once a
full pass has measured what the rooms opened since start-up hold on average (at least
``MIN_ROOMS`` of them), the heap a pass waits for is the last pass's heap, plus that much per
room opened since, plus the growth share. What reaches the line then is what the rooms do not
explain: garbage among frozen objects (which the server should not make: cycles are broken
where they are made, so reference counting frees what dies), or rooms that hold more as they
play; a node with fewer rooms keeps its line, so a burst of rooms that ended frees its memory
by reference counting and never calls for a pass.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

# a full pass that found less than this share of the objects it walked found "almost nothing"
FOUND_LITTLE = 0.01
# a full pass measures the heap per room from at least this many rooms opened since start-up
MIN_ROOMS = 50


def _no_rooms() -> int:
    return 0


@dataclass(frozen=True)
class FullPass:
    """What one full pass did and why it ran, for the server's log (it stops every room)."""

    walked: int  # the objects it walked (frozen ones included)
    found: int  # what it freed
    seconds: float  # its wall time
    rooms: int  # the rooms open
    heap_before: int  # the heap (allocated blocks) that crossed the line
    line: float  # the line it crossed
    heap_after: int
    next_line: float  # the line the next full pass waits for

    @property
    def tracked(self) -> int:
        """The objects it left tracked: what it walked and did not free."""
        return max(0, self.walked - self.found)


def _unreported(done: FullPass) -> None:
    pass


@dataclass(frozen=True)
class GcPolicy:
    """``joke serve --gc-threshold``, ``--gc-young-every``, ``--gc-heap-every``,
    ``--gc-full-growth``, ``--gc-full-growth-max``, ``--no-gc-freeze``.

    ``freeze`` False keeps CPython's own scheduling (with ``threshold``), nothing frozen.
    """

    threshold: tuple[int, int, int] = (700, 10, 10)  # CPython's defaults
    freeze: bool = True
    young_every: float = 0.1  # seconds between two ticks (each freezes what is alive)
    # the most ticks between two young passes: one that found nothing doubles the ticks to the
    # next, up to this; one that found garbage makes every tick collect again (1: always)
    young_skip_max: int = 16
    heap_every: float = 1.0  # seconds between two reads of the heap's size (at least a tick)
    full_growth: float = 0.5  # a full pass once the heap grew by this share
    full_growth_max: float = 3.0  # what it grows to after a full pass that found little

    @property
    def heap_ticks(self) -> int:
        """The heap is read every this many ticks (``heap_every`` in ``young_every``s)."""
        return max(1, round(self.heap_every / self.young_every))

    def apply(self) -> None:
        """At start-up: the thresholds; then everything alive now (modules, the games'
        tables, restored rooms) is frozen, once start-up's own garbage (the command line's
        parser, imports' leftovers) is collected: frozen, it would wait for a full pass."""
        gc.set_threshold(*self.threshold)
        if self.freeze:
            gc.collect()
            gc.freeze()


class Collector:
    """Runs a policy's young passes and, when the heap grew more than the rooms opened since
    the last full pass explain, a full one. ``rooms``: how many rooms are open now;
    ``reported``: told what each full pass did (the server logs it and takes its ``tracked``
    for ``joke_gc_tracked_objects``, which the pass counts anyway)."""

    def __init__(
        self,
        policy: GcPolicy,
        rooms: Callable[[], int] = _no_rooms,
        reported: Callable[[FullPass], None] = _unreported,
    ) -> None:
        self.policy = policy
        self.rooms = rooms
        self.reported = reported
        self.start = (sys.getallocatedblocks(), rooms())  # the heap and the rooms at start-up
        self.baseline = self.start[0]  # the heap after the last full pass
        self.baseline_rooms = self.start[1]  # the rooms open then
        self.per_room = 0.0  # the heap a room holds, as the last full pass measured it
        self.growth = policy.full_growth  # what the next full pass waits for
        self.full_passes = 0
        self.heap_reads = 0
        self.ticks_to_read = policy.heap_ticks  # ticks left until the heap is read again
        self.young_passes = 0
        self.collect_every = 1  # ticks between two young passes now
        self.ticks_to_collect = 1  # ticks left until the next young pass

    def tick(self) -> None:
        """What is alive frozen, after a young pass when one is due; a full pass instead if
        the heap (read every ``heap_ticks`` ticks) grew enough.

        A young pass that found nothing (at a human pace every one of them: 127 passes in
        10 s at 1,500 rooms, 0 objects found, 6 % of the server's CPU) doubles the ticks to
        the next, up to ``young_skip_max``; the ticks between only freeze. A cycle dropped
        then waits, frozen, for a full pass, as one dropped after its objects' first tick
        always did; a young pass that finds one makes every tick collect again."""
        self.ticks_to_read -= 1
        if self.ticks_to_read <= 0:
            self.ticks_to_read = self.policy.heap_ticks
            self.heap_reads += 1
            heap, line = sys.getallocatedblocks(), self.line()
            if heap > line:
                self.full_pass(heap, line)
                return
        self.ticks_to_collect -= 1
        if self.ticks_to_collect <= 0:
            found = gc.collect(0)
            self.young_passes += 1
            most = max(1, self.policy.young_skip_max)
            self.collect_every = 1 if found else min(self.collect_every * 2, most)
            self.ticks_to_collect = self.collect_every
        gc.freeze()

    def line(self) -> float:
        """The heap (in blocks) past which the next full pass runs."""
        opened = max(0, self.rooms() - self.baseline_rooms)
        return (self.baseline + self.per_room * opened) * (1 + self.growth)

    def full_pass(self, heap: int = 0, line: float = 0.0) -> None:
        began = time.perf_counter()
        walked = gc.get_freeze_count() + len(gc.get_objects())
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        took = time.perf_counter() - began
        self.baseline = sys.getallocatedblocks()
        self.baseline_rooms = self.rooms()
        opened = self.baseline_rooms - self.start[1]
        if opened >= MIN_ROOMS:
            self.per_room = max(0.0, (self.baseline - self.start[0]) / opened)
        self.full_passes += 1
        if found:
            self.collect_every = self.ticks_to_collect = 1  # cycles are being made: look often
        if found < FOUND_LITTLE * walked:
            self.growth = max(self.policy.full_growth_max, self.policy.full_growth)
        else:
            self.growth = self.policy.full_growth
        done = FullPass(
            walked, found, took, self.baseline_rooms, heap, line, self.baseline, self.line()
        )
        self.reported(done)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.policy.young_every)
            self.tick()
