"""The store on SQL: SQLite (aiosqlite) by default, PostgreSQL (asyncpg) for production.

Writes from every room go through one writer task that commits them in batches: a room
awaits its write, so an action is durable before its update is sent, while a thousand busy
rooms share one commit instead of paying one each.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from jokeapp.store import tables as t
from jokeapp.store.api import (
    AbsenceRow,
    ActionRow,
    FencedError,
    LoadedRoom,
    MatchRow,
    RoomRow,
    SeatRow,
    SpectatorRow,
    StoreError,
)
from jokeapp.store.sqlite_batches import SqliteBatches

log = logging.getLogger(__name__)

BATCH_LIMIT = 500
# Seconds from one commit's start to the next one's, at least: a write that finds the writer
# idle that long is committed at once, and under load the writes that come meanwhile wait
# for the next commit together. At a human pace actions arrive one by one, so without it each
# was a commit of its own (a hop to SQLite's thread and back, a WAL write, its locks); the
# wait is at most this long, and only when another commit has just begun.
COMMIT_SPACING = 0.005
# PostgreSQL ends a session left idle inside a transaction this long (ms), and with it the
# transaction and its row locks: a node frozen between its fence's SELECT … FOR UPDATE and its
# COMMIT (a stopped VM, SIGSTOP) would otherwise hold the room's owner row, and so the claim of
# the node taking the room over, until it wakes. A working node never idles in a transaction;
# one paused this long has lost its leases anyway (its write is fenced, or fails: unanswered).
IDLE_IN_TRANSACTION_MS = 5_000
MIGRATION_LOCK = 7_270_001  # the advisory lock that serializes migrations (PostgreSQL)
ALEMBIC_INI = Path(__file__).with_name("alembic.ini")

Write = tuple[Any, dict[str, Any]]  # (prepared statement, its parameters)
Fence = tuple[str, int]  # (room id, the epoch this store claimed for it)
Queued = tuple[Write, "asyncio.Future[None]", Fence | None]
RELEASED = 0  # the fence of a room this store let go: every write of it fails (epochs start at 1)
# The writer's upserts (a row replaced whole on its key) and deletes (the rows matching each
# (parameter, column)), by statement name; every key begins with the room.
UPSERTS: dict[str, tuple[sa.Table, tuple[str, ...]]] = {
    "room": (t.rooms, ("room_id",)),
    "seat": (t.seats, ("room_id", "player_id")),
    "spectator": (t.spectators, ("room_id", "token_key")),
    "snapshot": (t.snapshots, ("room_id", "match", "step")),
    "result": (t.results, ("room_id", "match")),
    "absence": (t.absences, ("room_id", "match", "player_id")),
    # A match row whose room never got to say it began (its owner let it go, lost or died
    # between the two writes of a start) is one nobody played, and the start asked again
    # (on the next owner) replaces it.
    "match": (t.matches, ("room_id", "match")),
}
DELETES: dict[str, tuple[sa.Table, tuple[tuple[str, sa.Column[Any]], ...]]] = {
    "unseat": (t.seats, (("rid", t.seats.c.room_id), ("pid", t.seats.c.player_id))),
    "unwatch": (t.spectators, (("rid", t.spectators.c.room_id), ("key", t.spectators.c.token_key))),
}


def database_url(db: str) -> str:
    """``--db`` takes a SQLite file path or a postgresql:// URL."""
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+asyncpg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    if db == ":memory:":
        return "sqlite+aiosqlite:///:memory:"
    return f"sqlite+aiosqlite:///{Path(db).expanduser().resolve()}"


_ENCODER = msgspec.json.Encoder()


def _dumps(value: Any) -> str:
    """Compact JSON, UTF-8 as is: an action and its row on every step (msgspec: a tenth of
    ``json.dumps``'s time; a float's exponent may be spelt ``1e16`` rather than ``1e+16``,
    which every JSON reader reads alike)."""
    return _ENCODER.encode(value).decode()


class SqlStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        # the writes waiting for the writer: a deque and one wake-up (rooms/queue.py's reasons:
        # asyncio.Queue's getter futures, its event cleared and set per item and its coroutine
        # per get cost more than the append itself, on every action)
        self._queue: deque[Queued] = deque()
        self._wake: asyncio.Future[None] | None = None  # the writer sleeping on an empty queue
        self._unfinished = 0  # writes queued or being committed
        self._drained: list[asyncio.Future[None]] = []  # close() waits for them
        self._began = float("-inf")  # when the last commit began (loop time)
        self._fences: dict[str, int] = {}  # room id -> epoch claimed (cluster mode only)
        self.on_fenced: list[Callable[[str], None]] = []
        self._writer: asyncio.Task[None] | None = None
        # Requests sent to the database: each statement (an executemany is one), BEGIN and
        # COMMIT or ROLLBACK (a SQLite file's batch, on its own thread: one); what /metrics
        # reports as the store's round trips.
        self.round_trips = 0
        for name in ("before_cursor_execute", "begin", "commit", "rollback"):
            event.listen(engine.sync_engine, name, self._count)
        self._batches: SqliteBatches | None = None  # a SQLite file's commits (sqlite_batches)
        # PostgreSQL: the writer's own connection, held from its first batch on (taking one
        # from the pool and giving it back, greenlet and events included, cost about as much
        # CPU as the commit itself: every node of a cluster commits its own batches)
        self._held: tuple[AsyncConnection, Any] | None = None  # and its asyncpg connection
        self.commit_spacing = COMMIT_SPACING
        self._prepare()

    def _count(self, *args: Any, **kwargs: Any) -> None:
        self.round_trips += 1

    @classmethod
    async def open(cls, db: str, *, schema: str | None = None) -> SqlStore:
        """Connects, runs the migrations, and starts the writer."""
        url = database_url(db)
        kwargs: dict[str, Any] = {}
        if url.startswith("postgresql"):
            settings = {"idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS)}
            if schema:
                settings["search_path"] = schema
            kwargs["connect_args"] = {"server_settings": settings}
            kwargs["pool_size"] = 5
        engine = create_async_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        store = cls(engine)
        await store.migrate()
        path = engine.url.database
        if engine.dialect.name == "sqlite" and path and path != ":memory:":
            store._batches = SqliteBatches(path, engine.dialect)
            await store._batches.open()
        store._writer = asyncio.get_running_loop().create_task(
            store._write_loop(), name="store-writer"
        )
        return store

    async def migrate(self) -> None:
        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # Nodes of a cluster start together: one migrates, the others wait for it.
                await conn.execute(sa.text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
            await conn.run_sync(_upgrade)

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

    async def close(self) -> None:
        if self._writer is not None:
            if self._unfinished:
                drained = asyncio.get_running_loop().create_future()
                self._drained.append(drained)
                await drained
            self._writer.cancel()
            self._writer = None
        if self._held is not None:
            await self._held[0].close()
            self._held = None
        if self._batches is not None:
            await self._batches.close()
            self._batches = None
        await self.engine.dispose()

    # ------------------------------------------------------------ the writer

    async def _write(self, stmt: Any, params: dict[str, Any], room_id: str) -> None:
        fence = self._fences.get(room_id)
        if fence == RELEASED:
            self._fenced(room_id)
            raise FencedError(room_id)
        loop = asyncio.get_running_loop()
        if (
            fence is None
            and self._batches is not None
            and not self._queue
            and self._wake is not None  # the writer sleeps on an empty queue: nothing in flight
            and loop.time() >= self._began + self.commit_spacing
            and self._commit_now(stmt, params, loop)
        ):
            return
        future: asyncio.Future[None] = loop.create_future()
        self._queue.append(((stmt, params), future, None if fence is None else (room_id, fence)))
        self._unfinished += 1
        self._wake_writer()
        await future

    def _commit_now(
        self, stmt: Any, params: dict[str, Any], loop: asyncio.AbstractEventLoop
    ) -> bool:
        """Commits one write of a SQLite file in its room's own task, as the writer would at
        once with a write that finds it idle and its last commit ``commit_spacing`` ago, but
        without the hop to the writer's task and back (a future, a queue, two task steps per
        action). It never suspends, so nothing else writes meanwhile. False, nothing written,
        when the database is locked by another connection: the write then goes to the writer,
        whose thread waits for the lock. Unfenced writes only (a fenced write's refusal tells
        the store's listeners after its room hears of it: the writer's ``_commit``)."""
        assert self._batches is not None
        try:
            committed = self._batches.commit_now([(stmt, params, None)])
        except Exception:
            log.exception("store write failed")
            raise StoreError("write failed") from None
        if committed is None:
            return False
        self._began = loop.time()
        self.round_trips += 1
        return True

    def _wake_writer(self) -> None:
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    def _done(self, count: int) -> None:
        self._unfinished -= count
        if not self._unfinished and self._drained:
            drained, self._drained = self._drained, []
            for future in drained:
                if not future.done():
                    future.set_result(None)

    async def _write_loop(self) -> None:
        loop = asyncio.get_running_loop()
        queue = self._queue
        while True:
            while not queue:
                wake = self._wake = loop.create_future()
                try:
                    await wake
                finally:
                    if self._wake is wake:  # cancelled while it slept
                        self._wake = None
            wait = self._began + self.commit_spacing - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # the writes coming meanwhile join this commit
            self._began = loop.time()
            if len(queue) <= BATCH_LIMIT:
                batch = list(queue)
                queue.clear()
            else:
                batch = [queue.popleft() for _ in range(BATCH_LIMIT)]
            try:
                await self._commit(batch)
            finally:
                self._done(len(batch))

    async def _commit(self, batch: list[Queued]) -> None:
        items = [(stmt, params, fence) for (stmt, params), _, fence in batch]
        try:
            if self._batches is not None:
                self.round_trips += 1  # one batch of the SQLite file's own connection
                stale = await self._batches.commit(items)
            else:
                stale = await self._commit_engine(items)
        except Exception:
            if len(batch) > 1:
                # One bad write must not fail its neighbours: retry them one by one.
                for item in batch:
                    await self._commit([item])
                return
            log.exception("store write failed")
            future = batch[0][1]
            if not future.done():
                future.set_exception(StoreError("write failed"))
            return
        for i, (_, future, fence) in enumerate(batch):
            if future.done():
                continue
            if i in stale:
                assert fence is not None
                future.set_exception(FencedError(fence[0]))
                self._fenced(fence[0])  # after: the room hears of its refusal first
            else:
                future.set_result(None)

    async def _commit_engine(
        self, items: list[tuple[Any, dict[str, Any], Fence | None]]
    ) -> set[int]:
        """``SqliteBatches.commit`` through the engine (PostgreSQL, an in-memory SQLite)."""
        if self._parts:
            groups = self._one_request(items)
            if groups is not None:
                return await self._at_once(items, groups)
            conn, driver = await self._writer_connection()
            try:
                async with conn.begin():
                    return await self._fenced_writes(conn, items)
            except Exception:
                await self._check_held(conn, driver)
                raise
        async with self.engine.begin() as conn:
            return await self._fenced_writes(conn, items)

    async def _writer_connection(self) -> tuple[AsyncConnection, Any]:
        """The writer's own connection (PostgreSQL), opened at its first batch and held, with
        its asyncpg connection."""
        if self._held is None:
            conn = await self.engine.connect()
            self._held = (conn, (await conn.get_raw_connection()).driver_connection)
        return self._held

    async def _check_held(self, conn: AsyncConnection, driver: Any) -> None:
        """After a failed batch: a connection lost (PostgreSQL restarted, the session ended)
        is given up, and the next batch opens another."""
        if conn.invalidated or driver.is_closed():
            if self._held is not None and self._held[0] is conn:
                self._held = None
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()

    async def _fenced_writes(
        self, conn: AsyncConnection, items: list[tuple[Any, dict[str, Any], Fence | None]]
    ) -> set[int]:
        """The batch's writes in the transaction of ``conn``, each refused whose room's epoch
        is no longer the stored one; the indices refused."""
        stale: set[int] = set()
        fences = {fence for _, _, fence in items if fence is not None}
        if fences:
            # Locks the owner rows until this commit: a claim of a newer epoch waits
            # for it, so it then reads every write of the old owner that got in.
            rows = await conn.execute(
                sa.select(t.room_owners.c.room_id, t.room_owners.c.epoch)
                .where(t.room_owners.c.room_id.in_({r for r, _ in fences}))
                .with_for_update()
            )
            held = {r.room_id: r.epoch for r in rows}
            stale = {
                i
                for i, (_, _, fence) in enumerate(items)
                if fence is not None and held.get(fence[0]) != fence[1]
            }
        # Runs of the same statement go as one executemany, in order.
        run: list[dict[str, Any]] = []
        current: Any = None
        for i, (stmt, params, _) in enumerate(items):
            if i in stale:
                continue
            if stmt is not current and run:
                await conn.execute(current, run)
                run = []
            current = stmt
            run.append(params)
        if run:
            await conn.execute(current, run)
        return stale

    def _one_request(
        self, items: list[tuple[Any, dict[str, Any], Fence | None]]
    ) -> dict[str, list[int]] | None:
        """The batch's items by statement, if it can go as one request (``_at_once``): each
        room's rows in one statement only, and twice only as appended actions (a room awaits
        each of its writes, so nearly always). Otherwise None: the writes of one room must
        then follow one another, and one statement's parts all see the same snapshot."""
        groups: dict[str, list[int]] = {}
        seen: dict[str, str] = {}
        for i, (stmt, params, _) in enumerate(items):
            found = self._parts.get(id(stmt))
            if found is None:
                return None
            name, part = found
            room = params[part.columns[0][0]]
            if room in seen and (seen[room] != name or part.keys is not None or part.delete):
                return None
            seen[room] = name
            groups.setdefault(name, []).append(i)
        return groups

    async def _at_once(
        self, items: list[tuple[Any, dict[str, Any], Fence | None]], groups: dict[str, list[int]]
    ) -> set[int]:
        """A batch on PostgreSQL in one request: one statement (so one transaction of its own,
        no BEGIN or COMMIT sent) that locks the fenced rooms' owner rows, writes each row whose
        epoch is still the stored one (one part per statement of the batch: appended actions,
        a snapshot, a room's row…) and answers the stored epochs, from which the refused
        writes are known. The same fence as ``_fenced_writes``: a claim waits for this
        statement, which reads the epoch it leaves. At a human pace nearly every batch is only
        actions; one with a snapshot or a room's row costs the same one request."""
        names = tuple(groups)
        sql = self._at_once_sql.get(names)
        if sql is None:
            sql = self._at_once_sql[names] = _at_once_sql(
                self.engine.dialect, [self._named_parts[n] for n in names]
            )
        args: list[Any] = [sorted({fence[0] for _, _, fence in items if fence is not None})]
        for name, indices in groups.items():
            part = self._named_parts[name]
            for param, _ in part.columns:
                args.append([items[i][1][param] for i in indices])
            epochs = [items[i][2] for i in indices]
            args.append([None if fence is None else fence[1] for fence in epochs])
        conn, driver = await self._writer_connection()
        self.round_trips += 1
        try:
            rows = await driver.fetch(sql, *args)
        except Exception:
            await self._check_held(conn, driver)  # lost: never used again
            raise
        held = {row[0]: row[1] for row in rows}
        return {
            i
            for i, (_, _, fence) in enumerate(items)
            if fence is not None and held.get(fence[0]) != fence[1]
        }

    def _fenced(self, room_id: str) -> None:
        for listener in list(self.on_fenced):
            listener(room_id)

    # ------------------------------------------------------------ ownership (cluster)

    async def claim_room(self, room_id: str, epoch: int, node: str) -> bool:
        stmt = self._stmts["owner"]
        async with self.engine.begin() as conn:
            await conn.execute(stmt, {"room_id": room_id, "epoch": epoch, "node": node})
            held = (
                await conn.execute(
                    sa.select(t.room_owners.c.epoch, t.room_owners.c.node).where(
                        t.room_owners.c.room_id == room_id
                    )
                )
            ).first()
        if held is None or (held.epoch, held.node) != (epoch, node):
            return False
        self._fences[room_id] = epoch
        return True

    def release_room(self, room_id: str) -> None:
        self._fences[room_id] = RELEASED

    async def room_owner(self, room_id: str) -> tuple[int, str] | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(t.room_owners.c.epoch, t.room_owners.c.node).where(
                        t.room_owners.c.room_id == room_id
                    )
                )
            ).first()
        return None if row is None else (int(row.epoch), str(row.node))

    def _prepare(self) -> None:
        """The handful of statements every write uses, built once."""
        dialect = self.engine.dialect.name
        if dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as dialect_insert
        else:
            from sqlalchemy.dialects.sqlite import insert as dialect_insert  # type: ignore[assignment]

        def upsert(name: str) -> Any:
            table, keys = UPSERTS[name]
            stmt = dialect_insert(table)
            changes = {c.name: stmt.excluded[c.name] for c in table.columns if c.name not in keys}
            return stmt.on_conflict_do_update(index_elements=list(keys), set_=changes)

        self._stmts = {
            **{name: upsert(name) for name in UPSERTS},
            "owner": dialect_insert(t.room_owners).on_conflict_do_update(
                index_elements=["room_id"],
                set_={"epoch": sa.text("excluded.epoch"), "node": sa.text("excluded.node")},
                where=t.room_owners.c.epoch < sa.text("excluded.epoch"),
            ),
            "action": t.actions.insert(),
            "unseat": t.seats.delete().where(
                *(c == sa.bindparam(p) for p, c in DELETES["unseat"][1])
            ),
            "unwatch": t.spectators.delete().where(
                *(c == sa.bindparam(p) for p, c in DELETES["unwatch"][1])
            ),
        }
        # PostgreSQL: each statement the writer sends, as a part of ``_at_once``'s statement
        self._named_parts: dict[str, _Part] = {}
        self._parts: dict[int, tuple[str, _Part]] = {}  # by the statement's id
        self._at_once_sql: dict[tuple[str, ...], str] = {}
        if dialect == "postgresql":
            parts = {
                name: _Part(table, _row(table), keys) for name, (table, keys) in UPSERTS.items()
            }
            parts["action"] = _Part(t.actions, _row(t.actions), None)
            for name, (table, where) in DELETES.items():
                parts[name] = _Part(table, where, None, delete=True)
            self._named_parts = parts
            self._parts = {id(self._stmts[name]): (name, part) for name, part in parts.items()}

    # ------------------------------------------------------------ writes

    async def save_room(self, row: RoomRow) -> None:
        await self._write(
            self._stmts["room"],
            {
                "room_id": row.room_id,
                "code": row.code,
                "game": row.game,
                "options": _dumps(row.options),
                "status": row.status,
                "match": row.match,
                "host_id": row.host_id,
                "seq_reserved": row.seq_reserved,
                "created_at": row.created_at,
            },
            row.room_id,
        )

    async def save_seat(self, row: SeatRow) -> None:
        await self._write(
            self._stmts["seat"],
            {
                "room_id": row.room_id,
                "player_id": row.player_id,
                "nickname": row.nickname,
                "token_key": row.token_key,
                "bot_policy": row.bot_policy,
            },
            row.room_id,
        )

    async def delete_seat(self, room_id: str, player_id: str) -> None:
        await self._write(self._stmts["unseat"], {"rid": room_id, "pid": player_id}, room_id)

    async def save_spectator(self, row: SpectatorRow) -> None:
        await self._write(
            self._stmts["spectator"],
            {
                "room_id": row.room_id,
                "token_key": row.token_key,
                "nickname": row.nickname,
            },
            row.room_id,
        )

    async def delete_spectator(self, room_id: str, token_key: str) -> None:
        await self._write(self._stmts["unwatch"], {"rid": room_id, "key": token_key}, room_id)

    async def begin_match(self, row: MatchRow) -> None:
        await self._write(
            self._stmts["match"],
            {
                "room_id": row.room_id,
                "match": row.match,
                "seed": row.seed,
                "players": _dumps(row.players),
                "options": _dumps(row.options),
            },
            row.room_id,
        )

    async def append_action(self, row: ActionRow) -> None:
        await self._write(
            self._stmts["action"],
            {
                "room_id": row.room_id,
                "match": row.match,
                "step": row.step,
                "seq": row.seq,
                "actor": row.actor,
                "action": _dumps(row.action),
                "auto": row.auto,
                "client_seq": row.client_seq,
                "at": row.at,
            },
            row.room_id,
        )

    async def save_snapshot(
        self, room_id: str, match: int, step: int, state: dict[str, Any]
    ) -> None:
        await self._write(
            self._stmts["snapshot"],
            {
                "room_id": room_id,
                "match": match,
                "step": step,
                "state": _dumps(state),
            },
            room_id,
        )

    async def save_absence(self, row: AbsenceRow) -> None:
        await self._write(
            self._stmts["absence"],
            {
                "room_id": row.room_id,
                "match": row.match,
                "player_id": row.player_id,
                "timeouts_in_row": row.timeouts_in_row,
                "absent_rounds": row.absent_rounds,
                "last_absent_round": row.last_absent_round,
                "offer": row.offer,
            },
            row.room_id,
        )

    async def finish_match(self, room_id: str, match: int, result: dict[str, Any]) -> None:
        await self._write(
            self._stmts["result"],
            {"room_id": room_id, "match": match, "result": _dumps(result)},
            room_id,
        )

    # ------------------------------------------------------------ reads

    async def code_taken(self, code: str) -> bool:
        if self._batches is not None:  # a SQLite file: read on the loop, no pooled connection
            taken = self._batches.code_taken(code)
            if taken is not None:
                return taken
        async with self.engine.connect() as conn:
            found = await conn.scalar(sa.select(t.rooms.c.room_id).where(t.rooms.c.code == code))
        return found is not None

    async def unfinished_room_ids(self) -> list[str]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.rooms.c.room_id).where(t.rooms.c.status != "finished")
            )
            return [r[0] for r in rows]

    async def load_room(self, ref: str) -> LoadedRoom | None:
        async with self.engine.connect() as conn:
            room_row = (
                await conn.execute(
                    sa.select(t.rooms).where(
                        sa.or_(t.rooms.c.room_id == ref, t.rooms.c.code == ref)
                    )
                )
            ).first()
            if room_row is None:
                return None
            room = RoomRow(
                room_row.room_id,
                room_row.code,
                room_row.game,
                json.loads(room_row.options),
                room_row.status,
                room_row.match,
                room_row.host_id,
                room_row.created_at,
                room_row.seq_reserved,
            )
            rid = room.room_id
            seat_rows = await conn.execute(sa.select(t.seats).where(t.seats.c.room_id == rid))
            spec_rows = await conn.execute(
                sa.select(t.spectators).where(t.spectators.c.room_id == rid)
            )
            loaded = LoadedRoom(
                room=room,
                seats=[
                    SeatRow(rid, s.player_id, s.nickname, s.token_key, s.bot_policy)
                    for s in seat_rows
                ],
                spectators=[SpectatorRow(rid, s.token_key, s.nickname) for s in spec_rows],
            )
            match = await self._match_row(conn, rid, room.match)
            if match is None:
                return loaded
            loaded.match = match
            snap = (
                await conn.execute(
                    sa.select(t.snapshots.c.step, t.snapshots.c.state)
                    .where(t.snapshots.c.room_id == rid, t.snapshots.c.match == room.match)
                    .order_by(t.snapshots.c.step.desc())
                    .limit(1)
                )
            ).first()
            start = 0
            if snap is not None:
                loaded.snapshot = (snap.step, json.loads(snap.state))
                start = snap.step
            loaded.tail = await self._actions(conn, rid, room.match, after=start)
            summary = (
                await conn.execute(
                    sa.select(sa.func.max(t.actions.c.seq)).where(
                        t.actions.c.room_id == rid, t.actions.c.match == room.match
                    )
                )
            ).scalar()
            loaded.last_seq = int(summary or 0)
            loaded.last_action_at = await conn.scalar(
                sa.select(t.actions.c.at)
                .where(t.actions.c.room_id == rid, t.actions.c.match == room.match)
                .order_by(t.actions.c.step.desc())
                .limit(1)
            )
            per_actor = await conn.execute(
                sa.select(t.actions.c.actor, sa.func.max(t.actions.c.client_seq))
                .where(t.actions.c.room_id == rid, t.actions.c.match == room.match)
                .group_by(t.actions.c.actor)
            )
            loaded.last_client_seq = {
                actor: int(value) for actor, value in per_actor if value is not None
            }
            absent = await conn.execute(
                sa.select(t.absences).where(
                    t.absences.c.room_id == rid, t.absences.c.match == room.match
                )
            )
            loaded.absences = [
                AbsenceRow(
                    rid,
                    a.match,
                    a.player_id,
                    a.timeouts_in_row,
                    a.absent_rounds,
                    a.last_absent_round,
                    a.offer,
                )
                for a in absent
            ]
            return loaded

    async def match_log(self, room_id: str, match: int) -> tuple[MatchRow, list[ActionRow]] | None:
        async with self.engine.connect() as conn:
            row = await self._match_row(conn, room_id, match)
            if row is None:
                return None
            return row, await self._actions(conn, room_id, match, after=0)

    async def _match_row(self, conn: AsyncConnection, room_id: str, match: int) -> MatchRow | None:
        found = (
            await conn.execute(
                sa.select(t.matches).where(
                    t.matches.c.room_id == room_id, t.matches.c.match == match
                )
            )
        ).first()
        if found is None:
            return None
        result = await conn.scalar(
            sa.select(t.results.c.result).where(
                t.results.c.room_id == room_id, t.results.c.match == match
            )
        )
        return MatchRow(
            room_id,
            match,
            int(found.seed),
            json.loads(found.players),
            json.loads(found.options),
            json.loads(result) if result is not None else None,
        )

    async def _actions(
        self, conn: AsyncConnection, room_id: str, match: int, after: int
    ) -> list[ActionRow]:
        rows = await conn.execute(
            sa.select(t.actions)
            .where(
                t.actions.c.room_id == room_id, t.actions.c.match == match, t.actions.c.step > after
            )
            .order_by(t.actions.c.step)
        )
        return [
            ActionRow(
                room_id,
                match,
                r.step,
                r.seq,
                r.actor,
                json.loads(r.action),
                bool(r.auto),
                r.client_seq,
                r.at,
            )
            for r in rows
        ]


