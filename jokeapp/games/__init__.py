"""The registry of games. ``get_game("marble")`` returns the game object.

Every id of ``GAME_IDS`` must load: an engine that fails to import raises, naming the game
and carrying the module's own error, rather than quietly leaving the catalogue.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from jokeapp.core.contract import Game

GAME_IDS = ("marble", "dalmuti")


class GameLoadError(ImportError):
    """A registered game's engine could not be loaded (its error is the ``__cause__``)."""


def get_game(game_id: str) -> Game[Any]:
    """The game registered as ``game_id``; KeyError naming the known ids for any other."""
    if game_id not in GAME_IDS:
        raise KeyError(f"unknown game: {game_id} (games: {', '.join(GAME_IDS)})")
    module_name = f"jokeapp.games.{game_id}"
    try:
        module = import_module(module_name)
        game: Game[Any] = module.GAME
    except Exception as exc:  # a syntax error, a missing name, a failing import ...
        raise GameLoadError(
            f"game {game_id}: its engine {module_name} failed to load: {type(exc).__name__}: {exc}"
        ) from exc
    return game


def load_games(ids: tuple[str, ...] = GAME_IDS) -> dict[str, Game[Any]]:
    """Every game of ``ids`` by id; raises on the first unknown id or broken engine."""
    return {game_id: get_game(game_id) for game_id in ids}
