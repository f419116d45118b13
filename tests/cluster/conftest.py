"""Cluster tests: the local Redis (each test its own key prefix, deleted after), stores shared
by several nodes (memory, SQLite, PostgreSQL in a schema of its own) and three `joke serve`
nodes a, b, c on PostgreSQL and Redis (``nodes``)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from tests.server.harness import ServerProcess
from tests.store.conftest import _reachable_pg, two_nodes

__all__ = ["two_nodes"]  # two nodes' stores on the same data (memory, SQLite, PostgreSQL)

REDIS_URL = "redis://127.0.0.1:6379/0"
LEASE_TTL = 3.0  # seconds; a dead node's rooms move within TTL + 1 s scan + the rebuild


@pytest.fixture
async def redis_prefix() -> AsyncIterator[str]:
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        await client.ping()
    except Exception:
        await client.aclose()
        pytest.skip(f"Redis at {REDIS_URL} is not reachable")
    prefix = f"test-{secrets.token_hex(6)}"
    try:
        yield prefix
    finally:
        keys = [key async for key in client.scan_iter(match=f"{prefix}:*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


@pytest.fixture
async def pg_schema() -> AsyncIterator[tuple[str, str]]:
    url = await _reachable_pg()
    if url is None:
        pytest.skip("PostgreSQL at 127.0.0.1:5432 (database test) is not reachable")
    import asyncpg  # type: ignore[import-untyped]

    schema = f"t_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield url, schema
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


@pytest.fixture
def nodes(
    pg_schema: tuple[str, str], redis_prefix: str, tmp_path: Path
) -> Iterator[list[ServerProcess]]:
    url, schema = pg_schema
    made = []
    try:
        for name in ("a", "b", "c"):
            node = ServerProcess(
                url,
                bot_delay=0.05,
                extra=(
                    "--db-schema",
                    schema,
                    "--redis",
                    REDIS_URL,
                    "--redis-prefix",
                    redis_prefix,
                    "--node",
                    name,
                    "--lease-ttl",
                    str(LEASE_TTL),
                ),
            )
            node.log_path = tmp_path / f"node-{name}.log"
            node.start()
            made.append(node)
        yield made
    finally:
        for node in made:
            node.stop()
