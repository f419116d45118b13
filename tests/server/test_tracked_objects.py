"""``joke_gc_tracked_objects`` (jokeapp/telemetry/metrics.py): counting walks every tracked
object, so only the first scrape counts; after it, each full pass of the collector, which
counts them anyway, hands in what it left."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from jokeapp.server.app import _full_pass_reporter
from jokeapp.server.collector import Collector, GcPolicy
from jokeapp.telemetry.metrics import Metrics


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _restore_the_collector() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def tracked(metrics: Metrics) -> float:
    value = metrics.registry.get_sample_value("joke_gc_tracked_objects")
    assert value is not None
    return value


def test_only_the_first_scrape_counts_the_tracked_objects() -> None:
    metrics = Metrics()
    clock = metrics.tracked.clock = FakeClock()
    first = tracked(metrics)
    assert first >= len(gc.get_objects())  # counted at the first scrape
    kept = [[i] for i in range(20_000)]  # 20,000 more tracked objects
    clock.now += 3600
    assert tracked(metrics) == first  # an hour later the count stands: nothing walked
    del kept


def test_a_full_pass_hands_in_the_objects_it_left() -> None:
    metrics = Metrics()
    clock = metrics.tracked.clock = FakeClock()
    tracked(metrics)
    collector = Collector(GcPolicy(), reported=_full_pass_reporter(metrics))  # the server's
    kept = [[i] for i in range(20_000)]
    collector.full_pass()
    assert tracked(metrics) == metrics.tracked.count  # no scrape counted since
    assert metrics.tracked.count >= len(kept)
    assert metrics.tracked.at == clock.now
    del kept
