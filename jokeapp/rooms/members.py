"""The people (and bots) of a room: seats with stable ids, spectators, and their tokens."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field


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

    def came_back(self) -> None:
        self.connected = True
        self.disconnected_at = None
        self.timed_out_away = False

    def went_away(self, now: float) -> None:
        self.connected = False
        self.disconnected_at = now

    def left(self) -> None:
        """The person left or was kicked mid-match: the token is void, the seat stays."""
        self.token_key = None
        self.connected = False

    def timed_out_while_away(self) -> None:
        self.timed_out_away = True  # from now on the timeout rules play for them: away


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


@dataclass
class Members:
    """Who is in a room: the seats by player id, the spectators by token key, and the host."""

    seats: dict[str, Seat] = field(default_factory=dict)
    spectators: dict[str, Spectator] = field(default_factory=dict)
    host_id: str | None = None
    # the seat last found for a token key: asked for by every message and every update
    _found: dict[str, Seat] = field(default_factory=dict, repr=False, compare=False)

    def seat_of(self, key: str) -> Seat | None:
        seat = self._found.get(key)
        # still that key's seat: the same key, and still the seat of its player id
        if seat is not None and seat.token_key == key and self.seats.get(seat.player_id) is seat:
            return seat
        for seat in self.seats.values():
            if seat.token_key == key:
                self._found[key] = seat
                return seat
        self._found.pop(key, None)
        return None

    def viewer_of(self, key: str) -> str | None:
        seat = self.seat_of(key)
        return seat.player_id if seat is not None else None

    def bot_players(self) -> list[str]:
        return [player for player, seat in self.seats.items() if seat.bot]

    def has_bots(self) -> bool:
        for seat in self.seats.values():  # noqa: SIM110 (asked at every update: no generator)
            if seat.bot_policy is not None:
                return True
        return False

    def is_bot(self, player: str) -> bool:
        seat = self.seats.get(player)
        return seat is not None and seat.bot

    def people_left(self) -> bool:
        """Whether any person still holds a seat (connected or not); bots never play alone."""
        return any(not s.bot and not s.gone for s in self.seats.values())

    def in_seat_order(self) -> list[Seat]:
        return sorted(self.seats.values(), key=lambda s: seat_number(s.player_id))

    def free_player_id(self, max_players: int) -> str | None:
        return free_player_id(self.seats, max_players)

    def sit(self, seat: Seat) -> bool:
        """Seats ``seat``; True if its person became the host (the room had none)."""
        self.seats[seat.player_id] = seat
        if self.host_id is None and not seat.bot:
            self.host_id = seat.player_id
            return True
        return False

    def unseat(self, player_id: str) -> None:
        del self.seats[player_id]

    def pass_host(self, leaving: str) -> bool:
        """If ``leaving`` hosts, the next seated person does; True if the host changed."""
        if self.host_id != leaving:
            return False
        self.host_id = next_host(self.seats, leaving)
        return True

    def gone(self) -> list[Seat]:
        """Seats of people who left or were kicked during the match: nobody comes back."""
        return [s for s in self.seats.values() if s.gone]

    def spectator_name(self) -> str:
        """ "관전자 N" with the smallest N no spectator of the room is using."""
        taken = {s.nickname for s in self.spectators.values()}
        number = 1
        while f"관전자 {number}" in taken:
            number += 1
        return f"관전자 {number}"
