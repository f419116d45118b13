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


@dataclass
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
    # only what happened since its last one)
    _seen: dict[str, tuple[list[Event], int]] = field(default_factory=dict, repr=False)

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
        self.events.extend(events)
        return events

    def knowledge(self, player: str) -> SeatKnowledge:
        """What ``player``'s seat knows now, for a bot: a copy that later steps leave alone."""
        copies, upto = self._seen.get(player, ([], 0))
        copies.extend(redacted(self.game, self.events[upto:], player))
        self._seen[player] = (copies, len(self.events))
        return seat_knowledge(self.game, self.state, player, tuple(copies))

    def record(self, log: Sequence[LoggedStep]) -> dict[str, Any]:
        """The DESIGN.md record, re-computed from the seed and the log."""
        recorder = Recorder.begin(self.game, self.options, self.players, self.seed)
        for logged in log:
            recorder.step(logged.actor, logged.action, logged.auto)
        return recorder.record
