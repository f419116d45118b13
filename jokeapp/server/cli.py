"""`joke serve`: runs the room server (uvicorn) on a SQLite file or a PostgreSQL database.

Each flag that takes a value also comes from the environment: ``--db`` from ``JOKE_DB``,
``--redis`` from ``JOKE_REDIS``, ``--lease-ttl`` from ``JOKE_LEASE_TTL`` and so on
(``env_name``); a flag on the command line wins over the variable.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import socket
from pathlib import Path
from types import FrameType

import uvicorn
from starlette.applications import Starlette

from jokeapp.argtypes import positive_int
from jokeapp.cluster.node import ClusterNode
from jokeapp.server import keepalive
from jokeapp.server.app import create_app
from jokeapp.server.collector import GcPolicy
from jokeapp.server.httpproto import UpgradingHttp
from jokeapp.server.settings import Settings
from jokeapp.server.wsframes import FramingProtocol
from jokeapp.telemetry import logs
from jokeapp.telemetry.metrics import Metrics
from jokeapp.wire.protocol import MAX_MESSAGE_BYTES

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def env_name(action: argparse.Action) -> str:
    """A flag's environment variable: ``--lease-ttl`` is ``JOKE_LEASE_TTL``."""
    return "JOKE_" + action.dest.upper()


def _from_environment(parser: argparse.ArgumentParser) -> None:
    """Every flag that takes one value also comes from its variable (``env_name``); a flag
    on the command line wins. A variable's text is parsed as the flag's would be (argparse
    converts a default given as text), so a bad value is the flag's own clear error."""
    for action in parser._actions:
        if not action.option_strings or action.nargs is not None or action.const is not None:
            continue  # -h and switches (--no-gc-freeze)
        if isinstance(action.default, list):
            continue  # a repeatable flag (--extra-game)
        name = env_name(action)
        action.help = f"{action.help} (env {name})" if action.help else f"env {name}"
        value = os.environ.get(name)
        if not value:
            continue
        if action.choices is not None:  # argparse checks a flag's choices, not a default's
            convert = action.type if callable(action.type) else str
            if convert(value) not in action.choices:
                known = ", ".join(map(str, action.choices))
                parser.error(f"{name}={value!r}: not one of {known}")
        action.default = value


def _port(text: str) -> int:
    port = int(text)
    if not 0 <= port < 65536:
        raise argparse.ArgumentTypeError(f"not a port: {text}")
    return port


def _gc_threshold(text: str) -> tuple[int, int, int]:
    try:
        a, b, c = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not three integers N0,N1,N2: {text}") from None
    if min(a, b, c) < 0:
        raise argparse.ArgumentTypeError(f"a threshold cannot be negative: {text}")
    return a, b, c


def _not_negative(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"not a number >= 0: {text}")
    return value


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"not a positive number: {text}")
    return value


HAND_OVER_LIMIT = 6.0  # seconds a stopping node spends letting its rooms go (exit within 10)
# Seconds between two looks of uvicorn's main loop (the Date header, the request limit); a stop
# wakes it at once. uvicorn's own looks every 0.1 s were 10 of an idle server's wake-ups a
# second (about 0.1 ms of CPU each on this 2-core VM).
MAIN_TICK = 1.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=_port, default="8000", help="port to listen on")
    parser.add_argument(
        "--db", default="var/joke.sqlite3", help="SQLite file path or postgresql:// URL"
    )
    parser.add_argument("--db-schema", default=None, help="PostgreSQL schema (default: public)")
    parser.add_argument(
        "--redis",
        default=None,
        help="redis:// URL of the cluster; without it: one process",
    )
    parser.add_argument(
        "--node",
        default=None,
        help="this node's name (default: hostname-port)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=1.0, help="seconds a bot waits before acting"
    )
    parser.add_argument(
        "--extra-game", action="append", default=[], help="module:ATTR of a test game"
    )
    parser.add_argument(
        "--rate", type=float, default=20.0, help="WebSocket messages per second per connection"
    )
    parser.add_argument(
        "--ws-ping",
        type=_not_negative,
        default=keepalive.INTERVAL,
        help="seconds a WebSocket may stay silent before it is pinged (0: no pings; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--ws-ping-timeout",
        type=_positive,
        default=keepalive.TIMEOUT,
        help="seconds a pinged WebSocket has to send anything before it is dropped "
        "(default %(default)s)",
    )
    parser.add_argument(
        "--auth-seconds",
        type=float,
        default=5.0,
        help="seconds a WebSocket has to send its auth message",
    )
    parser.add_argument(
        "--gc-threshold",
        type=_gc_threshold,
        default=GcPolicy().threshold,
        metavar="N0,N1,N2",
        help="the cyclic collector's thresholds (gc.set_threshold; default %(default)s)",
    )
    parser.add_argument(
        "--gc-young-every",
        type=_positive,
        default=GcPolicy().young_every,
        help="seconds between two short collector passes (default %(default)s)",
    )
    parser.add_argument(
        "--gc-young-skip-max",
        type=positive_int,
        default=GcPolicy().young_skip_max,
        help="the most ticks between two short passes, while they find nothing "
        "(1: a pass every tick; default %(default)s)",
    )
    parser.add_argument(
        "--gc-heap-every",
        type=_positive,
        default=GcPolicy().heap_every,
        help="seconds between two reads of the heap's size for a full pass (default %(default)s)",
    )
    parser.add_argument(
        "--gc-full-growth",
        type=_positive,
        default=GcPolicy().full_growth,
        help="a full collector pass once the heap grew by this share (default %(default)s)",
    )
    parser.add_argument(
        "--gc-full-growth-max",
        type=_positive,
        default=GcPolicy().full_growth_max,
        help="the share it grows to after a full pass that found little (default %(default)s)",
    )
    parser.add_argument(
        "--no-gc-freeze",
        action="store_true",
        help="CPython's own collector scheduling: no young passes, nothing frozen",
    )
    parser.add_argument(
        "--log-level",
        type=str.lower,
        choices=LOG_LEVELS,
        default="warning",
        help="debug, info (one access line per request), warning, error, critical",
    )
    cluster = parser.add_argument_group("cluster (docs/cluster.md; with --redis)")
    cluster.add_argument(
        "--advertise",
        default=None,
        help="URL the other nodes reach this one at (default: http://HOST:PORT)",
    )
    cluster.add_argument("--redis-prefix", default="joke", help="prefix of every Redis key")
    cluster.add_argument(
        "--lease-ttl", type=float, default=5.0, help="seconds a room's lease lives unrenewed"
    )
    _from_environment(parser)


