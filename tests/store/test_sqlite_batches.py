"""A SQLite file's group commits: on the event loop's thread, except a batch that finds the
database locked by another connection, which the store's thread commits once the lock is free;
the WAL is checkpointed by that thread, never inside a commit."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from jokeapp.store import sqlite_batches
from jokeapp.store.api import ActionRow, MatchRow, RoomRow
from jokeapp.store.sql import SqlStore

ROOM = RoomRow("r1", "ABCDEF", "race", {"turnSeconds": 10}, "lobby", 0, "p1", 1.5)


def _action(step: int) -> ActionRow:
    return ActionRow("r1", 1, step, step, "p1", {"type": "a"}, False)


async def _open(tmp_path: Path) -> tuple[SqlStore, sqlite_batches.SqliteBatches]:
    store = await SqlStore.open(str(tmp_path / "store.sqlite3"))
    assert store._batches is not None
    await store.save_room(ROOM)
    await store.begin_match(MatchRow("r1", 1, 1, ["p1"], {}))
    return store, store._batches


async def test_a_batch_is_committed_without_the_thread(tmp_path: Path) -> None:
    store, batches = await _open(tmp_path)
    try:
        for step in range(1, 6):
            await store.append_action(_action(step))
        assert batches.on_thread == 0 and batches.commits >= 5
        stored = await store.match_log("r1", 1)
        assert stored is not None and [a.step for a in stored[1]] == [1, 2, 3, 4, 5]
    finally:
        await store.close()


async def test_a_batch_that_finds_the_database_locked_waits_on_the_thread(
    tmp_path: Path,
) -> None:
    store, batches = await _open(tmp_path)
    other = sqlite3.connect(tmp_path / "store.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
        write = asyncio.ensure_future(store.append_action(_action(1)))
        while batches.on_thread == 0:  # the loop is free meanwhile: this coroutine runs
            await asyncio.sleep(0)
        assert not write.done()
        other.execute("COMMIT")
        await write
        stored = await store.match_log("r1", 1)
        assert stored is not None and [a.step for a in stored[1]] == [1]
        await store.append_action(_action(2))  # the lock is free: back on the loop
        assert batches.on_thread == 1
    finally:
        other.close()
        await store.close()


async def test_the_wal_is_checkpointed_by_the_thread_every_so_many_commits(
    tmp_path: Path,
) -> None:
    store, batches = await _open(tmp_path)
    checkpoints: list[int] = []
    real = batches._checkpoint

    def counted() -> None:
        checkpoints.append(batches.commits)
        real()

    batches._checkpoint = counted  # type: ignore[method-assign]
    try:
        every = sqlite_batches.CHECKPOINT_EVERY
        start = batches.commits
        for step in range(1, 2 * every + 1):
            await store.append_action(_action(step))
        await batches._run(lambda: None)  # the thread has done what was queued before
        commits = batches.commits - start
        assert commits == 2 * every  # one by one: each its own commit
        assert len(checkpoints) == 2 and all(c % every == 0 for c in checkpoints)
    finally:
        await store.close()
