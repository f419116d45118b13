"""Where the server's CPU goes per accepted action: py-spy sampling the server under load.

Runs the full-speed load test (default 100 rooms) and attaches py-spy (``pip install py-spy``)
to the server process for one window. py-spy samples every thread's Python stack from outside
the process (no instrumentation overhead, the SQLite thread included) and skips idle samples,
so a function's share is its share of the server's busy CPU time.

    python -m jokeapp.bench.profile --rooms 100 --seconds 20
    python -m jokeapp.bench.profile --human --rooms 1000    # capacity's pace (2 s, a bot a room)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from jokeapp.bench.load import HUMAN_SPREAD, Setup, add_setup_arguments, measure_window, running

# The stages of an accepted action, each found by the functions that mark it on a stack. A
# sample counts for a stage when one of its functions is on the stack; stages nest (publishing
# includes the views and their encoding), so the shares do not add up to 100 %.
STAGES: list[tuple[str, tuple[str, ...]]] = [
    ("frame receive + parse (wsframes, websockets, ws._decoded)",
     ("FramingProtocol.data_received (", "WebSocketsSansIOProtocol.data_received (",
      "_decoded (jokeapp/server/ws.py)", "_parse (jokeapp/server/ws.py)")),
    ("room actor: queue to reply (Room._run)", ("Room._run (",)),
    ("  apply (Match.apply: rules)", ("Match.apply (",)),
    ("  record the step (Room.record_step)", ("Room.record_step (",)),
    ("  store append, event loop side (SqlStore.append_action)", ("SqlStore.append_action (",)),
    ("  publish (messages.publish: views, patches, encoding, socket writes)",
     ("Room.publish (", "publish (jokeapp/rooms/messages.py)")),
    ("    per-viewer views (Room.view_for, Room.views_for)", ("Room.view_for (", "Room.views_for (")),
    ("    view patches (SentViews.update)", ("SentViews.update (",)),
    ("    encoding (protocol.encode; encode_acked: the acting player's copy spliced)",
     ("encode (jokeapp/wire/protocol.py)", "encode_acked (jokeapp/wire/protocol.py)")),
    ("    socket writes (WsConnection.send; its writer task while a socket is full)",
     ("WsConnection.send (", "WsConnection._write_loop (")),
    ("store commit loop (SqlStore._write_loop; a SQLite file's commit runs in it)", ("SqlStore._write_loop (",)),
    ("  SQLite commit (SqliteBatches._transaction)", ("SqliteBatches._transaction (",)),
    ("SQLite thread (SqliteBatches._work: checkpoints; aiosqlite's worker for reads)",
     ("SqliteBatches._work (", "_connection_worker_thread (")),
    ("event loop itself (uvloop: socket I/O, callbacks; self time of Runner.run)", ()),
]  # fmt: skip

_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*)\)$")


def py_spy() -> str | None:
    found = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
    return found


def _short(path: str) -> str:
    """A file as a reader knows it: jokeapp/… or the library's package path."""
    for marker in ("site-packages/", "/lib/python3."):
        if marker in path:
            tail = path.split(marker, 1)[1]
            return tail.split("/", 1)[1] if marker.startswith("/lib") and "/" in tail else tail
    if "jokeapp/" in path:
        return "jokeapp/" + path.split("jokeapp/", 1)[1]
    return path


def _frame(text: str) -> str:
    m = _FRAME.match(text.strip())
    if not m:
        return text.strip()
    return f"{m['func']} ({_short(m['file'])})"


