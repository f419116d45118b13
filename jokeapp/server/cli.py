"""`joke serve`: runs the room server (uvicorn) on a SQLite file or a PostgreSQL database."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import uvicorn

from jokeapp.server.app import create_app
from jokeapp.server.settings import Settings
from jokeapp.wire.protocol import MAX_MESSAGE_BYTES

WS_PING_INTERVAL = 3.0  # seconds between the server's pings on each WebSocket
WS_PING_TIMEOUT = 4.0  # seconds a pong may take before the connection counts as dead


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--db", default="var/joke.sqlite3", help="SQLite file path or postgresql:// URL"
    )
    parser.add_argument("--db-schema", default=None, help="PostgreSQL schema (default: public)")
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
        type=float,
        default=WS_PING_INTERVAL,
        help="seconds between WebSocket pings (a dead page is dropped ~4 s after a missed pong)",
    )
    parser.add_argument("--log-level", default="warning")


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    if "://" not in args.db and args.db != ":memory:":
        Path(args.db).expanduser().parent.mkdir(parents=True, exist_ok=True)
    settings = Settings(
        db=args.db,
        db_schema=args.db_schema,
        bot_delay=args.bot_delay,
        extra_games=tuple(args.extra_game),
        rate_per_second=args.rate,
        rate_burst=args.rate * 2,
    )
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        # Views are small and mostly fresh numbers; compressing each frame cost more CPU than
        # it saved bytes under load.
        ws_per_message_deflate=False,
        # A phone that closes the page without a close frame (killed tab, lost network) is
        # noticed by its missing pong: at most 3 + 4 s later the room shows it disconnected.
        ws_ping_interval=args.ws_ping,
        ws_ping_timeout=WS_PING_TIMEOUT,
        timeout_graceful_shutdown=2,
    )
    return 0
