"""Rebuilding a game from its seed and action log."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from jokeapp.core.contract import Action, Event, Game


def replay(
    game: Game[Any],
    options: Mapping[str, Any],
    players: Sequence[str],
    seed: int,
    log: Iterable[tuple[str, Action]],
) -> Any:
    """The state after applying every ``(actor, action)`` of ``log`` from the start."""
    frames = walk(game, options, players, seed, log)
    state, _ = next(frames)
    for _ in frames:
        pass  # walk changes the one state in place
    return state


def replay_events(
    game: Game[Any],
    options: Mapping[str, Any],
    players: Sequence[str],
    seed: int,
    log: Iterable[tuple[str, Action]],
) -> tuple[Any, list[Event], list[list[Event]]]:
    """Like ``replay``, also returning setup's events and each step's events."""
    frames = walk(game, options, players, seed, log)
    state, setup_events = next(frames)
    steps = [events for _, events in frames]
    return state, setup_events, steps


def walk(
    game: Game[Any],
    options: Mapping[str, Any],
    players: Sequence[str],
    seed: int,
    log: Iterable[tuple[str, Action]],
) -> Iterator[tuple[Any, list[Event]]]:
    """``(state, events)`` after setup, then after each step of ``log``. The state is the one
    live object, changed in place by the next step: read what you need before going on."""
    state, setup_events = game.start(options, players, seed)
    yield state, setup_events
    for actor, action in log:
        yield state, game.apply(state, actor, action)
