"""The CPU a `joke` command spends before it does anything: `joke --help` and the help of
`joke simulate` and `joke serve`, each in a fresh process (issue 11: goal for `joke --help`
under 0.15 s of CPU; only the chosen subcommand's modules are imported, jokeapp/cli.py).

Each run starts the installed `joke` script (or `python -m jokeapp.cli` without one) and reads
its user + system CPU time from ``getrusage(RUSAGE_CHILDREN)``: CPU, not wall time, so a
loaded machine changes it little. The interpreter's own start is part of it, as it is for
whoever types the command.

    python -m jokeapp.bench.startup --runs 10
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import statistics
import subprocess
import sys
from pathlib import Path

COMMANDS = (
    ("joke --help", ["--help"]),
    ("joke simulate --help", ["simulate", "--help"]),
    ("joke serve --help", ["serve", "--help"]),
)
GOAL_MS = 150.0  # `joke --help`, issue 11


def _entry() -> list[str]:
    script = Path(sys.executable).with_name("joke")
    return [str(script)] if script.exists() else [sys.executable, "-m", "jokeapp.cli"]


def cpu_ms(argv: list[str]) -> float:
    """One run of ``joke ARGV`` in a new process: its CPU time (user + system), in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*_entry(), *argv], stdout=subprocess.DEVNULL, check=True, timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent * 1000


def measure(runs: int) -> list[tuple[str, list[float]]]:
    """Each command's runs, interleaved (one of each, then again) so that a busy moment of
    the machine falls on every command alike."""
    found: dict[str, list[float]] = {name: [] for name, _ in COMMANDS}
    for _ in range(runs):
        for name, argv in COMMANDS:
            found[name].append(cpu_ms(argv))
    return list(found.items())


def section(runs: int, figures: list[tuple[str, list[float]]]) -> list[str]:
    lines = [
        "## Start-up (CPU of a command before it works)",
        "",
        f"Measured {dt.date.today().isoformat()} by `python -m jokeapp.bench.startup --runs "
        f"{runs}`: each command in a fresh process, {runs} runs interleaved, its user + system "
        f"CPU time (`getrusage`), the interpreter's start included. Goal for `joke --help`: "
        f"under {GOAL_MS:.0f} ms.",
        "",
        "| command | median | min | max |",
        "|---|---:|---:|---:|",
    ]
    for name, ms in figures:
        lines.append(
            f"| `{name}` | {statistics.median(ms):.0f} ms | {min(ms):.0f} ms | {max(ms):.0f} ms |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jokeapp.bench.startup",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--runs", type=int, default=10, help="runs of each command")
    parser.add_argument("--quick", action="store_true", help="smoke-test size")
    parser.add_argument(
        "--section", action="store_true", help="accepted for `python -m jokeapp.bench`"
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    runs = 2 if args.quick else args.runs
    print("\n".join(section(runs, measure(runs))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
