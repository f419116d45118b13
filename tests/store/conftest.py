"""The same store tests on SQLite and on the local PostgreSQL (each test in its own schema),
and the fencing tests on two stores of one database (two cluster nodes)."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from jokeapp.store.api import Store
from jokeapp.store.memory import MemoryStore
from jokeapp.store.sql import SqlStore

PG_URLS = ("postgresql://postgres@127.0.0.1:5432/test", "postgresql://root@127.0.0.1:5432/test")


async def _reachable_pg() -> str | None:
    import asyncpg  # type: ignore[import-untyped]

    for url in PG_URLS:
        try:
            conn = await asyncpg.connect(url, timeout=2)
        except Exception:
            continue
        await conn.close()
        return url
    return None


@contextlib.asynccontextmanager
async def own_pg_schema() -> AsyncIterator[tuple[str, str]]:
    """(url, schema): a schema of the local PostgreSQL for this test alone, dropped after; the
    test is skipped, saying so, when PostgreSQL is not reachable."""
    url = await _reachable_pg()
    if url is None:
        pytest.skip("PostgreSQL at 127.0.0.1:5432 (database test) is not reachable")
    import asyncpg

    schema = f"t_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield url, schema
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


@contextlib.asynccontextmanager
async def sql_stores(kind: str, tmp_path: Path, count: int) -> AsyncIterator[list[SqlStore]]:
    """``count`` stores on one database (one per cluster node), closed and dropped after."""
    if kind == "sqlite":
        path = str(tmp_path / "store.sqlite3")
        stores = [await SqlStore.open(path) for _ in range(count)]
        try:
            yield stores
        finally:
            for store in stores:
                await store.close()
        return
    async with own_pg_schema() as (url, schema):
        stores = [await SqlStore.open(url, schema=schema) for _ in range(count)]
        try:
            yield stores
        finally:
            for store in stores:
                await store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async with sql_stores(request.param, tmp_path, 1) as (store,):
        yield store


@pytest.fixture
async def pg_store(tmp_path: Path) -> AsyncIterator[SqlStore]:
    """A store on PostgreSQL only, for what only PostgreSQL does (it skips, saying why, where
    PostgreSQL is missing)."""
    async with sql_stores("postgresql", tmp_path, 1) as (store,):
        yield store


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def two_nodes(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[list[Store]]:
    """Two nodes' stores on the same data."""
    if request.param == "memory":
        first = MemoryStore()
        yield [first, MemoryStore(shared=first)]
        return
    async with sql_stores(request.param, tmp_path, 2) as stores:
        yield list(stores)
