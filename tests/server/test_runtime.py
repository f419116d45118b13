"""The server applies its collector policy once ready and measures its own pauses (issue 11)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette

from jokeapp.server.app import create_app
from jokeapp.server.collector import GcPolicy
from jokeapp.server.settings import Settings
from jokeapp.telemetry import runtime
from jokeapp.telemetry.metrics import Metrics
from tests.server.harness import samples

HANG_GUARD = 30.0  # seconds; the loop watcher looks every 100 ms


@pytest.fixture(autouse=True)
def _restore_the_collector() -> Iterator[None]:
    saved = gc.get_threshold()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.set_threshold(*saved)


@contextlib.asynccontextmanager
async def _serve(tmp_path: Path, policy: GcPolicy) -> AsyncIterator[Starlette]:
    """The app between its start-up and its shutdown (its lifespan), on this test's loop."""
    app = create_app(Settings(db=str(tmp_path / "joke.sqlite3"), gc=policy))
    async with app.router.lifespan_context(app):
        yield app


async def test_the_policy_s_thresholds_and_freeze_are_applied_once_the_server_is_ready(
    tmp_path: Path,
) -> None:
    assert gc.get_freeze_count() == 0
    async with _serve(tmp_path, GcPolicy(threshold=(12_345, 7, 8), freeze=True)):
        assert gc.get_threshold() == (12_345, 7, 8)
        assert gc.get_freeze_count() > 0


async def test_without_freeze_nothing_is_frozen(tmp_path: Path) -> None:
    async with _serve(tmp_path, GcPolicy(threshold=(2_000, 10, 10), freeze=False)):
        assert gc.get_threshold() == (2_000, 10, 10)
        assert gc.get_freeze_count() == 0


async def test_metrics_show_the_collector_s_passes_and_the_loop_s_lag(tmp_path: Path) -> None:
    async with _serve(tmp_path, GcPolicy()) as app:
        a: list[object] = []
        a.append(a)  # a cycle: only the collector frees it
        del a
        gc.collect()  # one full pass while the server watches
        deadline = time.monotonic() + HANG_GUARD
        while True:
            found = samples(app.state.metrics.render().decode())
            passes = found.get(("joke_gc_pause_seconds_count", (("generation", "2"),)), 0)
            wakeups = found.get(("joke_event_loop_lag_seconds_count", ()), 0)
            if passes >= 1 and wakeups >= 1:
                break
            assert time.monotonic() < deadline, (passes, wakeups)
            await asyncio.sleep(0.05)  # the server's loop watcher runs on this loop
        assert found[("joke_gc_pause_seconds_sum", (("generation", "2"),))] > 0
        assert found[("joke_gc_cpu_seconds_count", ())] >= 1
        assert found[("joke_gc_collected_total", ())] >= 1
    # the server stopped: its watcher is gone from the interpreter's callbacks
    assert not [cb for cb in gc.callbacks if type(cb).__name__ == "GcWatch"]


async def test_the_collector_ticks_on_the_loop_watcher_s_own_wake_ups() -> None:
    metrics = Metrics()
    ticks: list[float] = []  # the looks observed when each tick ran

    def tick() -> None:
        count = metrics.registry.get_sample_value("joke_event_loop_lag_seconds_count")
        assert count is not None
        ticks.append(count)

    watcher = asyncio.ensure_future(runtime.watch_loop_lag(metrics, 0.01, tick, 2))
    deadline = time.monotonic() + HANG_GUARD
    try:
        while len(ticks) < 3:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)
    finally:
        watcher.cancel()
    assert ticks[:3] == [2.0, 4.0, 6.0]  # every second look, right after it: no wake-up of its own


async def test_the_server_runs_no_collector_task_of_its_own(tmp_path: Path) -> None:
    async with _serve(tmp_path, GcPolicy()):
        running = [getattr(t.get_coro(), "__qualname__", "") for t in asyncio.all_tasks()]
        assert "watch_loop_lag" in running
        assert "Collector.run" not in running  # its ticks ride on the watcher's wake-ups
