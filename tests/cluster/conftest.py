"""Cluster tests: the local Redis (each test its own key prefix, deleted after) and stores
shared by several nodes (memory, SQLite, PostgreSQL in a schema of its own)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from tests.store.conftest import two_nodes

__all__ = ["two_nodes"]  # two nodes' stores on the same data (memory, SQLite, PostgreSQL)

REDIS_URL = "redis://127.0.0.1:6379/0"


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
