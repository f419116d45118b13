"""SQLite's group commit: a batch of writes is one transaction on a DB-API connection of its
own, committed on the event loop's thread itself.

Through SQLAlchemy's asyncio layer over aiosqlite, one batch crossed between the event loop
and aiosqlite's thread half a dozen times (pool, begin, each executemany, commit), each a
wake-up of both sides, and each row's parameters went through SQLAlchemy's per-execution
work. Here SQLAlchemy still builds and compiles every statement (once per statement and set
of parameter names: its SQL, its parameters' order and their converters), and the batch
crosses to the thread once and back once. Reads, migrations and the cluster's claims keep
using the engine; SQLite in WAL mode lets them run beside this connection. One read does not:
a new room's code lookup (``code_taken``) runs on the loop's thread on a read-only connection
of its own, so opening rooms needs none of the engine's pooled connections.

At a human pace even that one hop was two wake-ups per commit (the thread's and the loop's
again, ~50–100 µs of CPU each on a 2-core VM, and the two threads taking the one core from each
other), so the batch is now committed on the loop's thread: in WAL mode with
``synchronous=NORMAL`` a commit writes the WAL and syncs nothing. What could block is taken off
the loop: the connection never waits for a lock (``busy_timeout=0``: a batch that finds the
database locked, by the engine's connection, goes to the thread, which waits for it) and never
checkpoints (``wal_autocheckpoint=0``: every ``CHECKPOINT_EVERY`` commits the thread runs a
passive checkpoint, whose syncs are its own, on a connection of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy.engine import Dialect

log = logging.getLogger(__name__)

# (statement, parameters by name, the fence: room id and the epoch claimed for it, or None)
Item = tuple[Any, dict[str, Any], "tuple[str, int] | None"]
# a compiled statement: its SQL, what picks its positional parameters out of a write's (by
# name), and the converters of those positions that have one
_Compiled = tuple[
    str, Callable[[dict[str, Any]], tuple[Any, ...]], tuple[tuple[int, Callable[[Any], Any]], ...]
]


# commits between two checkpoints of the WAL (by the thread); SQLite's own default is after
# 1,000 pages, about what 100 batches of a few actions write
CHECKPOINT_EVERY = 100
BUSY_WAIT_MS = 5000  # how long the thread waits for a lock held by another connection

# (function, its arguments, the future of its result or None: nobody waits for it)
_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any] | None"]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # its waiter was cancelled
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class SqliteBatches:
    def __init__(self, path: str, dialect: Dialect) -> None:
        self._path = path
        self._dialect = dialect
        self._compiled: dict[tuple[int, tuple[str, ...]], tuple[Any, _Compiled]] = {}
        self._conn: sqlite3.Connection | None = None
        self._checkpoints: sqlite3.Connection | None = None  # the thread's own
        self._reads: sqlite3.Connection | None = None  # the loop's, for a room code's lookup
        self.commits = 0
        self.on_thread = 0  # batches that found the database locked and went to the thread
        # the thread's work: (function, its arguments, the future of its result); None: stop
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="store-sqlite", daemon=True)

    async def open(self) -> None:
        self._thread.start()
        await self._run(self._connect)

    def _run(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``fn(*args)`` on the thread. A bare queue and one callback back: this runs once per
        commit, and a pool's futures, wrapped for asyncio, cost more than the hop itself."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((fn, args, future))
        return future

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, args, future = job
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # handed to the waiting coroutine
                result, error = None, exc
            if future is None:  # a checkpoint: nobody waits for it
                if error is not None:
                    log.warning("SQLite checkpoint failed: %r", error)
                continue
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                future.get_loop().call_soon_threadsafe(_settle, future, result, error)

    def _connect(self) -> None:
        # autocommit mode: the transactions are the explicit BEGIN IMMEDIATE … COMMIT below;
        # used by the loop's thread and, for a batch that must wait for a lock, by this one
        # (never both at once: the writer awaits each commit)
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        self._conn = conn
        checkpoints = sqlite3.connect(self._path, isolation_level=None)
        checkpoints.execute(f"PRAGMA busy_timeout={BUSY_WAIT_MS}")
        self._checkpoints = checkpoints
        # read on the loop's thread, never waiting: in WAL mode a read takes no lock a writer
        # holds, so it does not wait for one
        reads = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        reads.execute("PRAGMA busy_timeout=0")
        reads.execute("PRAGMA query_only=1")
        self._reads = reads

    def code_taken(self, code: str) -> bool | None:
        """Whether a room has ``code``, read on the loop's thread (an indexed lookup, tens of
        µs): no pooled connection, no hop to a thread. None when SQLite could not tell
        without waiting (busy): the caller asks the engine.

        Through the engine every new room waited for one of the pool's 15 connections: with
        hundreds of rooms opened at once on a busy server a request waited past the pool's
        30 s and was answered 500 ``internal`` (the capacity run's setup at 3,000 rooms)."""
        assert self._reads is not None
        try:
            row = self._reads.execute(
                "SELECT 1 FROM rooms WHERE code = ? LIMIT 1", (code,)
            ).fetchone()
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            return None
        return row is not None

    def _checkpoint(self) -> None:
        assert self._checkpoints is not None
        self._checkpoints.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    async def close(self) -> None:
        if self._conn is not None:
            try:
                await self._run(self._checkpoint)  # the WAL into the database file
            except sqlite3.Error as exc:  # still in the WAL: the next start reads it
                log.warning("SQLite checkpoint at close failed: %r", exc)
            await self._run(self._conn.close)
            self._conn = None
        if self._reads is not None:
            self._reads.close()
            self._reads = None
        if self._checkpoints is not None:
            await self._run(self._checkpoints.close)
            self._checkpoints = None
        self._jobs.put(None)

    def _compile(self, stmt: Any, keys: tuple[str, ...]) -> _Compiled:
        found = self._compiled.get((id(stmt), keys))
        if found is not None:
            return found[1]
        compiled = stmt.compile(dialect=self._dialect, column_keys=list(keys))
        names = tuple(compiled.positiontup or ())
        converters = tuple(
            (i, compiled._bind_processors[n])
            for i, n in enumerate(names)
            if n in compiled._bind_processors
        )
        # the positional parameters in one C call (a single name: itemgetter gives no tuple)
        pick = itemgetter(*names) if len(names) > 1 else (lambda params: (params[names[0]],))
        entry: _Compiled = (compiled.string, pick, converters)
        self._compiled[(id(stmt), keys)] = (stmt, entry)  # the statement kept: its id stays its
        return entry

    def _rows(self, batch: Sequence[Item]) -> list[tuple[str, tuple[Any, ...]]]:
        """Each write's SQL and positional parameters (compiled on the event loop's side)."""
        out = []
        compiled = self._compiled
        for stmt, params, _ in batch:
            found = compiled.get((id(stmt), tuple(params)))
            sql, pick, converters = (
                found[1] if found is not None else self._compile(stmt, tuple(params))
            )
            if not params:
                out.append((sql, ()))
                continue
            row = pick(params)
            if converters:
                values = list(row)
                for i, convert in converters:
                    values[i] = convert(values[i])
                row = tuple(values)
            out.append((sql, row))
        return out

    async def commit(self, batch: Sequence[Item]) -> set[int]:
        """Commits ``batch`` in one transaction, leaving out every write whose room's epoch
        in ``room_owners`` is no longer its fence's; the positions of those left out."""
        rows = self._rows(batch)
        fences = [fence for _, _, fence in batch]
        stale = self._now(rows, fences)  # here: no hop, no wake-up
        if stale is None:
            self.on_thread += 1  # locked by another connection: the thread waits for it
            stale = await self._run(self._waiting_transaction, rows, fences)
            self._committed()
        return stale

    def commit_now(self, batch: Sequence[Item]) -> set[int] | None:
        """``commit`` on the loop's thread only: None, nothing written, when the database is
        locked by another connection (``commit`` then has its thread wait for the lock)."""
        return self._now(self._rows(batch), [fence for _, _, fence in batch])

    def _now(
        self, rows: list[tuple[str, tuple[Any, ...]]], fences: list[tuple[str, int] | None]
    ) -> set[int] | None:
        try:
            stale = self._transaction(rows, fences)
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            return None
        self._committed()
        return stale

    def _committed(self) -> None:
        self.commits += 1
        if self.commits % CHECKPOINT_EVERY == 0:
            self._jobs.put((self._checkpoint, (), None))

    def _waiting_transaction(
        self, rows: list[tuple[str, tuple[Any, ...]]], fences: list[tuple[str, int] | None]
    ) -> set[int]:
        conn = self._conn
        assert conn is not None
        conn.execute(f"PRAGMA busy_timeout={BUSY_WAIT_MS}")
        try:
            return self._transaction(rows, fences)
        finally:
            conn.execute("PRAGMA busy_timeout=0")

    def _transaction(
        self, rows: list[tuple[str, tuple[Any, ...]]], fences: list[tuple[str, int] | None]
    ) -> set[int]:
        conn = self._conn
        assert conn is not None
        # IMMEDIATE takes the write lock first: a newer claim of a room waits for this commit
        # (and then reads every write of the old owner that got in), as FOR UPDATE does
        conn.execute("BEGIN IMMEDIATE")
        try:
            stale: set[int] = set()
            fenced = {fence[0] for fence in fences if fence is not None}
            if fenced:
                marks = ",".join("?" * len(fenced))
                held = dict(
                    conn.execute(
                        f"SELECT room_id, epoch FROM room_owners WHERE room_id IN ({marks})",
                        tuple(fenced),
                    ).fetchall()
                )
                stale = {
                    i
                    for i, fence in enumerate(fences)
                    if fence is not None and held.get(fence[0]) != fence[1]
                }
            # runs of the same statement go as one executemany, in order
            run: list[tuple[Any, ...]] = []
            current: str | None = None
            for i, (sql, row) in enumerate(rows):
                if i in stale:
                    continue
                if sql != current and run:
                    conn.executemany(current, run)  # type: ignore[arg-type]
                    run = []
                current = sql
                run.append(row)
            if run:
                conn.executemany(current, run)  # type: ignore[arg-type]
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return stale
