"""`joke simulate` and `joke replay` through the real command-line entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jokeapp.cli import main

GAMES = [("marble", "4"), ("dalmuti", "5")]


def _simulate(tmp_path: Path, game: str, players: str, name: str, *extra: str) -> Path:
    log = tmp_path / name
    code = main(
        [
            "simulate",
            game,
            "--games",
            "3",
            "--players",
            players,
            "--seed",
            "11",
            "--bot",
            "random",
            "--log",
            str(log),
            "--quiet",
            *extra,
        ]
    )
    assert code == 0
    return log


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_same_arguments_give_a_byte_identical_log(tmp_path: Path, game: str, players: str) -> None:
    a = _simulate(tmp_path, game, players, "a.jsonl")
    b = _simulate(tmp_path, game, players, "b.jsonl")
    assert a.read_bytes() == b.read_bytes()
    assert len(a.read_text().splitlines()) == 3


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_records_follow_the_design_format(tmp_path: Path, game: str, players: str) -> None:
    log = _simulate(tmp_path, game, players, "r.jsonl", "--states")
    record = json.loads(log.read_text().splitlines()[0])
    assert list(record) == [
        "game",
        "options",
        "players",
        "seed",
        "initialState",
        "setupEvents",
        "steps",
        "result",
    ]
    assert record["game"] == game and record["seed"] == 11
    assert record["players"] == [f"p{i}" for i in range(1, int(players) + 1)]
    step = record["steps"][0]
    assert set(step) == {"actor", "action", "auto", "events", "state"}
    assert step["auto"] is False and all("type" in e for e in step["events"])
    assert record["result"] is not None
    assert "rng" in record["initialState"]  # records are omniscient, views are not


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_replay_verifies_a_simulated_log(
    tmp_path: Path, game: str, players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _simulate(tmp_path, game, players, "v.jsonl", "--states")
    assert main(["replay", str(log)]) == 0
    assert "3 records checked, 3 exact, 0 with differences" in capsys.readouterr().out


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_replay_reports_a_tampered_record(
    tmp_path: Path, game: str, players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _simulate(tmp_path, game, players, "t.jsonl")
    lines = log.read_text().splitlines()
    record = json.loads(lines[1])
    record["seed"] += 1  # other dice, other deals: the logged events can no longer match
    lines[1] = json.dumps(record, ensure_ascii=False)
    log.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(log)]) == 1
    out = capsys.readouterr().out
    assert "line 2" in out and "1 with differences" in out


def test_replay_reports_a_line_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    assert main(["replay", str(bad)]) == 1
    assert "line 1: not JSON" in capsys.readouterr().out


def test_unknown_option_is_rejected_with_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "marble", "--games", "1", "--option", "colour=red", "--quiet"]) == 2
    assert "colour" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_summary_prints_throughput_and_game_statistics(
    game: str, players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "simulate",
                game,
                "--games",
                "2",
                "--players",
                players,
                "--quiet",
                "--bot",
                "heuristic",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "games/s" in out and "actions/s" in out
    expected = "wins by seat" if game == "marble" else "revolutions"
    assert expected in out


def test_step_cap_cuts_off_an_unlimited_game_and_counts_it_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _simulate(
        tmp_path, "marble", "4", "cut.jsonl", "--option", "maxRounds=0", "--max-steps", "60"
    )
    out = capsys.readouterr().out
    assert "cut off at 60 steps (unfinished, no result): 3 of 3" in out
    assert "roundLimit" not in out
    for line in log.read_text().splitlines():
        record = json.loads(line)
        assert "result" not in record and record["cutOff"] == {"steps": 60}
        assert len(record["steps"]) == 60
    assert main(["replay", str(log)]) == 0
    assert "3 records checked, 3 exact, 0 with differences" in capsys.readouterr().out


def test_default_step_cap_is_stated_and_finished_games_are_not_cut_off(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "marble", "--games", "2", "--players", "2", "--quiet"]) == 0
    assert "cut off at 20,000 steps (unfinished, no result): 0 of 2" in capsys.readouterr().out


def test_replay_reports_a_cut_off_mark_on_a_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _simulate(tmp_path, "marble", "4", "f.jsonl")
    record = json.loads(log.read_text().splitlines()[0])
    del record["result"]
    record["cutOff"] = {"steps": len(record["steps"])}
    log.write_text(json.dumps(record, ensure_ascii=False) + "\n")
    assert main(["replay", str(log)]) == 1
    assert "cut off, but the game is over" in capsys.readouterr().out
