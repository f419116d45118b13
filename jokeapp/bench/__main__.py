"""`python -m jokeapp.bench --write BENCHMARKS.md` (what `make bench` runs)."""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
from pathlib import Path

from jokeapp.bench import engines
from jokeapp.bench.machine import describe, pin_to_one_core


def engine_section(runs: int, marble_games: int, dalmuti_games: int) -> list[str]:
    pinned = pin_to_one_core()
    figures = engines.marble(runs, marble_games) + engines.dalmuti(runs, dalmuti_games)
    lines = [
        "## Engines (one process, one core)",
        "",
        f"Each run plays whole games between random bots (bot decisions included), {pinned}; "
        f"{runs} runs, marble {marble_games} games a run, dalmuti {dalmuti_games} games a run.",
        "",
        "| figure | median | min | max |",
        "|---|---:|---:|---:|",
    ]
    for f in figures:
        lines.append(f"| {f.name} | {f.median:,.0f} | {min(f.runs):,.0f} | {max(f.runs):,.0f} |")
    return lines


def load_section(rooms: list[int]) -> list[str]:
    cmd = [sys.executable, "-m", "jokeapp.bench.load", "--markdown", "--rooms", *map(str, rooms)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3000)
    if done.returncode != 0:
        return ["## Room server load", "", f"The load test failed: {done.stderr.strip()[-500:]}"]
    return done.stdout.rstrip().splitlines()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jokeapp.bench")
    parser.add_argument("--write", type=Path, help="write the figures to this Markdown file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--marble-games", type=int, default=200)
    parser.add_argument("--dalmuti-games", type=int, default=200)
    parser.add_argument("--rooms", type=int, nargs="*", default=[10, 100, 1000],
                        help="room counts of the server load test (none: skip it)")
    args = parser.parse_args(argv)
    lines = [
        "# Benchmarks",
        "",
        f"Measured {dt.date.today().isoformat()} with `make bench` "
        f"(`python -m jokeapp.bench --write BENCHMARKS.md`).",
        "",
        f"Machine: {describe()}.",
        "",
    ]
    load = load_section(args.rooms) if args.rooms else []
    lines += engine_section(args.runs, args.marble_games, args.dalmuti_games)
    if load:
        lines += ["", *load]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
