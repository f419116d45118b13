"""How a server is set up: where its store is, how fast bots move, which games it offers."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from jokeapp.core.contract import Game
from jokeapp.rooms.manager import installed_games
from jokeapp.server.collector import GcPolicy


@dataclass(frozen=True)
class Settings:
    db: str = "var/joke.sqlite3"  # a SQLite path or a postgresql:// URL
    db_schema: str | None = None  # PostgreSQL only: the schema to use (tests)
    bot_delay: float = 1.0  # seconds a bot "thinks" before acting
    extra_games: tuple[str, ...] = field(default_factory=tuple)  # "module:ATTR", for tests
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    # The cluster's Redis (redis://host:port/db): nodes sharing it and the database form one
    # service (jokeapp.cluster, docs/cluster.md). None: one process holds every room, as
    # `make run` starts it.
    redis: str | None = None
    node: str = (
        "local"  # this node's name, unique in the cluster: in every log line, a room's owner
    )
    auth_seconds: float = 5.0  # a WebSocket must send its `auth` message within this time
    advertise: str = "http://127.0.0.1:8000"  # where the other nodes reach this one
    redis_prefix: str = "joke"  # every Redis key of the cluster starts with it
    lease_ttl: float = 5.0  # seconds a room's lease lives unrenewed (a dead node's rooms move)
    gc: GcPolicy = field(default_factory=GcPolicy)  # the collector's, from start-up on

    def games(self) -> dict[str, Game[Any]]:
        found = installed_games()
        for spec in self.extra_games:
            module_name, _, attr = spec.partition(":")
            game: Game[Any] = getattr(import_module(module_name), attr or "GAME")
            found[game.id] = game
        return found