def settings_from(args: argparse.Namespace) -> Settings:
    node = args.node or f"{socket.gethostname()}-{args.port}"
    return Settings(
        db=args.db,
        db_schema=args.db_schema,
        bot_delay=args.bot_delay,
        extra_games=tuple(args.extra_game),
        rate_per_second=args.rate,
        rate_burst=args.rate * 2,
        redis=args.redis,
        node=node,
        auth_seconds=args.auth_seconds,
        advertise=args.advertise or f"http://{_reachable(args.host)}:{args.port}",
        redis_prefix=args.redis_prefix,
        lease_ttl=args.lease_ttl,
        gc=GcPolicy(
            threshold=args.gc_threshold,
            freeze=not args.no_gc_freeze,
            young_every=args.gc_young_every,
            young_skip_max=args.gc_young_skip_max,
            heap_every=args.gc_heap_every,
            full_growth=args.gc_full_growth,
            full_growth_max=args.gc_full_growth_max,
        ),
    )


def main(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    logs.configure(args.log_level, settings.node)
    if "://" not in args.db and args.db != ":memory:":
        Path(args.db).expanduser().parent.mkdir(parents=True, exist_ok=True)
    app = create_app(settings)
    pinged = keepalive.Tally()  # the sweep's pings and drops, read by /metrics
    metrics: Metrics = app.state.metrics
    metrics.watch_keepalive(lambda: pinged.pings, lambda: pinged.dropped)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_config=None,  # logs.configure set up every logger: JSON lines
        log_level=args.log_level,
        access_log=False,  # the app writes its own access line (path only, with request id)
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        # Views are small and mostly fresh numbers; compressing each frame cost more CPU than
        # it saved bytes under load.
        ws_per_message_deflate=False,
        # A phone that closes the page without a close frame (killed tab, lost network) is
        # noticed by its silence: one sweep for every socket pings those silent for --ws-ping
        # seconds and drops those still silent --ws-ping-timeout seconds later (at most 3 + 1
        # + 3 s after its last frame by default; server/keepalive.py). uvicorn's own
        # per-socket ping timers are off. The protocol under it is uvicorn's websockets-sansio
        # with data frames the short way (server/wsframes.py).
        http=UpgradingHttp,  # httptools, freed at once after a WebSocket upgrade
        ws=keepalive.protocol(
            args.ws_ping, args.ws_ping_timeout, base=FramingProtocol, tally=pinged
        ),
        ws_ping_interval=None,
        ws_ping_timeout=None,
        timeout_graceful_shutdown=2,
    )
    NodeServer(config, app).run()
    return 0


def _reachable(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


class NodeServer(uvicorn.Server):
    """On SIGTERM/SIGINT a cluster node first hands its rooms over (docs/cluster.md), then
    uvicorn stops as usual; one process without a cluster stops as it always did."""

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        self._stop: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None
        super().__init__(config)
        self.app = app
        self._handing_over: asyncio.Future[None] | None = None

    @property
    def should_exit(self) -> bool:
        return self._should_exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        """Set by a signal, a failed start-up or a hand-over done: wakes ``main_loop``."""
        self._should_exit = value
        if value and self._stop is not None:
            loop, stop = self._stop
            loop.call_soon_threadsafe(stop.set)  # a signal handler may be what set it

    async def main_loop(self) -> None:
        """uvicorn's, looking every ``MAIN_TICK`` seconds instead of every 0.1 s, and at once
        when ``should_exit`` is set; each look updates the Date header (uvicorn's every
        tenth look of 0.1 s: once a second, as here)."""
        stop = asyncio.Event()
        self._stop = (asyncio.get_running_loop(), stop)
        should_exit = await self.on_tick(0)
        while not should_exit:
            if not self.should_exit:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(MAIN_TICK):
                        await stop.wait()
            should_exit = await self.on_tick(0)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        cluster: ClusterNode | None = getattr(self.app.state, "cluster", None)
        if cluster is None or self._handing_over is not None:
            super().handle_exit(sig, frame)
            return
        loop = asyncio.get_running_loop()
        self._handing_over = loop.create_future()  # once: a second signal stops at once
        loop.call_soon_threadsafe(lambda: loop.create_task(self._hand_over(sig, frame)))

    async def _hand_over(self, sig: int, frame: FrameType | None) -> None:
        cluster: ClusterNode = self.app.state.cluster
        try:
            async with asyncio.timeout(HAND_OVER_LIMIT):
                await cluster.hand_over()
        except Exception:
            logging.getLogger(__name__).exception("handing the rooms over failed")
        super().handle_exit(sig, frame)
