"""Engine throughput: whole bot games, one process on one core, medians of several runs.

The games are played the way the simulator plays them (``sim.play.play_fast``: each bot asked
with its seat's knowledge through ``core.bots.SeatLog``), and timed by the process's CPU
time: on a shared machine the wall clock also counts the time other processes held the core.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

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


def marble(runs: int, games: int) -> list[Figure]:
    per_game, per_action = [], []
    for r in range(runs):
        elapsed, steps, _ = _timed_games("marble", 4, games, 1 + r * games)
        per_game.append(games / elapsed)
        per_action.append(steps / elapsed)
    return [
        Figure("marble: complete games/s (4 random bots, default options)", "games/s", per_game),
        Figure("marble: actions/s (bot decision + apply)", "actions/s", per_action),
    ]


def dalmuti(runs: int, games: int) -> list[Figure]:
    """Rounds/s counts every round played; default options play 3 rounds a game."""
    per_round, per_decision = [], []
    for r in range(runs):
        elapsed, steps, states = _timed_games("dalmuti", 5, games, 1 + r * games)
        game = get_game("dalmuti")
        rounds = sum(int(game.to_json(s)["round"]) for s in states)
        per_round.append(rounds / elapsed)
        per_decision.append(steps / elapsed)
    return [
        Figure(
            "dalmuti: complete rounds/s (5 random bots, default options)", "rounds/s", per_round
        ),
        Figure("dalmuti: decisions/s (bot decision + apply)", "decisions/s", per_decision),
    ]
