"""Bot games played by several processes, handed back in game order.

`joke simulate --workers N` plays its seeds in N processes. Every game depends only on its
seed; each worker plays a batch of consecutive seeds, encodes their records and adds them to
statistics of its own, and the batches come back in seed order. The records are therefore
byte for byte those of one process, and the statistics, being sums, merge to the same
figures; only the time taken changes.

Only lines of text and small statistics objects travel between processes: sending the
played games themselves (records of many small dicts) cost the parent more to unpickle than
playing them, so two workers were slower than one.

Workers are forked, so the function that plays one game (a closure over the game, options
and bots) reaches them without being pickled. Where fork is not available the games are
played in this process.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from jokeapp.sim.play import PlayedGame

PlayOne = Callable[[int], PlayedGame]
Encode = Callable[[dict[str, Any]], str]


@dataclass(slots=True)
class Batch:
    """Consecutive games: their records as lines (when logged), actions and statistics."""

    games: int
    steps: int
    lines: list[str]
    stats: Any
    cut_off: int = 0  # games stopped at the step cap (no result)


@dataclass(frozen=True, slots=True)
class _Job:
    play_one: PlayOne
    new_stats: Callable[[], Any]
    encode: Encode | None


_job: _Job | None = None  # set in each worker by _init, before any game is played


def default_workers() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _play_batch(job: _Job, seeds: Sequence[int]) -> Batch:
    batch = Batch(0, 0, [], job.new_stats())
    for seed in seeds:
        played = job.play_one(seed)
        batch.games += 1
        batch.steps += played.steps
        batch.cut_off += played.cut_off
        batch.stats.add(played.record, played.state)
        if job.encode:
            batch.lines.append(job.encode(played.record))
    return batch


def _init(job: _Job) -> None:
    global _job
    _job = job


def _in_worker(seeds: Sequence[int]) -> Batch:
    assert _job is not None, "worker not initialised"
    return _play_batch(_job, seeds)


def play_batches(
    play_one: PlayOne,
    seeds: Sequence[int],
    workers: int,
    *,
    new_stats: Callable[[], Any],
    encode: Encode | None,
) -> Iterator[Batch]:
    """Plays ``play_one(seed)`` for every seed; yields batches in the order of ``seeds``.

    With one worker every game is its own batch, played in this process.
    """
    job = _Job(play_one, new_stats, encode)
    workers = max(1, min(workers, len(seeds)))
    if workers == 1 or "fork" not in mp.get_all_start_methods():
        for seed in seeds:
            yield _play_batch(job, [seed])
        return
    # Batches of a few games keep the transfer overhead low while ordered results still arrive
    # steadily (the progress bar moves) and the last batches do not leave a core idle.
    size = max(1, min(16, len(seeds) // (workers * 8)))
    batches = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    pool: Any = mp.get_context("fork").Pool(workers, initializer=_init, initargs=(job,))
    try:
        yield from pool.imap(_in_worker, batches)
    finally:
        pool.terminate()
        pool.join()
