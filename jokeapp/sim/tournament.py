"""`joke tournament GAME --bots A,B`: bots against bots, seats rotated, shares with 95% CIs.

Game ``g`` deals with seed ``SEED + g // K`` (K bots) and seats bot ``(i + g) % K`` in seat
``i``: every deal is played once in each rotation, so each bot sits in each seat equally often
and meets the same cards and dice from every seat (less luck in the comparison).

What a bot's share counts depends on the game: marble counts wins (a shared win splits), 신분
카드 게임 counts head-to-head comparisons (for each two seats of different bots in a game, the
better final rank; a tie is half). A pair's share is a's part of what the two contest: the
wins the two of them took in the games they met in, or their comparisons with each other.
The interval is Wilson's at 95%. Comparisons within one game are not independent, so for
신분 카드 게임 the interval is narrower than the truth; the seat rotation keeps the share itself fair.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TextIO

from jokeapp.argtypes import positive_int
from jokeapp.core.bots import Budget
from jokeapp.core.errors import GameError
from jokeapp.core.options import resolve_options
from jokeapp.games import GAME_IDS, get_game
from jokeapp.sim.options_arg import parse_option
from jokeapp.sim.parallel import play_batches
from jokeapp.sim.play import DEFAULT_MAX_STEPS, PlayedGame, play_recorded, player_ids
from jokeapp.sim.progress import ProgressBar

Z95 = 1.959963984540054
COUNTS_WINS = {"marble"}  # the other games count head-to-head places


def wilson(successes: float, trials: float) -> tuple[float, float]:
    """Wilson's score interval for a proportion at 95% (0..1 when there are no trials)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """One bot's results, or (for pairs) a's against b."""

    games: int = 0
    seats: int = 0
    won: float = 0.0  # wins, or comparisons won
    contested: float = 0.0  # the seats' trials: seats (wins) or comparisons
    places: list[int] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    move_seconds: list[float] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.won / self.contested if self.contested else 0.0


def seating(bots: Sequence[str], players: int, index: int) -> list[str]:
    return [bots[(seat + index) % len(bots)] for seat in range(players)]


def time_budget(seconds: float) -> Budget:
    """A search may think ``seconds`` from now (the iterations uncapped)."""
    stop = time.perf_counter() + seconds
    return Budget(10**9, lambda: time.perf_counter() >= stop)


