"""One game played in a room: its seed, its state and the number of steps applied."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jokeapp.core.bots import SeatKnowledge, seat_knowledge
from jokeapp.core.contract import Action, Event, Game, redacted
from jokeapp.core.record import Recorder


def new_seed() -> int:
    # 63 bits: out of reach of a brute-force search of the published hash during a game.
    return secrets.randbits(63)


def seed_hash(seed: int) -> str:
    """SHA-256 (hex) of the seed written as decimal digits, published at the start."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


@dataclass(slots=True)
class LoggedStep:
    actor: str
    action: Action
    auto: bool


@dataclass(slots=True)
class Match:
    game: Game[Any]
    number: int
    options: dict[str, Any]
    players: list[str]
    seed: int
    state: Any
    steps: int = 0
    setup_events: list[Event] = field(
        default_factory=list
    )  # what ``start`` produced (a draw, a deal)
    # Every event since the match began (or since the snapshot it was restored from): what
    # the bots' knowledge is made of, each seat getting its own copies.
    events: list[Event] = field(default_factory=list)
    # each seat's redacted copies of ``events[:n]``, extended on demand (a bot's move redacts
    # only what happened since its last one), or at each step for the seats it remembers
    _seen: dict[str, tuple[list[Event], int]] = field(default_factory=dict, repr=False)
    remembers: frozenset[str] | None = None  # see remember_only; None: every seat

    @classmethod
    def begin(
        cls,
        game: Game[Any],
        number: int,
        options: Mapping[str, Any],
        players: Sequence[str],
        seed: int,
    ) -> Match:
        state, setup_events = game.start(options, players, seed)
        return cls(
            game,
            number,
            dict(options),
            list(players),
            seed,
            state,
            0,
            setup_events,
            list(setup_events),
        )

    @classmethod
    def restore(
        cls,
        game: Game[Any],
        number: int,
        options: Mapping[str, Any],
        players: Sequence[str],
        seed: int,
        snapshot: tuple[int, Mapping[str, Any]] | None,
        tail: Iterable[LoggedStep],
    ) -> Match:
        """Rebuilds from a snapshot (step count, state JSON) or the start, then the tail."""
        if snapshot is None:
            match = cls.begin(game, number, options, players, seed)
        else:
            step, data = snapshot
            match = cls(
                game, number, dict(options), list(players), seed, game.from_json(data), step
            )
        for logged in tail:
            match.apply(logged.actor, logged.action)
        return match

    @property
    def seed_hash(self) -> str:
        return seed_hash(self.seed)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def apply(self, actor: str, action: Action) -> list[Event]:
        events = self.game.apply(self.state, actor, action)
        self.steps += 1
        if self.remembers is None:
            self.events.extend(events)
        else:
            for player in self.remembers:
                self._seen[player][0].extend(redacted(self.game, events, player))
        return events

    def remember_only(self, players: Iterable[str]) -> None:
        """Keeps the history for ``players`` alone from now on: the seats whose knowledge will
        be asked for (the bots). A room of people then holds no history at all; a bot's seat
        holds its own copies, which mostly are the events themselves (nothing to redact)."""
        keep = frozenset(players)
        for player in keep:
            self._catch_up(player)
        self._seen = {player: self._seen[player] for player in keep}
        self.remembers = keep
        self.events = []

    def _catch_up(self, player: str) -> list[Event]:
        copies, upto = self._seen.get(player, ([], 0))
        if self.remembers is None:
            copies.extend(redacted(self.game, self.events[upto:], player))
            self._seen[player] = (copies, len(self.events))
        return copies

    def knowledge(self, player: str, view: Mapping[str, Any] | None = None) -> SeatKnowledge:
        """What ``player``'s seat knows now, for a bot: a copy that later steps leave alone.
        A seat left out by ``remember_only`` knows the view alone, without the events.
        ``view``: the seat's view of the state now, if already built (``Room.bot_view``)."""
        copies = self._catch_up(player) if player in self._seen or self.remembers is None else []
        return seat_knowledge(self.game, self.state, player, tuple(copies), view)

    def record(self, log: Sequence[LoggedStep]) -> dict[str, Any]:
        """The DESIGN.md record, re-computed from the seed and the log."""
        recorder = Recorder.begin(self.game, self.options, self.players, self.seed)
        for logged in log:
            recorder.step(logged.actor, logged.action, logged.auto)
        return recorder.record
