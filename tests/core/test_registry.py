"""The game registry fails loudly: a broken engine raises with its own error at startup
(it does not vanish from the catalogue), and an unknown id names the known ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import jokeapp.games as registry
from jokeapp.core.contract import AbsencePolicy
from jokeapp.games import GAME_IDS, GameLoadError, get_game, load_games
from jokeapp.rooms.manager import installed_games


@pytest.fixture
def broken_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Registers a game ``broken`` whose module has a syntax error."""
    (tmp_path / "broken.py").write_text("GAME = (\n", encoding="utf-8")
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path)])
    monkeypatch.setitem(registry.ENGINES, "broken", "jokeapp.games.broken")
    monkeypatch.delitem(sys.modules, "jokeapp.games.broken", raising=False)
    return "broken"


@pytest.fixture
def engine_without_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Registers a game ``hollow`` whose module imports but defines no GAME."""
    (tmp_path / "hollow.py").write_text("RULES = None\n", encoding="utf-8")
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path)])
    monkeypatch.setitem(registry.ENGINES, "hollow", "jokeapp.games.hollow")
    monkeypatch.delitem(sys.modules, "jokeapp.games.hollow", raising=False)
    return "hollow"


@pytest.fixture
def engine_without_absence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Registers a game ``careless`` whose GAME declares no absence policy."""
    (tmp_path / "careless.py").write_text(
        "from tests.rooms.fakegame import RaceGame\n"
        "class Careless(RaceGame):\n"
        "    absence = None\n"
        "GAME = Careless()\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path)])
    monkeypatch.setitem(registry.ENGINES, "careless", "jokeapp.games.careless")
    monkeypatch.delitem(sys.modules, "jokeapp.games.careless", raising=False)
    return "careless"


def test_every_registered_game_loads() -> None:
    games = load_games()
    assert list(games) == list(GAME_IDS)
    assert all(game.id == game_id for game_id, game in games.items())


def test_an_engine_with_a_syntax_error_raises_naming_the_game(broken_engine: str) -> None:
    with pytest.raises(
        GameLoadError, match=r"game broken: .*jokeapp\.games\.broken.*SyntaxError"
    ) as info:
        get_game(broken_engine)
    assert isinstance(info.value.__cause__, SyntaxError)


def test_the_server_catalogue_does_not_hide_a_broken_engine(broken_engine: str) -> None:
    with pytest.raises(GameLoadError, match="game broken"):
        installed_games((*GAME_IDS, broken_engine))


def test_an_engine_without_a_game_object_raises(engine_without_game: str) -> None:
    with pytest.raises(GameLoadError, match="game hollow: .*AttributeError"):
        installed_games((*GAME_IDS, engine_without_game))


def test_an_unknown_game_id_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="unknown game: chess .*games: marble, dalmuti"):
        get_game("chess")
    with pytest.raises(KeyError, match="unknown game: chess"):
        load_games(("marble", "chess"))


def test_an_engine_without_an_absence_policy_raises(engine_without_absence: str) -> None:
    with pytest.raises(GameLoadError, match="game careless: .*declares no absence policy"):
        installed_games((*GAME_IDS, engine_without_absence))


def test_every_game_declares_its_absence_policy() -> None:
    for game in load_games().values():
        assert isinstance(game.absence, AbsencePolicy)


def test_an_afk_offer_needs_the_decision_kind_it_counts() -> None:
    with pytest.raises(ValueError, match="afk_kind"):
        AbsencePolicy(afk_rounds=2)