def parse_budget(text: str) -> Budget | Callable[[], Budget]:
    """``200``: iterations (the same seed plays the same games); ``300ms``: time per move."""
    try:
        if text.endswith("ms"):
            seconds = float(text[:-2]) / 1000
            if seconds > 0:
                return lambda: time_budget(seconds)
        elif int(text) > 0:
            return Budget(int(text))
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"budget must be N (iterations) or Nms, got {text!r}")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=GAME_IDS)
    parser.add_argument("--bots", required=True, help="comma-separated levels, e.g. hard,normal")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats (default: the number of bots, at least the minimum)",
    )
    parser.add_argument("--seed", type=int, default=1, help="deals use seeds SEED, SEED+1, ...")
    parser.add_argument(
        "--budget",
        type=parse_budget,
        default=None,
        help="search bots: N iterations or Nms per move",
    )
    parser.add_argument(
        "--option", action="append", type=parse_option, default=[], metavar="KEY=VALUE"
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        help="processes playing the games (default 1; the figures do not depend on it)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


@dataclass
class Tournament:
    game_id: str
    names: list[str]
    bots: dict[str, Tally] = field(default_factory=dict)
    pairs: dict[tuple[str, str], Tally] = field(default_factory=dict)
    cut_off: int = 0  # games stopped at the step cap: no result, so counted for nobody

    def __post_init__(self) -> None:
        self.bots = {name: Tally() for name in self.names}
        self.pairs = {(a, b): Tally() for a, b in combinations(self.names, 2)}

    def add(self, seated: dict[str, str], result: dict[str, Any]) -> None:
        """One finished game: ``seated`` maps each player to its bot."""
        entries = {entry["player"]: entry for entry in result["ranking"]}
        rank = {player: int(entries[player]["rank"]) for player in seated}
        for name in set(seated.values()):
            self.bots[name].games += 1
        for player, name in seated.items():
            tally = self.bots[name]
            tally.seats += 1
            tally.places.append(rank[player])
            if "total" in entries[player]:
                tally.points.append(float(entries[player]["total"]))
        if self.game_id in COUNTS_WINS:
            self._add_wins(seated, rank)
        else:
            self._add_places(seated, rank)

    def _add_wins(self, seated: dict[str, str], rank: dict[str, int]) -> None:
        winners = [player for player, r in rank.items() if r == 1]
        won = {name: 0.0 for name in self.names}
        for player in winners:
            won[seated[player]] += 1 / len(winners)
        for name in seated.values():
            self.bots[name].contested += 1
        for name in set(seated.values()):
            self.bots[name].won += won[name]
        present = set(seated.values())
        for (a, b), tally in self.pairs.items():
            if a in present and b in present:
                tally.games += 1
                tally.won += won[a]
                tally.contested += won[a] + won[b]

    def _add_places(self, seated: dict[str, str], rank: dict[str, int]) -> None:
        present = set(seated.values())
        for (a, b), tally in self.pairs.items():
            if a in present and b in present:
                tally.games += 1
        for first, second in combinations(seated, 2):
            x, y = seated[first], seated[second]
            if x == y:
                continue
            ahead = (
                1.0 if rank[first] < rank[second] else 0.5 if rank[first] == rank[second] else 0.0
            )
            for name, got in ((x, ahead), (y, 1 - ahead)):
                self.bots[name].won += got
                self.bots[name].contested += 1
            a, b = (x, y) if (x, y) in self.pairs else (y, x)
            tally = self.pairs[(a, b)]
            tally.won += ahead if a == x else 1 - ahead
            tally.contested += 1

    def summary(self) -> dict[str, Any]:
        bots: dict[str, Any] = {}
        for name, tally in self.bots.items():
            entry: dict[str, Any] = {
                "games": tally.games,
                "seats": tally.seats,
                "share": round(tally.share, 4),
                "ci": [round(x, 4) for x in wilson(tally.won, tally.contested)],
                "meanPlace": round(statistics.fmean(tally.places), 3) if tally.places else None,
                "moveMs": move_ms(tally.move_seconds),
            }
            if self.game_id in COUNTS_WINS:
                entry["wins"] = round(tally.won, 2)
            else:
                entry["comparisons"] = int(tally.contested)
                entry["meanPoints"] = (
                    round(statistics.fmean(tally.points), 3) if tally.points else None
                )
            bots[name] = entry
        pairs = [
            {
                "a": a,
                "b": b,
                "games": tally.games,
                "share": round(tally.share, 4),
                "ci": [round(x, 4) for x in wilson(tally.won, tally.contested)],
                "contested": round(tally.contested, 2),
            }
            for (a, b), tally in self.pairs.items()
        ]
        return {"bots": bots, "pairs": pairs, "cutOff": self.cut_off}


def move_ms(seconds: list[float]) -> dict[str, float] | None:
    """Median and 99th percentile of a bot's move times, in milliseconds."""
    if not seconds:
        return None
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return {
        "median": round(statistics.median(ordered) * 1000, 3),
        "p99": round(p99 * 1000, 3),
        "moves": len(ordered),
    }


@dataclass
class _Games:
    """What a worker hands back of its games: seats, result and move times (small)."""

    played: list[tuple[dict[str, str], dict[str, Any] | None, list[tuple[str, float]]]] = field(
        default_factory=list
    )

    def add(self, record: dict[str, Any], state: Any) -> None:
        seats = record["tournament"]
        self.played.append((seats["seated"], record.get("result"), seats["moves"]))


def run(
    game_id: str,
    names: list[str],
    games: int,
    players: int,
    seed: int,
    options: dict[str, Any],
    budget: Budget | Callable[[], Budget] | None = None,
    bar: ProgressBar | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    workers: int = 1,
) -> Tournament:
    """Plays the games in ``workers`` processes (sim.parallel); every game depends only on
    its index, so the figures are those of one process (the move times aside)."""
    game = get_game(game_id)
    tournament = Tournament(game_id, names)
    ids = player_ids(players)

    def play_one(index: int) -> PlayedGame:
        seated = dict(zip(ids, seating(names, players, index), strict=True))
        bots = {player: game.bots[name] for player, name in seated.items()}
        moves: list[tuple[str, float]] = []
        played = play_recorded(
            game,
            options,
            ids,
            seed + index // len(names),
            bots,
            max_steps=max_steps,
            budget=budget,
            on_move=lambda player, seconds: moves.append((player, seconds)),
        )
        played.record["tournament"] = {"seated": seated, "moves": moves}
        return played

    done = 0
    batches = play_batches(play_one, list(range(games)), workers, new_stats=_Games, encode=None)
    for batch in batches:
        for seated, result, moves in batch.stats.played:
            for player, seconds in moves:
                tournament.bots[seated[player]].move_seconds.append(seconds)
            if result is None:  # cut off at the step cap (marble with maxRounds=0 may not end)
                tournament.cut_off += 1
            else:
                tournament.add(seated, result)
        done += batch.games
        if bar:
            bar.update(done)
    return tournament


def main(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in names if name not in game.bots]
    if unknown or len(names) < 2 or len(set(names)) != len(names):
        print(f"--bots: two or more different bots of {', '.join(game.bots)}", file=sys.stderr)
        return 2
    players = args.players or max(len(names), game.min_players)
    if not game.min_players <= players <= game.max_players:
        print(f"{game.id}: players must be {game.min_players}-{game.max_players}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    try:
        options = resolve_options(game.options, dict(args.option))
    except GameError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    bar = None if args.quiet or args.json else ProgressBar(args.games, sys.stderr)
    tournament = run(
        game.id,
        names,
        args.games,
        players,
        args.seed,
        options,
        args.budget,
        bar,
        workers=args.workers,
    )
    summary = tournament.summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print_table(sys.stdout, game.id, args, players, summary)
    return 0


def print_table(
    out: TextIO, game_id: str, args: argparse.Namespace, players: int, summary: dict[str, Any]
) -> None:
    out.write(f"{game_id}: {args.games} games, {players} players, seeds from {args.seed}\n")
    wins = game_id in COUNTS_WINS
    for name, entry in summary["bots"].items():
        lo, hi = entry["ci"]
        moves = entry["moveMs"] or {"median": 0.0, "p99": 0.0}
        counted = (
            f"wins {entry['wins']:g}"
            if wins
            else f"mean place {entry['meanPlace']}, mean points {entry['meanPoints']}"
        )
        out.write(
            f"  {name:8} games {entry['games']}, seats {entry['seats']}, {counted}, "
            f"share {entry['share']:.1%} [{lo:.1%}, {hi:.1%}], move {moves['median']:.2f} ms (p99 {moves['p99']:.2f})\n"
        )
    if summary["cutOff"]:
        out.write(f"  cut off at the step cap (no result, not counted): {summary['cutOff']}\n")
    for pair in summary["pairs"]:
        lo, hi = pair["ci"]
        out.write(
            f"  {pair['a']} vs {pair['b']}: {pair['share']:.1%} [{lo:.1%}, {hi:.1%}] "
            f"over {pair['contested']:g} {'wins' if wins else 'comparisons'} in {pair['games']} games\n"
        )
