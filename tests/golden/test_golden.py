"""Golden playthroughs: each file is replayed from its header and must match line for line.

A difference means rules, views, events or bots changed; if that is intended, rewrite the
files with `make golden` and review their diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jokeapp.sim.golden import (
    PLAYTHROUGHS,
    SUFFIX,
    first_difference,
    read_header,
    render_from_header,
    view_changes,
)

HERE = Path(__file__).parent
FILES = sorted(HERE.glob(f"*{SUFFIX}"))
HINT = "run `make golden` if the change is intended"


def test_every_playthrough_has_its_file_and_no_file_is_stale() -> None:
    assert sorted(p.name for p in FILES) == sorted(play.name for play in PLAYTHROUGHS), HINT


def test_there_are_playthroughs_of_both_games_with_default_and_other_options() -> None:
    heads = [read_header(p.read_text(encoding="utf-8")) for p in FILES]
    for game in ("marble", "dalmuti"):
        mine = [h for h in heads if h["game"] == game]
        assert len(mine) >= 3
        assert {bot for h in mine for bot in h["bots"].values()} == {"random", "heuristic"}
    assert sum(p.stat().st_size for p in FILES) < 6_000_000


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays_exactly_from_its_header(path: Path) -> None:
    stored = path.read_text(encoding="utf-8")
    problem = first_difference(stored, render_from_header(stored), path.name)
    if problem is not None:
        pytest.fail(
            f"{path.name} differs from a replay of its header; {HINT}.\n{problem}", pytrace=False
        )


def test_a_changed_line_is_reported_with_its_block_and_a_unified_diff() -> None:
    stored = 'game: 1\n\n== step 1\nactor: "p1"\nview p1:\n  set /round 1\n'
    replayed = stored.replace("set /round 1", "set /round 2")
    problem = first_difference(stored, replayed, "x.txt")
    assert problem is not None
    assert "line 6, in block '== step 1'" in problem
    assert "-  set /round 1" in problem and "+  set /round 2" in problem
    assert first_difference(stored, stored, "x.txt") is None


def test_view_changes_are_json_pointer_sets_and_deletes() -> None:
    before = {"a": {"b": 1, "c": [1]}, "d~/": 0, "gone": {"x": 1}}
    after = {"a": {"b": 2, "c": [1]}, "d~/": 0, "new": {}}
    assert view_changes(before, after) == ["del /gone/x", "set /a/b 2", "set /new {}"]
    assert view_changes({}, {"k": "값"}) == ['set /k "값"']
