"""Engine throughput: whole bot games, one process on one core, medians of several runs.

The games are played the way the simulator plays them (``sim.play.play_fast``: each bot asked
with its seat's knowledge through ``core.bots.SeatLog``), and timed by the process's CPU
time: on a shared machine the wall clock also counts the time other processes held the core.

``python -m jokeapp.bench.engines --run R ...`` plays run R of both games in this process and
prints its figures as JSON, with the engines it ran (``pure`` or ``compiled``, from
``jokeapp.compiled``): ``interleaved`` runs the pure and the compiled engines in child
processes of their own, one run of each in turn, so a busy spell of the machine falls on both.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jokeapp import compiled
from jokeapp.bench.machine import pin_to_one_core
from jokeapp.core.options import resolve_options
from jokeapp.games import get_game
from jokeapp.sim.play import play_fast, player_ids


@dataclass(frozen=True, slots=True)
class Figure:
    name: str
    unit: str
    runs: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)


def _timed_games(game_id: str, players: int, games: int, first_seed: int) -> tuple[float, int, Any]:
    game = get_game(game_id)
    options = resolve_options(game.options, {})
    ids = player_ids(players)
    policy = game.bots["random"]
    steps = 0
    states = []
    started = time.process_time()
    for seed in range(first_seed, first_seed + games):
        state, n = play_fast(game, options, ids, seed, policy)
        steps += n
        states.append(state)
    return time.process_time() - started, steps, states


def _merged(runs: list[list[Figure]]) -> list[Figure]:
    return [Figure(f.name, f.unit, [r[i].runs[0] for r in runs]) for i, f in enumerate(runs[0])]


def marble(runs: int, games: int) -> list[Figure]:
    return _merged([_marble_run(r, games) for r in range(runs)])


def dalmuti(runs: int, games: int) -> list[Figure]:
    """Rounds/s counts every round played; default options play 3 rounds a game."""
    return _merged([_dalmuti_run(r, games) for r in range(runs)])


VARIANTS = ("pure", "compiled")  # JOKEAPP_ENGINES of each child


def one_run(run: int, marble_games: int, dalmuti_games: int) -> dict[str, Any]:
    """Run ``run`` of both games here (the seeds a run of ``marble``/``dalmuti`` would use)."""
    figures = _marble_run(run, marble_games) + _dalmuti_run(run, dalmuti_games)
    return {"engines": compiled.STATE, "figures": [[f.name, f.unit, f.runs[0]] for f in figures]}


def _marble_run(run: int, games: int) -> list[Figure]:
    elapsed, steps, _ = _timed_games("marble", 4, games, 1 + run * games)
    return [
        Figure(
            "marble: complete games/s (4 random bots, default options)",
            "games/s",
            [games / elapsed],
        ),
        Figure("marble: actions/s (bot decision + apply)", "actions/s", [steps / elapsed]),
    ]


def _dalmuti_run(run: int, games: int) -> list[Figure]:
    elapsed, steps, states = _timed_games("dalmuti", 5, games, 1 + run * games)
    game = get_game("dalmuti")
    rounds = sum(int(game.to_json(s)["round"]) for s in states)
    return [
        Figure(
            "dalmuti: complete rounds/s (5 random bots, default options)",
            "rounds/s",
            [rounds / elapsed],
        ),
        Figure("dalmuti: decisions/s (bot decision + apply)", "decisions/s", [steps / elapsed]),
    ]


def compiled_build() -> str | None:
    """None when an up-to-date compiled build is there to measure, else why not."""
    build = os.environ.get("JOKEAPP_ENGINES_DIR")
    found = compiled.check(Path(build) if build else compiled.BUILD)
    return None if found.modules is not None else found.reason


def interleaved(
    runs: int, marble_games: int, dalmuti_games: int, variants: tuple[str, ...]
) -> dict[str, list[Figure]]:
    """Each variant's figures, run by run in child processes: pure, compiled, pure, ... Every
    child pins itself to one core and must report the engines it was asked for."""
    values: dict[str, dict[tuple[str, str], list[float]]] = {v: {} for v in variants}
    for run in range(runs):
        for variant in variants:
            cmd = [
                sys.executable,
                "-m",
                "jokeapp.bench.engines",
                "--run",
                str(run),
                "--marble-games",
                str(marble_games),
                "--dalmuti-games",
                str(dalmuti_games),
            ]
            env = {**os.environ, "JOKEAPP_ENGINES": variant}
            done = subprocess.run(
                cmd, env=env, capture_output=True, text=True, check=True, timeout=1800
            )
            found = json.loads(done.stdout)
            if found["engines"] != variant:
                raise RuntimeError(
                    f"asked for the {variant} engines, the child ran {found['engines']}"
                )
            for name, unit, value in found["figures"]:
                values[variant].setdefault((name, unit), []).append(float(value))
    return {
        variant: [Figure(name, unit, runs_) for (name, unit), runs_ in named.items()]
        for variant, named in values.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jokeapp.bench.engines")
    parser.add_argument("--run", type=int, required=True, help="which run (its seeds)")
    parser.add_argument("--marble-games", type=int, default=200)
    parser.add_argument("--dalmuti-games", type=int, default=200)
    args = parser.parse_args(argv)
    pin_to_one_core()
    print(json.dumps(one_run(args.run, args.marble_games, args.dalmuti_games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
