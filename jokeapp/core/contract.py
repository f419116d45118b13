"""The protocol every game implements (see DESIGN.md, "The game contract")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

Action = dict[str, Any]
Event = dict[str, Any]

S = TypeVar("S")

if TYPE_CHECKING:
    from jokeapp.core.bots import Bot

# Bots (core/bots.py) decide from their seat's knowledge only, never the state, and draw their
# randomness from their own Rng, never the game's.


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One row of a spec's options table."""

    key: str
    choices: tuple[Any, ...]
    default: Any
    label: str  # Korean description shown when creating a room


@dataclass(frozen=True, slots=True)
class Pending:
    """A player who must act now.

    ``seconds`` is the time budget the rules give this decision (None: no limit);
    the server turns it into a deadline with its own clock.
    """

    player: str
    kind: str
    seconds: int | None


class Game(Protocol, Generic[S]):
    """A game's rules. Pure: state in, events out; no clock, I/O or global state."""

    id: str
    title: str  # the display name (Korean)
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    bots: Mapping[str, Bot]  # "random", "easy", "normal", "hard" (core.bots.BotLevels)

    def start(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> tuple[S, list[Event]]:
        """Validates options and players; returns the first state and setup's events."""
        ...

    def setup(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> S: ...

    def apply(self, state: S, actor: str, action: Action) -> list[Event]:
        """Validates fully, then changes ``state``. Raises IllegalAction, changing nothing."""
        ...

    def pending(self, state: S) -> list[Pending]: ...

    def on_timeout(self, state: S, player: str) -> Action: ...

    def view(self, state: S, viewer: str | None) -> dict[str, Any]: ...

    def redact_event(self, event: Event, viewer: str | None) -> Event | None:
        """The copy of ``event`` that ``viewer`` may see (None: not sent to them)."""
        ...

    def legal_actions(self, state: S, player: str) -> list[Action]: ...

    def legal_actions_from_view(self, view: Mapping[str, Any], player: str) -> list[Action]:
        """``legal_actions(state, player)`` computed from ``view(state, player)`` alone."""
        ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> dict[str, Any] | None: ...

    def to_json(self, state: S) -> dict[str, Any]: ...

    def from_json(self, data: Mapping[str, Any]) -> S: ...
