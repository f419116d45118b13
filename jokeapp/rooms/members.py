"""The people (and bots) of a room: seats with stable ids, spectators, and their tokens."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def token_key(token: str) -> str:
    """What the store keeps instead of the token itself, so a leaked database seats nobody."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    player_id: str
    nickname: str
    token_key: str | None  # None for a bot, or after the person left or was kicked
    bot_policy: str | None = None
    connected: bool = False
    disconnected_at: float | None = None
    timed_out_away: bool = False  # the timeout rule acted for them since they disconnected

    @property
    def bot(self) -> bool:
        return self.bot_policy is not None

    @property
    def gone(self) -> bool:
        """A person who left or was kicked mid-match: nobody will come back to this seat."""
        return self.bot_policy is None and self.token_key is None

    def info(self, host_id: str | None, away: bool = False) -> dict[str, Any]:
        return {
            "playerId": self.player_id,
            "nickname": self.nickname,
            "bot": self.bot,
            "connected": self.connected or self.bot,
            "host": self.player_id == host_id,
            "botPolicy": self.bot_policy,
            "away": away,
        }


@dataclass(slots=True)
class Spectator:
    token_key: str
    nickname: str


def seat_number(player_id: str) -> int:
    return int(player_id[1:])


def free_player_id(seats: dict[str, Seat], max_players: int) -> str | None:
    for number in range(1, max_players + 1):
        if f"p{number}" not in seats:
            return f"p{number}"
    return None


def next_host(seats: dict[str, Seat], leaving: str | None) -> str | None:
    """The next seated person after ``leaving`` in seat order; bots never host."""
    people = sorted(
        (s for s in seats.values() if not s.bot and not s.gone and s.player_id != leaving),
        key=lambda s: seat_number(s.player_id),
    )
    if not people:
        return None
    if leaving is None:
        return people[0].player_id
    after = [s for s in people if seat_number(s.player_id) > seat_number(leaving)]
    return (after or people)[0].player_id
