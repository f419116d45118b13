"""Whether this node can serve now (``GET /api/ready``): its database answers, and its Redis
when it is part of a cluster. A load balancer or an orchestrator stops sending traffic to a
node that answers 503, and starts again when it answers 200."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from jokeapp.server.settings import Settings
from jokeapp.store.api import Store

CHECK_SECONDS = 2.0  # a dependency slower than this to answer counts as down


class Readiness:
    """The checks of /api/ready by name; the cluster (jokeapp.cluster) may add its own to
    ``checks`` (an async callable that raises when the node cannot serve)."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.checks: dict[str, Callable[[], Awaitable[Any]]] = {"db": store.ping}
        self._redis: Any = None
        if settings.redis:
            import redis.asyncio as aioredis  # only a cluster node needs it

            self._redis = aioredis.from_url(settings.redis, socket_timeout=CHECK_SECONDS)
            self.checks["redis"] = self._redis.ping

    async def check(self) -> tuple[bool, dict[str, str]]:
        results = await asyncio.gather(*(self._one(f) for f in self.checks.values()))
        answers = dict(zip(self.checks, results, strict=True))
        return all(a == "ok" for a in answers.values()), answers

    @staticmethod
    async def _one(probe: Callable[[], Awaitable[Any]]) -> str:
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                await probe()
        except TimeoutError:
            return "timeout"
        except Exception as exc:  # an unreachable dependency: say which kind of failure
            return type(exc).__name__
        return "ok"

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
