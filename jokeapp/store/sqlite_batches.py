"""SQLite's group commit in one hop to a thread: a batch of writes is one transaction on a
DB-API connection of its own, used only by a thread of its own.

Through SQLAlchemy's asyncio layer over aiosqlite, one batch crossed between the event loop
and aiosqlite's thread half a dozen times (pool, begin, each executemany, commit), each a
wake-up of both sides, and each row's parameters went through SQLAlchemy's per-execution
work. Here SQLAlchemy still builds and compiles every statement (once per statement and set
of parameter names: its SQL, its parameters' order and their converters), and the batch
crosses to the thread once and back once. Reads, migrations and the cluster's claims keep
using the engine; SQLite in WAL mode lets them run beside this connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Dialect

# (statement, parameters by name, the fence: room id and the epoch claimed for it, or None)
Item = tuple[Any, dict[str, Any], "tuple[str, int] | None"]
# a compiled statement: its SQL, its parameters' names in order, and their converters
_Compiled = tuple[str, tuple[str, ...], dict[str, Callable[[Any], Any]]]


_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


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
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                future.get_loop().call_soon_threadsafe(_settle, future, result, error)

    def _connect(self) -> None:
        # autocommit mode: the transactions are the explicit BEGIN IMMEDIATE … COMMIT below
        conn = sqlite3.connect(self._path, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=5000")
        self._conn = conn

    async def close(self) -> None:
        if self._conn is not None:
            await self._run(self._conn.close)
            self._conn = None
        self._jobs.put(None)

    def _compile(self, stmt: Any, keys: tuple[str, ...]) -> _Compiled:
        found = self._compiled.get((id(stmt), keys))
        if found is not None:
            return found[1]
        compiled = stmt.compile(dialect=self._dialect, column_keys=list(keys))
        names = tuple(compiled.positiontup or ())
        converters = {k: f for k, f in compiled._bind_processors.items() if k in names}
        entry: _Compiled = (compiled.string, names, converters)
        self._compiled[(id(stmt), keys)] = (stmt, entry)  # the statement kept: its id stays its
        return entry

    def _rows(self, batch: Sequence[Item]) -> list[tuple[str, tuple[Any, ...]]]:
        """Each write's SQL and positional parameters (compiled on the event loop's side)."""
        out = []
        for stmt, params, _ in batch:
            sql, names, converters = self._compile(stmt, tuple(params))
            if converters:
                row = tuple(
                    converters[n](params[n]) if n in converters else params[n] for n in names
                )
            else:
                row = tuple(params[n] for n in names)
            out.append((sql, row))
        return out

    async def commit(self, batch: Sequence[Item]) -> set[int]:
        """Commits ``batch`` in one transaction, leaving out every write whose room's epoch
        in ``room_owners`` is no longer its fence's; the positions of those left out."""
        rows = self._rows(batch)
        fences = [fence for _, _, fence in batch]
        stale: set[int] = await self._run(self._transaction, rows, fences)
        return stale

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
