"""The registry of games. ``get_game("marble")`` returns the game object."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from jokeapp.core.contract import Game

GAME_IDS = ("marble", "dalmuti")


def get_game(game_id: str) -> Game[Any]:
    if game_id not in GAME_IDS:
        raise KeyError(f"unknown game: {game_id} (games: {', '.join(GAME_IDS)})")
    module = import_module(f"jokeapp.games.{game_id}")
    game: Game[Any] = module.GAME
    return game
