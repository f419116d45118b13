"""Everything that can happen to a room, as one command each, handled in arrival order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from jokeapp.wire.protocol import ServerMessage


class Connection(Protocol):
    """One open WebSocket of one person; ``send`` never blocks."""

    def send(self, message: ServerMessage) -> None: ...

    def close(self, code: int) -> None: ...


@dataclass(frozen=True, slots=True, eq=False)
class Connect:
    conn: Connection
    token: str


@dataclass(frozen=True, slots=True, eq=False)
class Disconnect:
    conn: Connection


@dataclass(frozen=True, slots=True, eq=False)
class ClientAction:
    conn: Connection
    client_seq: int
    action: dict[str, Any]


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
    token: str


@dataclass(frozen=True, slots=True)
class Start:
    token: str


@dataclass(frozen=True, slots=True)
class AddBot:
    token: str
    policy: str


@dataclass(frozen=True, slots=True)
class RemoveBot:
    token: str
    player_id: str


@dataclass(frozen=True, slots=True)
class Kick:
    token: str
    player_id: str


@dataclass(frozen=True, slots=True)
class SetOptions:
    token: str
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Rematch:
    token: str


@dataclass(frozen=True, slots=True)
class AfkAnswer:
    token: str
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
