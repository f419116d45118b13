"""What a bot is given (DESIGN.md, "Bots"): its seat's knowledge, never the state.

A bot is ``(knowledge, rng, budget) -> action``. ``SeatKnowledge`` holds only what the seat
was shown: its view, its copies of the events since the game began, and the legal actions,
which each game computes from the view alone (``legal_actions_from_view``). Nothing in it
refers to the state, so a bot cannot peek by construction.

Search bots also get a ``Budget``: a number of iterations (deterministic for a given seed) and
optionally a way to ask whether time is up. The clock lives with the caller (rooms, the
tournament), because core and games read no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from jokeapp.core.contract import Action, Event, redacted

if TYPE_CHECKING:
    from jokeapp.core.contract import Game
    from jokeapp.core.rng import Rng

# Policy names accepted on input besides the levels (stored rooms still name the old ones).
ALIASES: Mapping[str, str] = {"heuristic": "normal"}
LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """Everything one seat knows: built from the state by ``seat_knowledge``, holding none of it."""

    player: str
    view: Mapping[str, Any]  # game.view(state, player)
    events: Sequence[Event]  # the seat's copies of every event since the game began, in order
    legal: Sequence[Action]  # game.legal_actions_from_view(view, player)


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search bot may think: at most ``iterations``, and stops early once
    ``out_of_time()`` says so (None: iterations only, so the same seed plays the same game)."""

    iterations: int
    out_of_time: Callable[[], bool] | None = None

    def spent(self, done: int) -> bool:
        if done >= self.iterations:
            return True
        return self.out_of_time is not None and done > 0 and self.out_of_time()


class Bot(Protocol):
    def __call__(
        self, knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None
    ) -> Action: ...


class BotLevels(Mapping[str, Bot]):
    """A game's bots by name. Iterates over its own names only; looking up also accepts the
    aliases (``heuristic`` is ``normal``), so stored rooms keep working."""

    def __init__(self, bots: Mapping[str, Bot]) -> None:
        self._bots = dict(bots)

    def _name(self, key: object) -> object:
        if isinstance(key, str) and key not in self._bots:
            return ALIASES.get(key, key)
        return key

    def __getitem__(self, key: str) -> Bot:
        return self._bots[str(self._name(key))]

    def __contains__(self, key: object) -> bool:
        return self._name(key) in self._bots

    def __iter__(self) -> Iterator[str]:
        return iter(self._bots)

    def __len__(self) -> int:
        return len(self._bots)


def level_name(bots: Mapping[str, Bot], key: str) -> str:
    """A policy's own name (``heuristic`` -> ``normal``): what a seat stores and shows."""
    return key if key in set(bots) else ALIASES.get(key, key)


def offered_levels(bots: Mapping[str, Bot]) -> list[str]:
    """The levels a host picks from for a seat (LEVELS a game has), easiest first; ``random``
    is for tests and the simulator."""
    names = set(bots)
    return [name for name in LEVELS if name in names]


def seat_knowledge(
    game: Game[Any], state: Any, player: str, events: Sequence[Event]
) -> SeatKnowledge:
    """The knowledge of ``player``'s seat; ``events`` are this seat's copies (see SeatLog)."""
    view = game.view(state, player)
    return SeatKnowledge(player, view, events, tuple(game.legal_actions_from_view(view, player)))


class SeatLog:
    """Each seat's copies of the events so far, kept as a game goes (redacted once each)."""

    def __init__(
        self, game: Game[Any], players: Sequence[str], setup_events: Iterable[Event] = ()
    ) -> None:
        self.game = game
        self.seen: dict[str, list[Event]] = {player: [] for player in players}
        self.add(setup_events)

    def add(self, events: Iterable[Event]) -> None:
        events = list(events)
        for player, seen in self.seen.items():
            seen.extend(redacted(self.game, events, player))

    def knowledge(self, state: Any, player: str) -> SeatKnowledge:
        return seat_knowledge(self.game, state, player, self.seen[player])