def aggregate(raw: str) -> tuple[int, Counter[str], Counter[str], Counter[str]]:
    """Samples; per function the samples it was running in (inclusive) and on top (self); per stage."""
    total = 0
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    stages: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [_frame(f) for f in stack.split(";") if f.strip()]
        if frames and not _FRAME.match(stack.split(";")[0].strip()):
            frames = frames[1:]  # the leading process / thread label
        if not frames:
            continue
        total += count
        for name in set(frames):
            inclusive[name] += count
        own[frames[-1]] += count
        for stage, markers in STAGES:
            # the event loop's own stage has no marker: the loop's C code is on top
            on_stack = (
                any(f.startswith(markers) for f in frames)
                if markers
                else frames[-1].startswith("Runner.run (")
            )
            if on_stack:
                stages[stage] += count
    return total, inclusive, own, stages


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of a process's event loop thread (the main one) and of its other threads."""
    found: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            _, rest = task.joinpath("stat").read_text().rsplit(")", 1)
            fields = rest.split()
            thread = "event loop thread" if task.name == str(pid) else "other threads (SQLite)"
            found[thread] = found.get(thread, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return found


def profile(rooms: int, seconds: float, warmup: float, setup: Setup) -> tuple[dict[str, Any], str]:
    spy = py_spy()
    if spy is None:
        raise RuntimeError("py-spy is not installed (pip install py-spy)")
    with (
        tempfile.TemporaryDirectory(prefix="joke-profile-") as tmp,
        running(setup) as (server, gens),
    ):
        out = Path(tmp) / "server.txt"
        gens.grow(rooms)
        time.sleep(warmup)
        spy_proc = subprocess.Popen(
            [spy, "record", "--pid", str(server.pid), "--duration", str(int(seconds) + 1),
             "--rate", "200", "--format", "raw", "--nolineno", "--nonblocking", "--output", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        time.sleep(0.5)  # py-spy attached before the window opens
        threads_open = thread_cpu(server.pid)
        row = measure_window(server, gens, 1, seconds)
        threads_close = thread_cpu(server.pid)
        row["threads"] = {n: threads_close[n] - threads_open.get(n, 0.0) for n in threads_close}
        _, err = spy_proc.communicate(timeout=120)
        if spy_proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"py-spy failed: {err.decode(errors='replace').strip()[-300:]}")
        return row, out.read_text()


def section(args: argparse.Namespace, row: dict[str, Any], raw: str, top: int) -> list[str]:
    total, inclusive, own, stages = aggregate(raw)
    per_action_ms = row["server_cpu_ms_per_action"]
    pace = "human-pace (the capacity run's)" if getattr(args, "human", False) else "full-speed"
    lines = [
        f"## Profile ({args.label})",
        "",
        f"`python -m jokeapp.bench.profile --rooms {args.rooms} --seconds {args.seconds:g} "
        f"--label {args.label}{' --human' if pace != 'full-speed' else ''}` — py-spy "
        f"(200 Hz, every thread, idle samples skipped) on the server during a "
        f"{pace} window of "
        f"{args.rooms} rooms: {row['actions_per_s']:,.0f} actions/s, {per_action_ms:.2f} ms of server "
        f"CPU per accepted action, {total:,} samples. Share = samples with the function on the stack "
        f"(inclusive) or on top (self) / all busy samples; ms/action = share × CPU per action.",
        "",
        "CPU by thread over the window (/proc/PID/task): "
        + ", ".join(
            f"{name} {cpu / max(sum(row['threads'].values()), 1e-9):.0%}"
            for name, cpu in sorted(row["threads"].items(), key=lambda kv: -kv[1])
            if cpu > 0
        )
        + ". /proc is the truth for CPU time; py-spy's share of the SQLite thread can run higher, "
        "as it cannot always tell that thread waiting inside C from working.",
        "",
        "By stage of an action (stages nest, so shares overlap):",
        "",
        "| share | ms/action | stage |",
        "|---:|---:|---|",
    ]
    for stage, _ in STAGES:
        share = stages[stage] / total if total else 0.0
        lines.append(f"| {share:.1%} | {share * per_action_ms:.3f} | {stage.strip()} |")
    lines += ["", "Inclusive, functions of jokeapp (entry points left out):", "",
              "| inclusive | ms/action | function |", "|---:|---:|---|"]  # fmt: skip
    ours = [(n, c) for n, c in inclusive.most_common() if "(jokeapp/" in n and "cli.py)" not in n]
    for name, count in ours[:top]:
        share = count / total if total else 0.0
        lines.append(f"| {share:.1%} | {share * per_action_ms:.3f} | `{name}` |")
    lines += [
        "",
        "Self (where the time is actually spent):",
        "",
        "| self | ms/action | function |",
        "|---:|---:|---|",
    ]
    for name, count in own.most_common(top):
        share = count / total if total else 0.0
        lines.append(f"| {share:.1%} | {share * per_action_ms:.3f} | `{name}` |")
    return lines


def human(setup: Setup) -> Setup:
    """The pace of ``jokeapp.bench.capacity``: three seats think 2 s, each think drawn from
    it × [0.5, 1.5] as there (rooms started together drift apart instead of acting in waves,
    which cost less per action), one server bot at its 1 s delay."""
    return replace(setup, think=2.0, think_spread=HUMAN_SPREAD, bots=1, bot_delay=1.0, rate=20.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jokeapp.bench.profile",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--top", type=int, default=30, help="functions listed per table")
    parser.add_argument("--raw", type=Path, help="also keep py-spy's collapsed stacks here")
    parser.add_argument(
        "--human",
        action="store_true",
        help="at the capacity run's human pace: three seats think 2 s, one server bot (1 s)",
    )
    parser.add_argument(
        "--label",
        choices=("before", "after"),
        default="after",
        help="the section's heading: Profile (before) is kept as the reference for later runs",
    )
    add_setup_arguments(parser)
    parser.add_argument(
        "--section", action="store_true", help="accepted for `python -m jokeapp.bench`"
    )
    args = parser.parse_args(argv)
    setup = Setup(port=args.port, generators=args.generators, db=args.db, pin=not args.no_pin)
    if args.human:
        setup = human(setup)
    row, raw = profile(args.rooms, args.seconds, args.warmup, setup)
    if args.raw:
        args.raw.write_text(raw, encoding="utf-8")
    print("\n".join(section(args, row, raw, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
