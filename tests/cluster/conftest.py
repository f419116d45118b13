"""Cluster tests: the local Redis (each test its own key prefix, deleted after), stores shared
by several nodes (memory, SQLite, PostgreSQL in a schema of its own), and three `joke serve`
node processes on this machine's PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from jokeapp.core.record import verify_record
from tests.rooms.conftest import all_games
from tests.server.harness import Client, ServerProcess
from tests.store.conftest import own_pg_schema, two_nodes

__all__ = ["two_nodes"]  # two nodes' stores on the same data (memory, SQLite, PostgreSQL)

REDIS_URL = "redis://127.0.0.1:6379/0"
LEASE_TTL = 3.0  # seconds; a dead node's rooms move within TTL + 1 s scan + the rebuild
MOVE_LIMIT = 10.0  # what docs/cluster.md promises after a kill -9


async def until(condition: Callable[[], Awaitable[bool]], limit: float = 10.0) -> None:
    """Polls ``condition`` (Redis, the store, a node's answer) until it holds; fails after
    ``limit`` seconds: a guard against a hang, not a measure."""
    async with asyncio.timeout(limit):
        while not await condition():
            await asyncio.sleep(0.02)


async def owner_of(http: httpx.AsyncClient, base: str, code: str) -> str | None:
    """The owner's name as `GET /api/rooms/{code}` at ``base`` (a node, nginx) reports it;
    None while the room is between owners."""
    with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
        r = await http.get(f"{base}/api/rooms/{code}")
        if r.status_code == 200:
            return str(r.json()["node"])
    return None


def in_order(acked: list[dict[str, Any]], steps: list[dict[str, Any]]) -> bool:
    """Every acknowledged action is in the log, in the order it was acknowledged."""
    it = iter(steps)
    return all(any(step == action for step in it) for action in acked)


def assert_the_log_holds(record: dict[str, Any], clients: list[Client]) -> None:
    """The match's record replays to itself, and every action a client had acknowledged is
    in it, in that order: nothing acknowledged was lost or applied twice."""
    assert verify_record(all_games()[record["game"]], record) == [], record["game"]
    for cl in clients:
        theirs = [
            s["action"] for s in record["steps"] if s["actor"] == cl.player_id and not s["auto"]
        ]
        assert in_order([action for _, action in cl.acked], theirs), cl.player_id


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
    """(url, schema): a PostgreSQL schema of this test's own, dropped after."""
    async with own_pg_schema() as found:
        yield found


def node_process(url: str, schema: str, prefix: str, name: str, log_dir: Path) -> ServerProcess:
    """One node of the test's cluster (not started)."""
    node = ServerProcess(
        url,
        bot_delay=0.05,
        extra=(
            "--db-schema",
            schema,
            "--redis",
            REDIS_URL,
            "--redis-prefix",
            prefix,
            "--node",
            name,
            "--lease-ttl",
            str(LEASE_TTL),
        ),
    )
    node.log_path = log_dir / f"node-{name}.log"
    return node


@pytest.fixture
def nodes(
    pg_schema: tuple[str, str], redis_prefix: str, tmp_path: Path
) -> Iterator[list[ServerProcess]]:
    """Three started nodes `a`, `b`, `c` of one cluster, stopped after."""
    url, schema = pg_schema
    made = []
    try:
        for name in ("a", "b", "c"):
            node = node_process(url, schema, redis_prefix, name, tmp_path)
            node.start()
            made.append(node)
        yield made
    finally:
        for node in made:
            node.stop()
