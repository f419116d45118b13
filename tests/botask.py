"""Asking a bot the way the simulator and rooms do: with its seat's knowledge, never the state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jokeapp.core.bots import Budget, seat_knowledge
from jokeapp.core.contract import Action, Event, Game, redacted
from jokeapp.core.rng import Rng


def ask(
    game: Game[Any],
    bot: str,
    state: Any,
    player: str,
    rng: Rng,
    events: Sequence[Event] = (),
    budget: Budget | None = None,
) -> Action:
    """``bot``'s move for ``player``; ``events`` are the game's events so far (all of them:
    the seat gets its own copies)."""
    knowledge = seat_knowledge(game, state, player, tuple(redacted(game, events, player)))
    return game.bots[bot](knowledge, rng, budget)
