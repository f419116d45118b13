"""`python -m jokeapp.bench --write BENCHMARKS.md` (what `make bench` runs).

Engines, the commands' start-up, then the server load test, the capacity ramp and the server
profile, each in its own process (the engine figures pin their process to one core; the
server tools pin a server to one core and their generator to the others). Each section names
the command that made it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from jokeapp.bench import engines
from jokeapp.bench.machine import describe

SECTIONS = (
    "engines",
    "startup",
    "tournaments",
    "load",
    "capacity",
    "memory",
    "profile-before",
    "profile",
    "cluster",
)
HEADINGS = {  # how each section's Markdown begins
    "engines": "## Engines",
    "startup": "## Start-up",
    "tournaments": "## Bot tournaments",
    "load": "## Room server load",
    "capacity": "## Capacity",
    "memory": "## Memory per idle room",
    # the profile before a round of optimisation, kept as the reference; `profile`: now
    "profile-before": "## Profile (before)",
    "profile": "## Profile (after)",
    "cluster": "## Cluster",
}


DEFAULT = tuple(name for name in SECTIONS if name != "profile-before")


def kept_sections(path: Path) -> dict[str, list[str]]:
    """The sections of an earlier BENCHMARKS.md, by name, so a partial run keeps the rest."""
    if not path.exists():
        return {}
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            name = next((n for n, h in HEADINGS.items() if line.startswith(h)), None)
            current = found.setdefault(name, []) if name else None
        if current is not None:
            current.append(line)
    return {name: lines[:-1] if lines and not lines[-1] else lines for name, lines in found.items()}


MACHINE = "Machine: "  # a section's line naming the machine it was measured on


def earlier_machine(path: Path) -> str | None:
    """The machine an earlier BENCHMARKS.md named for the whole file (before sections named
    their own), for its kept sections that do not name one."""
    if not path.exists():
        return None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            return None
        if line.startswith(MACHINE):
            return line.removeprefix(MACHINE).rstrip(".")
    return None


def with_machine(section: list[str], machine: str | None) -> list[str]:
    """The section with a line naming its machine after its heading, unless it has one."""
    if machine is None or any(line.startswith(MACHINE) for line in section):
        return section
    return [section[0], "", f"{MACHINE}{machine}.", *section[1:]]


def engine_section(runs: int, marble_games: int, dalmuti_games: int) -> list[str]:
    core = f"core {min(os.sched_getaffinity(0))}" if hasattr(os, "sched_getaffinity") else None
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    why_not = engines.compiled_build()
    variants = ("pure",) if why_not else engines.VARIANTS
    measured = engines.interleaved(runs, marble_games, dalmuti_games, variants)
    lines = [
        "## Engines (one process, one core)",
        "",
        f"Measured {dt.date.today().isoformat()} by `python -m jokeapp.bench --only engines "
        f"--runs {runs} --marble-games {marble_games} --dalmuti-games {dalmuti_games}`. "
        f"Each run plays whole games between random bots the way `joke simulate` does (each "
        f"bot asked with its seat's knowledge: the random bots read only their legal actions), "
        f"in a fresh process {f'pinned to {core}' if core else 'not pinned'}, timed by the "
        f"process's CPU time; {runs} runs, marble {marble_games} games a run, dalmuti "
        f"{dalmuti_games} games a run"
        + (f"; the machine's load average was {load:.1f} as it began." if load is not None else ".")
        + " A busy machine lowers the figures even in CPU time (shared caches and cores). "
        + (
            f"The compiled engines were not measured: {why_not} (`make engines` builds them)."
            if why_not
            else "The pure-Python engines (the default) and the compiled ones (`make engines`, "
            "`JOKEAPP_ENGINES=compiled`; docs/bots.md) took turns, one run each, the same "
            "seeds, each process checked to run the engines it was asked for."
        ),
        "",
        "| figure | median | min | max |",
        "|---|---:|---:|---:|",
    ]
    for variant, figures in measured.items():
        label = "" if variant == "pure" else "compiled engines: "
        for f in figures:
            lines.append(
                f"| {label}{f.name} | {f.median:,.0f} | {min(f.runs):,.0f} | {max(f.runs):,.0f} |"
            )
    return lines


def tool_section(module: str, args: list[str]) -> list[str]:
    """Runs ``python -m jokeapp.bench.MODULE --section ARGS`` and returns its Markdown."""
    cmd = [sys.executable, "-m", f"jokeapp.bench.{module}", "--section", *args]
    print(f"running {' '.join(cmd[1:])}", file=sys.stderr)
    done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, timeout=3600)
    if done.returncode != 0:
        return [
            f"## {module}",
            "",
            f"`{' '.join(cmd[1:])}` failed (exit {done.returncode}); see its stderr.",
        ]
    return done.stdout.rstrip().splitlines()


def tool_commands(args: argparse.Namespace) -> dict[str, tuple[str, list[str]]]:
    """Each section a tool measures: (its module, the arguments after ``--section``)."""
    quick = ["--quick"] if args.quick else []
    profile = ["--seconds", "3"] if args.quick else []
    load_rooms = ["--rooms", *map(str, args.load_rooms)] if args.load_rooms else []
    return {
        "load": ("load", [*quick, *load_rooms]),
        "capacity": ("capacity", quick),
        "memory": ("memory", quick),
        "profile-before": ("profile", [*profile, "--label", "before"]),
        "profile": ("profile", [*profile, "--label", "after"]),
        "tournaments": ("tournaments", quick + [f"--skip={name}" for name in args.skip_match]),
        "cluster": ("cluster", quick),
        "startup": ("startup", quick),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jokeapp.bench")
    parser.add_argument("--write", type=Path, help="write the figures to this Markdown file")
    parser.add_argument("--runs", type=int, default=5, help="engine runs")
    parser.add_argument("--marble-games", type=int, default=200)
    parser.add_argument("--dalmuti-games", type=int, default=200)
    parser.add_argument(
        "--only",
        nargs="+",
        choices=SECTIONS,
        default=list(DEFAULT),
        help="profile-before re-measures the reference profile; a run keeps it otherwise",
    )
    parser.add_argument("--quick", action="store_true", help="every section at smoke-test size")
    parser.add_argument(
        "--load-rooms", type=int, nargs="+", help="the load section's room counts (its default)"
    )
    parser.add_argument(
        "--skip-match",
        action="append",
        default=[],
        metavar="GAME:A,B",
        help="tournaments: leave out a match (jokeapp.bench.tournaments --skip)",
    )
    args = parser.parse_args(argv)
    command = "python -m jokeapp.bench" + (f" --write {args.write}" if args.write else "")
    command += " --quick" if args.quick else ""
    command += f" --load-rooms {' '.join(map(str, args.load_rooms))}" if args.load_rooms else ""
    partial = set(args.only) != set(DEFAULT)
    kept_always = "profile-before" not in args.only
    command += f" --only {' '.join(args.only)}" if partial else ""
    command += "".join(f" --skip-match {name}" for name in args.skip_match)
    kept = kept_sections(args.write) if args.write and (partial or kept_always) else {}
    kept_machine = earlier_machine(args.write) if kept and args.write else None
    machine = describe()
    lines = [
        "# Benchmarks",
        "",
        f"Written {dt.date.today().isoformat()} by `{command}` (`make bench`) on {machine}; "
        "every section names the command and the machine that measured it."
        + (" Sections this run did not measure are kept from the run that did." if kept else ""),
    ]
    measured = {
        name: tool_section(module, extra)
        for name, (module, extra) in tool_commands(args).items()
        if name in args.only
    }
    if "engines" in args.only:
        games = (2, 5, 5) if args.quick else (args.runs, args.marble_games, args.dalmuti_games)
        measured["engines"] = engine_section(*games)
    for name in SECTIONS:
        if measured.get(name):
            lines += ["", *with_machine(measured[name], machine)]
        elif kept.get(name):
            lines += ["", *with_machine(kept[name], kept_machine)]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
