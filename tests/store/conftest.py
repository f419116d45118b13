"""The same store tests on SQLite and on the local PostgreSQL (each test in its own schema)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest

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


@pytest.fixture(params=["sqlite", "postgresql"])
async def sql_store(request: pytest.FixtureRequest, tmp_path: object) -> AsyncIterator[SqlStore]:
    if request.param == "sqlite":
        store = await SqlStore.open(str(tmp_path) + "/store.sqlite3")
        yield store
        await store.close()
        return
    url = await _reachable_pg()
    if url is None:
        pytest.skip("PostgreSQL at 127.0.0.1:5432 (database test) is not reachable")
    import asyncpg

    schema = f"t_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        store = await SqlStore.open(url, schema=schema)
        yield store
        await store.close()
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()
