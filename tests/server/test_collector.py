"""The server's collector policy: short passes whose survivors are frozen, a full pass only
when the heap grew (issue 11: the latency tail at a human pace was the collector)."""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from jokeapp.server.collector import MIN_ROOMS, Collector, FullPass, GcPolicy


class Node:
    """A cycle's link: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.other: Node | None = None


def _dropped_cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture(autouse=True)
def _restore_the_collector() -> Iterator[None]:
    saved = gc.get_threshold()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.set_threshold(*saved)


def _tracked(obj: object) -> bool:
    """In one of the collector's generations (a frozen object is in none)."""
    return any(o is obj for o in gc.get_objects())


def test_apply_sets_the_thresholds_and_freezes_what_is_alive() -> None:
    kept = [[1]]
    GcPolicy(threshold=(1234, 5, 6)).apply()
    assert gc.get_threshold() == (1234, 5, 6)
    assert not _tracked(kept)
    gc.unfreeze()
    GcPolicy(threshold=(700, 10, 10), freeze=False).apply()
    assert _tracked(kept)


def test_a_young_pass_frees_young_cycles_and_freezes_its_survivors() -> None:
    collector = Collector(GcPolicy(full_growth=1000.0))  # no full pass in this test
    garbage = _dropped_cycle()
    survivor = [[2]]
    assert _tracked(survivor)
    collector.tick()
    assert garbage() is None  # a cycle made and dropped since the last pass
    assert not _tracked(survivor)  # no later pass walks it again
    assert collector.full_passes == 0


def test_young_passes_that_find_nothing_come_less_often_until_one_finds_a_cycle() -> None:
    collector = Collector(GcPolicy(full_growth=1000.0, young_skip_max=4))  # no full pass
    gc.collect()  # nothing left for the first pass to find
    passed = []
    for _ in range(11):
        before = collector.young_passes
        collector.tick()
        passed.append(collector.young_passes > before)
    # after each empty pass the next waits twice as many ticks, at most 4
    assert passed == [True, False, True, False, False, False, True, False, False, False, True]
    survivor = [[3]]
    collector.tick()  # a tick without a pass still freezes what is alive
    assert not _tracked(survivor) and collector.young_passes == 4
    unseen = _dropped_cycle()  # dropped, then frozen by a tick without a pass
    collector.tick()
    collector.tick()
    assert collector.young_passes == 4 and unseen() is not None  # waits for a full pass
    found = _dropped_cycle()
    collector.tick()  # the fourth since the last pass: a pass, and it finds this cycle
    assert collector.young_passes == 5 and found() is None
    again = _dropped_cycle()
    collector.tick()  # garbage was found: every tick collects again
    assert collector.young_passes == 6 and again() is None
    collector.full_pass()
    assert unseen() is None
    assert (
        GcPolicy().young_skip_max > 1 and Collector(GcPolicy(young_skip_max=1)).collect_every == 1
    )


def test_a_policy_of_one_tick_between_passes_collects_at_every_tick() -> None:
    collector = Collector(GcPolicy(full_growth=1000.0, young_skip_max=1))
    gc.collect()
    for _ in range(5):
        collector.tick()
    assert collector.young_passes == 5


def test_the_full_pass_runs_once_the_heap_grew_and_frees_frozen_cycles() -> None:
    collector = Collector(GcPolicy(full_growth=0.5, heap_every=0.1))  # the heap read every tick
    held: list[Node] = []
    a, b = Node(), Node()
    a.other, b.other = b, a
    held.append(a)
    dropped = weakref.ref(a)
    collector.tick()  # alive: frozen
    del a, b
    held.clear()  # now garbage, but frozen: a young pass does not see it
    collector.tick()
    assert dropped() is not None and collector.full_passes == 0
    collector.baseline = 1  # as if the heap had grown past half again since the last full pass
    collector.tick()
    assert collector.full_passes == 1
    assert dropped() is None
    assert collector.baseline > 1  # measured again after the full pass