@dataclass(frozen=True, slots=True)
class _Part:
    """One of the writer's statements as a part of ``_at_once``'s one statement (PostgreSQL):
    its rows come as one array per column, each row's epoch in one more (null: unfenced)."""

    table: sa.Table
    columns: tuple[tuple[str, sa.Column[Any]], ...]  # (parameter, column), the room's first
    keys: tuple[str, ...] | None  # an upsert's conflict columns (None: an insert)
    delete: bool = False  # a delete of the rows matching every column

    def sql(self, dialect: sa.Dialect, first: int) -> str:
        """The part's statement, its arrays from ``$first`` on, rows fenced by ``held``."""
        cols = [c for _, c in self.columns]
        names = ", ".join(c.name for c in cols)
        arrays = ", ".join(
            f"${i}::{c.type.compile(dialect=dialect)}[]" for i, c in enumerate(cols, start=first)
        )
        rows = f"unnest({arrays}, ${first + len(cols)}::bigint[]) AS r({names}, epoch)"
        fence = (
            "(r.epoch IS NULL OR r.epoch = "
            "(SELECT h.epoch FROM held h WHERE h.room_id = r.room_id))"
        )
        if self.delete:
            match = " AND ".join(f"d.{c.name} = r.{c.name}" for c in cols)
            return f"DELETE FROM {self.table.name} AS d USING {rows} WHERE {match} AND {fence}"
        sql = (
            f"INSERT INTO {self.table.name} ({names}) "
            f"SELECT {', '.join('r.' + c.name for c in cols)} FROM {rows} WHERE {fence}"
        )
        if self.keys is not None:
            changes = ", ".join(
                f"{c.name} = excluded.{c.name}" for c in cols if c.name not in self.keys
            )
            sql += f" ON CONFLICT ({', '.join(self.keys)}) DO UPDATE SET {changes}"
        return sql


def _row(table: sa.Table) -> tuple[tuple[str, sa.Column[Any]], ...]:
    """A whole row's columns, each parameter named as its column."""
    return tuple((c.name, c) for c in table.columns)


def _at_once_sql(dialect: sa.Dialect, parts: list[_Part]) -> str:
    """``_at_once``'s statement: $1 the fenced rooms, whose owner rows it locks first, then
    each part's arrays; it answers the stored epochs of those rooms."""
    ctes = [
        f"held AS MATERIALIZED (SELECT room_id, epoch FROM {t.room_owners.name} "
        "WHERE room_id = ANY($1::text[]) FOR UPDATE)"
    ]
    first = 2
    for k, part in enumerate(parts):
        ctes.append(f"w{k} AS ({part.sql(dialect, first)})")
        first += len(part.columns) + 1
    return f"WITH {', '.join(ctes)} SELECT room_id, epoch FROM held"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    # WAL + NORMAL: a committed write survives the process being killed (it is in the OS
    # page cache); only a power cut could lose the last commits.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _upgrade(sync_conn: sa.Connection) -> None:
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(ALEMBIC_INI.parent / "migrations"))
    config.attributes["connection"] = sync_conn
    command.upgrade(config, "head")
