"""`joke simulate GAME`: many bot games headless, with throughput and balance statistics."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from jokeapp.argtypes import positive_int
from jokeapp.core.errors import GameError
from jokeapp.core.options import resolve_options
from jokeapp.games import GAME_IDS, get_game
from jokeapp.sim.options_arg import parse_option
from jokeapp.sim.parallel import default_workers, play_batches
from jokeapp.sim.play import DEFAULT_MAX_STEPS, PlayedGame, play_recorded, player_ids
from jokeapp.sim.progress import ProgressBar
from jokeapp.sim.stats import stats_for
from jokeapp.sim.tournament import parse_budget


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=GAME_IDS)
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument(
        "--players", type=int, default=None, help="seats (default: the game's minimum+2, capped)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="game i (0-based) is played with seed SEED+i"
    )
    parser.add_argument(
        "--bot",
        default="random",
        help="bot for every seat: random | easy | normal | hard (heuristic = normal)",
    )
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
        "--log", type=argparse.FileType("w", encoding="utf-8"), help="write records (JSON lines)"
    )
    parser.add_argument(
        "--states", action="store_true", help="records include the full state after every step"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help=f"stop a game after N steps and record it as cut off (default {DEFAULT_MAX_STEPS:,})",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=default_workers(),
        help="processes playing games (default: the cores); the output does not change",
    )


def record_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def main(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    players = args.players or min(game.min_players + 2, game.max_players)
    if not game.min_players <= players <= game.max_players:
        print(f"{game.id}: players must be {game.min_players}-{game.max_players}", file=sys.stderr)
        return 2
    if args.bot not in game.bots:
        print(f"unknown bot {args.bot!r} (bots: {', '.join(game.bots)})", file=sys.stderr)
        return 2
    try:
        options = resolve_options(game.options, dict(args.option))
    except GameError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    ids = player_ids(players)
    bots = {p: game.bots[args.bot] for p in ids}
    stats = stats_for(game)
    bar = None if args.quiet else ProgressBar(args.games, sys.stderr)
    total_steps = 0
    cut_off = 0
    started = time.perf_counter()
    done = 0

    def play_one(seed: int) -> PlayedGame:
        return play_recorded(
            game, options, ids, seed, bots, args.states, args.max_steps, args.budget
        )

    seeds = range(args.seed, args.seed + args.games)
    for batch in play_batches(
        play_one,
        seeds,
        args.workers,
        new_stats=lambda: stats_for(game),
        encode=record_line if args.log else None,
    ):
        total_steps += batch.steps
        cut_off += batch.cut_off
        stats.merge(batch.stats)
        for line in batch.lines:
            args.log.write(line + "\n")
        done += batch.games
        if bar:
            bar.update(done)
    elapsed = time.perf_counter() - started
    print_summary(sys.stdout, game.id, args, players, options, elapsed, total_steps, stats)
    sys.stdout.write(
        f"cut off at {args.max_steps:,} steps (unfinished, no result): {cut_off} of {args.games}\n"
    )
    return 0


def print_summary(
    out: TextIO,
    game_id: str,
    args: argparse.Namespace,
    players: int,
    options: dict[str, Any],
    elapsed: float,
    steps: int,
    stats: Any,
) -> None:
    out.write(
        f"{game_id}: {args.games} games, {players} players, bot {args.bot}, seeds {args.seed}..{args.seed + args.games - 1}\n"
    )
    changed = {k: v for k, v in options.items() if k in dict(args.option)}
    if changed:
        out.write(f"options: {json.dumps(changed, ensure_ascii=False)}\n")
    rate = args.games / elapsed if elapsed else float("inf")
    out.write(
        f"throughput: {rate:,.1f} games/s, {steps / elapsed if elapsed else 0:,.0f} actions/s "
        f"({steps} actions in {elapsed:.2f} s, records included)\n"
    )
    for line in stats.lines():
        out.write(line + "\n")
