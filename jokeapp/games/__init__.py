"""The registry of games: each game id names the package whose ``GAME`` is that game.

Adding a game is its package under ``jokeapp/games/<id>/`` plus one line in ``ENGINES``;
rooms, the server's catalogue, the simulator, records and schemas all read this registry
(the simulator also takes the game's own statistics, ``GAME.stats``, when it has them).
``register_game`` adds a game kept elsewhere the same way (the tests' fake games).

Every registered id must load: an engine that fails to import raises, naming the game and
carrying the module's own error, rather than quietly leaving the catalogue. The registry is
a catalogue of modules, not game data: no game's rules read it.
"""

from __future__ import annotations

from collections.abc import Iterable, KeysView
from importlib import import_module
from typing import Any

from jokeapp.core.contract import AbsencePolicy, Game

# game id -> the module that defines GAME. One line per game.
ENGINES: dict[str, str] = {
    "marble": "jokeapp.games.marble",
    "dalmuti": "jokeapp.games.dalmuti",
}

# Every registered id, in registration order; a live view, so it includes later registrations.
GAME_IDS: KeysView[str] = ENGINES.keys()


class GameLoadError(ImportError):
    """A registered game's engine could not be loaded (its error is the ``__cause__``)."""


def register_game(game_id: str, module_name: str) -> None:
    """Registers the game ``module_name.GAME`` as ``game_id``; an id is registered once."""
    if game_id in ENGINES and ENGINES[game_id] != module_name:
        raise ValueError(f"game {game_id} is already registered as {ENGINES[game_id]}")
    ENGINES[game_id] = module_name


def unregister_game(game_id: str) -> None:
    """Takes ``game_id`` out of the registry (a test's fake game, once the test is done)."""
    ENGINES.pop(game_id, None)


def get_game(game_id: str) -> Game[Any]:
    """The game registered as ``game_id``; KeyError naming the known ids for any other."""
    module_name = ENGINES.get(game_id)
    if module_name is None:
        raise KeyError(f"unknown game: {game_id} (games: {', '.join(ENGINES)})")
    try:
        module = import_module(module_name)
        game: Game[Any] = module.GAME
    except Exception as exc:  # a syntax error, a missing name, a failing import ...
        raise GameLoadError(
            f"game {game_id}: its engine {module_name} failed to load: {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(getattr(game, "absence", None), AbsencePolicy):
        raise GameLoadError(
            f"game {game_id}: its engine {module_name} declares no absence policy "
            "(GAME.absence, a jokeapp.core.contract.AbsencePolicy)"
        )
    return game


def load_games(ids: Iterable[str] | None = None) -> dict[str, Game[Any]]:
    """Every game of ``ids`` (default: every registered one) by id; raises on the first
    unknown id or broken engine."""
    return {game_id: get_game(game_id) for game_id in (GAME_IDS if ids is None else ids)}
