"""The ASGI application: HTTP API, WebSocket sessions, static files, and its lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from jokeapp.cluster.forward import Forwarder
from jokeapp.cluster.leases import Leases
from jokeapp.cluster.node import ClusterNode
from jokeapp.rooms.clock import Clock, RealClock
from jokeapp.rooms.manager import RoomManager
from jokeapp.server import http_api, openapi, readiness, static_files
from jokeapp.server.collector import Collector, FullPass
from jokeapp.server.middleware import RequestContext
from jokeapp.server.responses import error_response, json_response
from jokeapp.server.routing import ClusterRouting
from jokeapp.server.settings import Settings
from jokeapp.server.ws import websocket_endpoint
from jokeapp.store.sql import SqlStore
from jokeapp.telemetry import runtime
from jokeapp.telemetry.metrics import CONTENT_TYPE, Metrics
from jokeapp.wire.protocol import MAX_MESSAGE_BYTES

log = logging.getLogger(__name__)


async def openapi_json(request: Request) -> Response:
    return json_response(openapi.document())


async def metrics_text(request: Request) -> Response:
    """Prometheus text format: this node's rooms, connections, actions, latencies, leases."""
    metrics: Metrics = request.app.state.metrics
    return Response(metrics.render(), media_type=CONTENT_TYPE)


async def http_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        if exc.status_code == 404:
            return error_response("not_found")
        return error_response("http_error", exc.status_code)  # 405, or another HTTP refusal
    log.exception("unhandled error on %s", request.url.path)
    return error_response("internal")


def _full_pass_reporter(metrics: Metrics) -> Callable[[FullPass], None]:
    def reported(done: FullPass) -> None:
        metrics.tracked.counted(done.tracked)
        # a warning: every room stood still for it (server/collector.py); an operator wants it
        log.warning(
            "full collection: %d objects walked, %d freed, %.0f ms, %d rooms open; heap %d "
            "blocks past the line %.0f, %d after, the next past %.0f",
            done.walked, done.found, done.seconds * 1000, done.rooms, done.heap_before,
            done.line, done.heap_after, done.next_line,
        )  # fmt: skip

    return reported


async def _sweep(manager: RoomManager) -> None:
    while True:
        await asyncio.sleep(60)
        try:
            await manager.evict_idle()
        except Exception:
            log.exception("evicting idle rooms failed")


async def _websocket_session(scope: Scope, receive: Receive, send: Send) -> None:
    await websocket_endpoint(WebSocket(scope, receive, send))


class App(Starlette):
    """Starlette, with a short path for the game's WebSocket route.

    A WebSocket stays open for a whole game, so every coroutine of the stack that runs it stays
    suspended as long, with its frame, closures and cells: with Starlette's stack (its error
    and exception layers, the cluster's routing, the router, the route and the session, each
    exception layer with its own closures) about 140 objects the cyclic collector tracks per
    socket, walked by every full pass (server/collector.py). None of those layers acts on this
    route's sockets: the error layer and the cluster's routing act on HTTP only, the exception
    handlers answer HTTP errors, and the session catches its own errors. So a socket for
    ``/ws/{ref}`` (matched by the route itself) goes from here straight to the request context
    (its id and access line, the raw send) and the session; every other scope takes
    Starlette's whole stack.
    """

    def __init__(self, *args: Any, ws_route: WebSocketRoute, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ws_route = ws_route
        self.ws_stack = RequestContext(_websocket_session)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            match, child = self.ws_route.matches(scope)
            if match is Match.FULL:
                scope["app"] = self
                scope.update(child)
                await self.ws_stack(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings, clock: Clock | None = None) -> Starlette:
    metrics = Metrics()  # this app's own registry: two apps in one process never share one

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await SqlStore.open(settings.db, schema=settings.db_schema)
        games = settings.games()  # looked up once: the catalogue is fixed for a server's life
        manager = RoomManager(
            store,
            clock or RealClock(),
            bot_delay=settings.bot_delay,
            games=lambda: games,
            metrics=metrics,
        )
        app.state.manager = manager
        app.state.settings = settings
        app.state.metrics = metrics
        app.state.readiness = readiness.Readiness(settings, store)
        cluster: ClusterNode | None = None
        forwarder: Forwarder | None = None
        if settings.redis:
            leases = Leases.connect(
                settings.redis, settings.redis_prefix, settings.node, settings.lease_ttl
            )
            cluster = ClusterNode(manager, leases, settings.advertise, ttl=settings.lease_ttl)
            forwarder = Forwarder(settings.node, max_frame=4 * MAX_MESSAGE_BYTES)
            await cluster.start()  # unfinished rooms come back by the scan, on any node
            app.state.readiness.checks["cluster"] = cluster.serving
        else:
            restored = await manager.restore_all()
            log.info("restored %d unfinished rooms", restored)
        app.state.cluster = cluster
        app.state.forwarder = forwarder
        metrics.watch_round_trips(
            lambda: store.round_trips,
            (lambda: cluster.leases.tally.requests) if cluster is not None else None,
        )
        # The collector's pauses stop every room at once: keep them short (server/collector.py).
        settings.gc.apply()
        unwatch_gc = runtime.GcWatch(metrics).install()
        loop = asyncio.get_running_loop()
        background = [loop.create_task(_sweep(manager))]
        if settings.gc.freeze:
            collector = Collector(
                settings.gc,
                rooms=lambda: len(manager.rooms),
                reported=_full_pass_reporter(metrics),
            )
            # One wake-up for both: the collector ticks on the loop watcher's looks (every
            # --gc-young-every seconds, in looks of at most 0.1 s; telemetry/runtime.py).
            every = settings.gc.young_every
            interval = min(runtime.LAG_INTERVAL, every)
            looks = max(1, round(every / interval))
            watch = runtime.watch_loop_lag(metrics, interval, collector.tick, looks)
        else:
            watch = runtime.watch_loop_lag(metrics)
        background.append(loop.create_task(watch))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            unwatch_gc()
            if cluster is not None and forwarder is not None:
                await cluster.close()
                await forwarder.close()
            await manager.close()
            await app.state.readiness.close()
            await store.close()

    ws_route = WebSocketRoute("/ws/{ref}", websocket_endpoint)
    routes = [
        *http_api.ROUTES,
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/metrics", metrics_text, methods=["GET"]),
        ws_route,
        *static_files.routes(),
    ]
    app = App(
        routes=routes,
        ws_route=ws_route,
        middleware=[Middleware(RequestContext), Middleware(ClusterRouting)],
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, Exception: http_error},
    )
    app.state.metrics = metrics
    return app
