"""`python -m jokeapp.bench.tournaments --section`: the bot ladder's tournaments.

Each row is one `joke tournament` run (sim.tournament.run, seats rotated): a pair's
head-to-head share with its 95% Wilson interval, and the move time of each level (the bot's
call only: median and p99). The goals (issue: bots): hard beats normal and normal beats easy
with at least 60% over at least 1,000 games, the interval clear of 50%; easy beats random.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

from jokeapp.core.options import resolve_options
from jokeapp.games import get_game
from jokeapp.sim.tournament import parse_budget, run


@dataclass(frozen=True, slots=True)
class Match:
    game: str
    bots: tuple[str, str]
    players: int
    budget: str | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def command(self, games: int, seed: int, workers: int) -> str:
        text = (
            f"joke tournament {self.game} --bots {','.join(self.bots)} --games {games} "
            f"--players {self.players} --seed {seed} --workers {workers}"
        )
        if self.budget:
            text += f" --budget {self.budget}"
        for key, value in self.options:
            text += f" --option {key}={str(value).lower() if isinstance(value, bool) else value}"
        return text


# Marble's table where its choices weigh (docs/bots.md, Measured): played to the last survivor
# with 200만 to start and takeovers, so running out of cash decides.
TIGHT_TABLE = (("maxRounds", 0), ("startMoney", 200), ("takeover", True))

MATCHES = (
    Match("marble", ("normal", "easy"), 2),
    Match("marble", ("easy", "random"), 2),
    Match("marble", ("hard", "normal"), 2, "40"),  # default options: short of the goal
    Match("marble", ("normal", "easy"), 2, None, TIGHT_TABLE),
    Match("marble", ("easy", "random"), 2, None, TIGHT_TABLE),
    Match("marble", ("hard", "normal"), 2, "40", TIGHT_TABLE),
    Match("dalmuti", ("normal", "easy"), 4),
    Match("dalmuti", ("easy", "random"), 4),
    Match("dalmuti", ("hard", "normal"), 4, "200", (("rounds", 1),)),
)


def _ms(entry: dict[str, Any]) -> str:
    moves = entry["moveMs"] or {"median": 0.0, "p99": 0.0}
    return f"{_figure(moves['median'])} / {_figure(moves['p99'])}"


def _figure(ms: float) -> str:
    return f"{ms:.3f}" if ms < 1 else f"{ms:,.1f}"


def row(match: Match, games: int, seed: int, workers: int) -> str:
    game = get_game(match.game)
    options = resolve_options(game.options, dict(match.options))
    budget = parse_budget(match.budget) if match.budget else None
    started = time.perf_counter()
    summary = run(
        match.game, list(match.bots), games, match.players, seed, options, budget, workers=workers
    )
    took = time.perf_counter() - started
    result = summary.summary()
    pair = result["pairs"][0]
    lo, hi = pair["ci"]
    a, b = match.bots
    met = lo > 0.5 and (pair["share"] >= 0.6 or b == "random")
    return (
        f"| `{match.command(games, seed, workers)}` | {a} {pair['share']:.1%} "
        f"[{lo:.1%}, {hi:.1%}] of {pair['contested']:,.0f} | {'yes' if met else 'no'} | "
        f"{_ms(result['bots'][a])} | {_ms(result['bots'][b])} | {took:,.0f} s |"
    )


def section(games: int, seed: int, workers: int, only: str | None, skip: list[str]) -> list[str]:
    lines = [
        "## Bot tournaments",
        "",
        f"Measured {dt.date.today().isoformat()} by `python -m jokeapp.bench.tournaments "
        f"--games {games} --seed {seed} --workers {workers}"
        + (f" --game {only}" if only else "")
        + "".join(f" --skip {name}" for name in skip)
        + "`. Seats rotated (every deal played in each seating); a pair's share is a's part of "
        "the wins the two took (marble) or of their head-to-head comparisons (신분 카드 게임), "
        "with its 95% Wilson interval. Goal: at least 60% with the interval clear of 50% "
        "(easy over random: clear of 50%). Move time: the bot's call, median / p99 in ms. "
        "Default options unless shown; `--budget` is rollouts or iterations per search move. "
        f"The machine's load average was {os.getloadavg()[0]:.1f} as it began: a busy machine "
        "lengthens the move times and the time taken, never the shares.",
        "",
        "| command | a's share [95% CI] | goal | a's move ms | b's move ms | took |",
        "|---|---|---|---:|---:|---:|",
    ]
    for match in MATCHES:
        if only and match.game != only:
            continue
        if f"{match.game}:{','.join(match.bots)}" in skip:
            lines.append(
                f"| `{match.command(games, seed, workers)}` | not run (`--skip`; docs/bots.md, Measured) | | | | |"
            )
            continue
        lines.append(row(match, games, seed, workers))
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jokeapp.bench.tournaments")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", choices=("marble", "dalmuti"), default=None)
    parser.add_argument(
        "--skip", action="append", default=[], metavar="GAME:A,B", help="leave out a match"
    )
    parser.add_argument("--quick", action="store_true", help="smoke-test size")
    parser.add_argument(
        "--section", action="store_true", help="only the Markdown section (for BENCHMARKS.md)"
    )
    args = parser.parse_args(argv)
    games = 4 if args.quick else args.games
    print("\n".join(section(games, args.seed, args.workers, args.game, args.skip)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
