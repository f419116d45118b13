"""`joke tables`: the fixed tables the client shows come from the engines (no copy in the client)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from jokeapp.core.contract import display_tables
from jokeapp.games import get_game
from jokeapp.games.dalmuti.data import rank_title
from jokeapp.games.marble.data import BOARD, BUILD_COST, CITY_TOLL, INVESTED
from jokeapp.server.tables import document

ROOT = Path(__file__).resolve().parents[1]


def test_joke_tables_prints_every_games_tables_as_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "jokeapp.cli", "tables"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == document()
    assert set(document()) == {"marble", "dalmuti"}


def test_the_marble_tables_are_the_engines_board_and_prices() -> None:
    tables = display_tables(get_game("marble"))
    assert [t["name"] for t in tables["board"]] == [t.name for t in BOARD]
    seoul = tables["board"][39]
    assert seoul == {"pos": 39, "name": "서울", "kind": "city", "group": "H", "price": 40}
    assert tables["cityTolls"]["39"] == list(CITY_TOLL[39]) == [8, 24, 60, 100, 160]
    assert tables["buildCosts"]["36"] == list(BUILD_COST[36][1:]) == [18, 35, 53, 70]  # half up
    assert tables["invested"]["39"] == list(INVESTED[39])
    assert tables["tourTolls"]["35"] == [12, 24]
    assert [c["id"] for c in tables["cards"]][:2] == ["L01", "L02"]


def test_the_card_game_tables_name_each_place_for_every_player_count() -> None:
    tables = display_tables(get_game("dalmuti"))
    assert tables["titles"]["4"] == ["대왕", "소왕", "소농노", "대농노"]
    for count in range(4, 9):
        assert tables["titles"][str(count)] == [rank_title(p, count) for p in range(count)]
    assert tables["cardNames"]["1"] == "왕" and tables["cardNames"]["13"] == "광대"


def test_a_game_without_tables_has_none() -> None:
    assert display_tables(object()) == {}
