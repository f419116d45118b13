"""Instructions per accepted action: the server under callgrind over fixed load windows.

CPU time on a shared machine moves with the neighbours; instructions do not (much). This runs
`joke serve` under ``valgrind --tool=callgrind --instr-atstart=no`` (so start-up and the rooms'
opening cost nothing), grows ``--rooms`` marble rooms with the load generator
(``jokeapp.bench.load``: full speed, or ``--human``: the capacity run's pace, three seats
thinking 2 s and a server bot), and per window turns the instrumentation on
(``callgrind_control -i on``) for ``--seconds``, off, and dumps. The figure is the window's
instructions (every thread) divided by the actions the server accepted between two scrapes of
``/metrics`` around it (``joke_actions_accepted_total``: players', bots' and timeouts').
``--tree`` runs the server from another checkout, so two versions are compared by the same
command (run them one after the other, ``PYTHONHASHSEED=0``, rounds interleaved). Prints one
JSON line.

    PYTHONHASHSEED=0 python -m jokeapp.bench.instructions --rooms 10 --seconds 20 [--tree DIR]
    PYTHONHASHSEED=0 python -m jokeapp.bench.instructions --human --rooms 20 --seconds 30
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from jokeapp.bench.load import HUMAN_SPREAD, Setup, running

ACCEPTED = "joke_actions_accepted_total"


def accepted(address: str) -> float:
    """Actions the server accepted so far, every game summed (its ``/metrics``)."""
    text = httpx.get(f"http://{address}/metrics", timeout=120).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(ACCEPTED + "{") or line.startswith(ACCEPTED + " ")
    )


def _control(*args: str) -> None:
    subprocess.run(["callgrind_control", *args], check=True, capture_output=True, timeout=120)


def _totals(path: Path) -> int:
    """The instructions a callgrind dump counted (its ``totals:`` or ``summary:`` line)."""
    found = 0
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(("totals:", "summary:")):
            found = int(line.split()[1])
    return found


def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="joke-callgrind-") as tmp:
        out = Path(tmp, "cg.out")
        setup = Setup(
            generators=1,
            tree=args.tree,
            server_args=tuple(args.server_args),
            server_wrap=(
                "valgrind", "--tool=callgrind", "--instr-atstart=no",
                f"--callgrind-out-file={out}", "--dump-line=no",
            ),
            start_seconds=300.0,
        )  # fmt: skip
        if args.human:
            setup = replace(
                setup, think=2.0, think_spread=HUMAN_SPREAD, bots=1, bot_delay=1.0, rate=20.0
            )
        windows: list[dict[str, float]] = []
        with running(setup) as (server, generators):
            pid = str(server.pid)
            generators.grow(args.rooms)
            time.sleep(args.warmup)
            for _ in range(args.windows):
                before = accepted(server.address)
                _control("-i", "on", pid)
                time.sleep(args.seconds)
                _control("-i", "off", pid)
                after = accepted(server.address)
                dumped = set(Path(tmp).glob("cg.out*"))
                _control("-d", pid)
                for _ in range(600):
                    new = set(Path(tmp).glob("cg.out*")) - dumped
                    if new:
                        time.sleep(0.5)  # written whole
                        break
                    time.sleep(0.1)
                else:
                    raise RuntimeError("callgrind wrote no dump")
                dump = max(new, key=lambda p: p.stat().st_mtime)
                instructions = _totals(dump)
                if args.keep:
                    shutil.copy(dump, Path(args.keep, f"{dump.name}.{len(windows) + 1}"))
                actions = after - before
                windows.append(
                    {
                        "actions": actions,
                        "instructions": instructions,
                        "per_action": instructions / actions if actions else float("nan"),
                    }
                )
        return {
            "tree": args.tree or ".",
            "rooms": args.rooms,
            "human": args.human,
            "seconds": args.seconds,
            "windows": windows,
            "per_action": [round(w["per_action"]) for w in windows],
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jokeapp.bench.instructions",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per window")
    parser.add_argument("--windows", type=int, default=2)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds after every room plays")
    parser.add_argument("--human", action="store_true", help="the capacity run's pace")
    parser.add_argument("--tree", default=None, help="run the server from this checkout")
    parser.add_argument("--keep", default=None, help="copy each window's dump into this directory")
    parser.add_argument(
        "--server-args", type=shlex.split, default=[], metavar="'FLAGS'",
        help="more flags for the server",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if shutil.which("callgrind_control") is None:
        parser.error("valgrind is not installed")
    print(json.dumps(measure(args)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
