"""`joke tournament`: seats rotated, shares with Wilson intervals, JSON shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jokeapp.cli import main
from jokeapp.sim.tournament import run, seating, wilson


def test_wilson_interval_matches_the_known_values() -> None:
    lo, hi = wilson(60, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.5020, 0.6906)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_each_bot_sits_in_each_seat_equally_often() -> None:
    seats = [seating(["a", "b", "c"], 4, g) for g in range(6)]
    for seat in range(4):
        column = [row[seat] for row in seats]
        assert sorted(column) == ["a", "a", "b", "b", "c", "c"]


def test_every_deal_is_played_in_every_rotation() -> None:
    played = run("marble", ["easy", "normal"], 4, 2, 7, {"maxRounds": 15})
    assert played.bots["easy"].seats == played.bots["normal"].seats == 4
    assert played.pairs[("easy", "normal")].games == 4


def test_two_workers_give_the_figures_of_one() -> None:
    def figures(workers: int) -> dict[str, Any]:
        played = run("marble", ["easy", "random"], 12, 2, 5, {"maxRounds": 15}, workers=workers)
        summary = played.summary()
        for entry in summary["bots"].values():
            entry.pop("moveMs")  # the one figure that depends on the machine
        return summary

    one, two = figures(1), figures(2)
    assert one == two
    assert one["bots"]["easy"]["games"] == 12


def test_games_cut_off_at_the_step_cap_are_counted_apart() -> None:
    # maxRounds=0 ends only by bankruptcy: a game stopped at the cap has no result to rank
    played = run("marble", ["random", "easy"], 2, 2, 1, {"maxRounds": 0}, max_steps=30)
    assert played.cut_off == 2
    assert played.bots["random"].games == played.bots["easy"].games == 0
    assert played.summary()["cutOff"] == 2


@pytest.mark.parametrize(("game", "players"), [("marble", "2"), ("dalmuti", "4")])
def test_json_output_has_bots_and_pairs_with_intervals(
    capsys: pytest.CaptureFixture[str], game: str, players: str
) -> None:
    code = main(
        [
            "tournament",
            game,
            "--bots",
            "random,normal",
            "--games",
            "4",
            "--players",
            players,
            "--seed",
            "3",
            "--json",
            "--option",
            "rounds=1" if game == "dalmuti" else "maxRounds=15",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["bots"]) == {"random", "normal"}
    for entry in out["bots"].values():
        assert {"games", "share", "ci", "moveMs"} <= set(entry)
        lo, hi = entry["ci"]
        assert 0 <= lo <= entry["share"] <= hi <= 1
    assert abs(out["bots"]["random"]["share"] + out["bots"]["normal"]["share"] - 1) < 1e-3
    (pair,) = out["pairs"]
    assert (pair["a"], pair["b"], pair["games"]) == ("random", "normal", 4)
    assert pair["share"] == pytest.approx(out["bots"]["random"]["share"], abs=1e-3)


def test_the_same_command_prints_the_same_shares(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "tournament",
        "dalmuti",
        "--bots",
        "hard,easy",
        "--games",
        "2",
        "--players",
        "4",
        "--budget",
        "5",
        "--json",
        "--option",
        "rounds=1",
    ]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    again = json.loads(capsys.readouterr().out)
    for out in (first, again):
        for entry in out["bots"].values():
            del entry["moveMs"]  # the clock, not the games
    assert first == again


def test_bad_bots_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "marble", "--bots", "normal,genius"]) == 2
    assert main(["tournament", "marble", "--bots", "normal,normal"]) == 2
    assert "two or more different bots" in capsys.readouterr().err
