"""A SQLite file's group commits: on the event loop's thread, except a batch that finds the
database locked by another connection, which the store's thread commits once the lock is free;
the WAL is checkpointed by that thread, never inside a commit."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from pathlib import Path

import pytest

from jokeapp.rooms import manager as manager_module
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager
from jokeapp.store import sqlite_batches
from jokeapp.store.api import ActionRow, MatchRow, RoomRow
from jokeapp.store.sql import SqlStore
from tests.rooms.fakegame import GAME as RACE

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


async def test_a_room_code_is_looked_up_without_a_pooled_connection(tmp_path: Path) -> None:
    """Every new room asks whether its code is taken. Through the engine each one waited for
    one of the pool's connections (5 + 10 overflow, 30 s): hundreds of rooms opened at once on
    a busy server waited past that and were answered 500. Here every pooled connection is
    held by someone else, and the lookup still answers (on the loop's thread)."""
    store, _ = await _open(tmp_path)
    pool = store.engine.pool
    held = []
    try:
        while pool.checkedout() < pool.size() + pool._max_overflow:  # type: ignore[attr-defined]
            held.append(await store.engine.connect())
        lookups = [asyncio.ensure_future(store.code_taken(c)) for c in ("ABCDEF", "ZZZZZZ")]
        for _ in range(100):  # answered without waiting for a connection to come back
            if all(lookup.done() for lookup in lookups):
                break
            await asyncio.sleep(0)
        assert [lookup.result() for lookup in lookups] == [True, False]
    finally:
        for conn in held:
            await conn.close()
        await store.close()


async def test_rooms_opened_at_once_never_draw_the_same_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rooms created at the same moment, whose random codes come out the same: the second
    draws again instead of breaking the unique code with its row (a 500 on POST /api/rooms)."""
    store = await SqlStore.open(str(tmp_path / "store.sqlite3"))
    draws = iter("AAAAAAAAAAAABBBBBB")

    class Draws:
        token_hex = staticmethod(secrets.token_hex)

        @staticmethod
        def choice(alphabet: str) -> str:
            return next(draws)

    monkeypatch.setattr(manager_module, "secrets", Draws)
    manager = RoomManager(store, FakeClock(), games=lambda: {RACE.id: RACE})
    try:
        made = await asyncio.gather(*(manager.create("race", {}, n) for n in ("a", "b")))
        assert sorted(room.code for room, _, _ in made) == ["AAAAAA", "BBBBBB"]
        for room, _, _ in made:
            loaded = await store.load_room(room.code)
            assert loaded is not None and loaded.room.room_id == room.room_id
    finally:
        await manager.close()
        await store.close()


def _stored_steps(tmp_path: Path) -> list[int]:
    """The actions' steps as another connection reads them: what is committed."""
    other = sqlite3.connect(tmp_path / "store.sqlite3")
    try:
        return [row[0] for row in other.execute("SELECT step FROM actions ORDER BY step")]
    finally:
        other.close()


async def test_a_write_that_finds_the_writer_idle_is_committed_in_its_own_task(
    tmp_path: Path,
) -> None:
    store, batches = await _open(tmp_path)
    try:
        await asyncio.sleep(store.commit_spacing * 2)  # the last commit is long enough ago
        write = store.append_action(_action(1))
        with pytest.raises(StopIteration):  # done without suspending: no hop to the writer
            write.send(None)
        assert _stored_steps(tmp_path) == [1]  # and committed before it returned
        assert batches.on_thread == 0
    finally:
        await store.close()


async def test_writes_just_after_a_commit_still_wait_for_the_next_one_together(
    tmp_path: Path,
) -> None:
    store, batches = await _open(tmp_path)
    store.commit_spacing = 0.05
    try:
        await asyncio.sleep(0.1)
        await store.append_action(_action(1))  # at once, in this task
        commits = batches.commits
        second = asyncio.ensure_future(store.append_action(_action(2)))
        third = asyncio.ensure_future(store.append_action(_action(3)))
        await asyncio.sleep(0)
        assert not second.done() and not third.done()  # queued for the writer: spaced
        await asyncio.gather(second, third)
        assert batches.commits == commits + 1  # one commit for both
        assert _stored_steps(tmp_path) == [1, 2, 3]
    finally:
        await store.close()
