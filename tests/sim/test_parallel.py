"""`joke simulate --workers N`: the same records and statistics as one process (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jokeapp.cli import main
from jokeapp.core.options import resolve_options
from jokeapp.games import get_game
from jokeapp.sim.play import play_recorded, player_ids
from jokeapp.sim.progress import ProgressBar
from jokeapp.sim.stats import stats_for

GAMES = [("marble", "4"), ("dalmuti", "5")]


def _run(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game: str,
    players: str,
    seed: int,
    workers: int,
    *extra: str,
) -> tuple[bytes, list[str]]:
    log = tmp_path / f"{game}-{seed}-{workers}.jsonl"
    code = main(
        [
            "simulate",
            game,
            "--games",
            "13",
            "--players",
            players,
            "--seed",
            str(seed),
            "--log",
            str(log),
            "--quiet",
            "--workers",
            str(workers),
            *extra,
        ]
    )
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    return log.read_bytes(), [line for line in out if not line.startswith("throughput:")]


@pytest.mark.parametrize(("game", "players"), GAMES)
@pytest.mark.parametrize("seed", [1, 77, 2026])
def test_two_workers_write_what_one_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, players: str, seed: int
) -> None:
    one_log, one_out = _run(tmp_path, capsys, game, players, seed, 1)
    two_log, two_out = _run(tmp_path, capsys, game, players, seed, 2)
    assert two_log == one_log
    assert two_out == one_out
    assert len(one_log.splitlines()) == 13


def test_records_come_in_game_order_with_states_and_heuristic_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one_log, one_out = _run(tmp_path, capsys, "marble", "3", 5, 1, "--states", "--bot", "heuristic")
    three_log, three_out = _run(
        tmp_path, capsys, "marble", "3", 5, 3, "--states", "--bot", "heuristic"
    )
    assert three_log == one_log and three_out == one_out


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_merged_batches_give_the_statistics_of_one_pass(game: str, players: str) -> None:
    g = get_game(game)
    options = resolve_options(g.options, {})
    ids = player_ids(int(players))
    bots = {p: g.bots["random"] for p in ids}
    played = [play_recorded(g, options, ids, seed, bots) for seed in range(40, 52)]
    whole = stats_for(g)
    for p in played:
        whole.add(p.record, p.state)
    merged = stats_for(g)
    for part in (played[:5], played[5:6], played[6:]):
        batch = stats_for(g)
        for p in part:
            batch.add(p.record, p.state)
        merged.merge(batch)
    assert merged.lines() == whole.lines()


def test_the_progress_bar_reaches_the_total_with_workers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[int] = []
    original = ProgressBar.update

    def spy(self: ProgressBar, done: int) -> None:
        seen.append(done)
        original(self, done)

    monkeypatch.setattr(ProgressBar, "update", spy)
    assert main(["simulate", "marble", "--games", "40", "--players", "2", "--workers", "2"]) == 0
    assert seen == sorted(seen) and seen[-1] == 40
    assert "40/40" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0", "-1", "two"])
def test_a_bad_worker_count_is_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "marble", "--workers", bad])
    assert exc.value.code == 2
    assert "argument --workers: must be" in capsys.readouterr().err