def test_a_full_pass_that_found_little_makes_the_next_wait_for_more_growth() -> None:
    collector = Collector(GcPolicy(full_growth=0.5, full_growth_max=3.0))
    gc.collect()  # nothing left to find
    collector.full_pass()
    assert collector.growth == 3.0  # at once: rooms that hold more as they play are no reason
    collector.full_pass()
    collector.full_pass()
    assert collector.growth == 3.0  # no more than the policy's most
    walked = gc.get_freeze_count() + len(gc.get_objects())
    gc.disable()  # none of them freed before the full pass
    try:
        garbage = [_dropped_cycle() for _ in range(walked // 50)]  # 2 objects each: ~4 %
        collector.full_pass()
    finally:
        gc.enable()
    assert all(ref() is None for ref in garbage)
    assert collector.growth == 0.5  # it found garbage: back to the policy's growth
    assert collector.full_passes == 4


def test_the_heap_is_read_only_every_heap_every_seconds_of_ticks() -> None:
    policy = GcPolicy(young_every=0.1, heap_every=1.0, full_growth=0.5)
    assert policy.heap_ticks == 10
    assert GcPolicy(young_every=0.5, heap_every=0.1).heap_ticks == 1  # at least every tick
    collector = Collector(policy)
    collector.baseline = 1  # the heap has grown: a full pass is due at the next read
    for _ in range(9):
        collector.tick()
    assert collector.heap_reads == 0 and collector.full_passes == 0  # young passes only
    collector.tick()  # the tenth tick reads the heap
    assert collector.heap_reads == 1 and collector.full_passes == 1
    for _ in range(10):
        collector.tick()  # read again on the twentieth: no growth since the full pass
    assert collector.heap_reads == 2 and collector.full_passes == 1
    collector.baseline = 1
    for _ in range(9):
        collector.tick()
    assert collector.full_passes == 1
    collector.tick()
    assert collector.heap_reads == 3 and collector.full_passes == 2


def test_a_heap_the_rooms_opened_since_explain_calls_for_no_full_pass() -> None:
    open_rooms = [0]
    collector = Collector(GcPolicy(full_growth=0.5, heap_every=0.1), rooms=lambda: open_rooms[0])
    collector.start = (1000, 0)  # as if start-up's heap had been 1,000 blocks
    open_rooms[0] = 100
    gc.collect()
    collector.full_pass()  # measures what the 100 rooms opened since start-up hold each
    assert collector.baseline_rooms == 100
    assert collector.per_room == (collector.baseline - 1000) / 100
    line = collector.line()
    open_rooms[0] = 300
    assert collector.line() == pytest.approx(
        line + 200 * collector.per_room * (1 + collector.growth)
    )
    open_rooms[0] = 50  # fewer rooms than then: the line stays
    assert collector.line() == line
    # the heap grew past the last pass's by far, and the rooms opened since explain it
    collector.baseline, collector.per_room = 1, float(sys.getallocatedblocks())
    open_rooms[0] = 101
    collector.tick()
    assert collector.full_passes == 1
    open_rooms[0] = 100  # as many rooms as at the last pass: the same heap is garbage's
    collector.tick()
    assert collector.full_passes == 2


def test_the_heap_per_room_is_measured_from_enough_rooms_only() -> None:
    open_rooms = [0]
    collector = Collector(GcPolicy(), rooms=lambda: open_rooms[0])
    collector.start = (1000, 0)  # as if start-up's heap had been 1,000 blocks
    open_rooms[0] = MIN_ROOMS - 1
    collector.full_pass()
    assert collector.per_room == 0.0  # too few to tell the rooms' heap from start-up's
    assert collector.line() == collector.baseline * (1 + collector.growth)
    open_rooms[0] = MIN_ROOMS
    collector.full_pass()
    assert collector.per_room > 0.0


def test_start_up_garbage_is_collected_before_it_is_frozen() -> None:
    garbage = _dropped_cycle()
    gc.disable()
    try:
        GcPolicy().apply()
        assert garbage() is None
    finally:
        gc.enable()


def test_every_full_pass_is_reported_with_why_it_ran_and_what_it_did() -> None:
    reports: list[FullPass] = []
    open_rooms = [7]
    collector = Collector(GcPolicy(), rooms=lambda: open_rooms[0], reported=reports.append)
    collector.baseline = 1  # the heap has grown past half again since the last full pass
    for _ in range(collector.policy.heap_ticks):
        collector.tick()
    assert collector.full_passes == 1 and len(reports) == 1
    done = reports[0]
    assert done.heap_before > done.line == pytest.approx(1.5)  # the line it crossed
    assert done.rooms == 7 and done.walked > 0 and done.seconds > 0
    assert done.heap_after == collector.baseline and done.next_line == collector.line()
    for _ in range(collector.policy.heap_ticks):
        collector.tick()  # no growth since: no pass, no report
    assert len(reports) == 1
