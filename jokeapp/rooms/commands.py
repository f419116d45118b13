"""Everything that can happen to a room, as one command each, handled in arrival order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from jokeapp.wire.protocol import ServerMessage


class Connection(Protocol):
    """One open WebSocket of one person; ``send`` never blocks."""

    def send(self, message: ServerMessage) -> None: ...

    def close(self, code: int) -> None: ...


@dataclass(frozen=True, slots=True, eq=False)
class Connect:
    conn: Connection
    token: str = field(repr=False)  # a secret: never in a log line


@dataclass(frozen=True, slots=True, eq=False)
class Disconnect:
    conn: Connection


@dataclass(frozen=True, slots=True, eq=False)
class ClientAction:
    conn: Connection
    client_seq: int
    action: dict[str, Any]
    received: float = 0.0  # time.perf_counter() when the frame arrived (0: unknown)


@dataclass(frozen=True, slots=True, eq=False)
class Resync:
    conn: Connection


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


@dataclass(frozen=True, slots=True)
class AwayCheck:
    """A disconnected seat's grace may have ended: send its new ``away`` state."""


@dataclass(frozen=True, slots=True)
class BotMove:
    player_id: str


@dataclass(frozen=True, slots=True)
class Join:
    nickname: str
    role: str  # player | spectator


@dataclass(frozen=True, slots=True)
class Leave:
    token: str = field(repr=False)  # a secret: never in a log line


@dataclass(frozen=True, slots=True)
class Start:
    token: str = field(repr=False)  # a secret: never in a log line


@dataclass(frozen=True, slots=True)
class AddBot:
    token: str = field(repr=False)  # a secret: never in a log line
    policy: str


@dataclass(frozen=True, slots=True)
class RemoveBot:
    token: str = field(repr=False)  # a secret: never in a log line
    player_id: str


@dataclass(frozen=True, slots=True)
class Kick:
    token: str = field(repr=False)  # a secret: never in a log line
    player_id: str


@dataclass(frozen=True, slots=True)
class SetOptions:
    token: str = field(repr=False)  # a secret: never in a log line
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Rematch:
    token: str = field(repr=False)  # a secret: never in a log line


@dataclass(frozen=True, slots=True)
class AfkAnswer:
    token: str = field(repr=False)  # a secret: never in a log line
    player_id: str
    choice: str  # kick | keep


@dataclass(frozen=True, slots=True)
class Info:
    pass


Command = (
    Connect
    | Disconnect
    | ClientAction
    | Resync
    | Timeout
    | AwayCheck
    | BotMove
    | Join
    | Leave
    | Start
    | AddBot
    | RemoveBot
    | Kick
    | SetOptions
    | Rematch
    | AfkAnswer
    | Info
)
