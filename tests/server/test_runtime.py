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
from tests.server.harness import samples

HANG_GUARD = 30.0  # seconds; the loop watcher looks every 50 ms


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
