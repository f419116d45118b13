"""Rooms per node at a human pace: the product figure.

One server process (pinned to the first core, the load generator on the others) gets more
and more marble rooms in steps (500, 1,000, 2,000 … rooms). In every room three WebSocket
seats act at a human pace (``--think`` seconds before each decision on average, default 2 s,
each think drawn from it × [0.5, 1.5] (``load.HUMAN_SPREAD``) so that rooms started together
drift apart instead of acting in waves: about one decision every 2 s per room) and one seat is a server bot at its normal delay (1 s). Each step
waits until every room has had an action accepted, settles, then measures one window of
``--step-seconds``. The ramp stops at the first step whose p99 (action sent to its
acknowledging update) passes ``--p99-ms``, that has an error, or in which a room did not play,
and reports the largest room count held.

    python -m jokeapp.bench.capacity                       # 500 … 5,000 rooms, 60 s a step
    python -m jokeapp.bench.capacity --quick               # smoke test: 20 and 50 rooms, 8 s
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import Any

from jokeapp.bench.load import (
    HUMAN_SPREAD,
    Setup,
    _ms,
    add_setup_arguments,
    describe_setup,
    measure_window,
    running,
)
from jokeapp.bench.machine import describe
from jokeapp.bench.serverside import bound_ms, process_counters

DEFAULT_STEPS = [500, 1000, 2000, 3000, 4000, 5000]


def held(row: dict[str, Any], p99_ms: float) -> bool:
    """A step holds when p99 is under the goal, nothing failed and every room played."""
    return bool(
        row["p99_ms"] < p99_ms and row["errors"] == 0 and row["rooms_playing"] == row["rooms"]
    )


def ramp(
    steps: list[int],
    setup: Setup,
    step_seconds: float,
    settle: float,
    p99_ms: float,
    budget_s: float,
) -> list[dict[str, Any]]:
    """Grows one server step by step; stops at the first step that does not hold.

    A step that would not finish within ``budget_s`` (its growth estimated from the last
    step's rate of opening rooms) is not started, so the run stays bounded in time.
    """
    rows: list[dict[str, Any]] = []
    began = time.monotonic()
    rate = 0.0  # rooms opened per second in the last step
    with running(setup) as (server, generators):
        for number, rooms in enumerate(steps, start=1):
            if rate:
                estimate = (rooms - generators.rooms) / rate + settle + step_seconds + 10
                if time.monotonic() - began + estimate > budget_s:
                    budget = f"{budget_s / 60:g}-minute budget"
                    rows.append(
                        {"rooms": rooms, "failed": f"not started: it would pass the {budget}"}
                    )
                    break
            started = time.monotonic()
            before = generators.rooms
            try:
                generators.grow(rooms)
            except RuntimeError as exc:  # rooms could not all be opened or did not all play
                rows.append({"rooms": rooms, "failed": str(exc)})
                break
            grown = time.monotonic() - started
            rate = (rooms - before) / max(grown, 1e-3)
            time.sleep(settle)
            row = measure_window(
                server, generators, number, step_seconds, lambda s: process_counters(s.pids)
            )
            row["grow_s"] = grown
            row["held"] = held(row, p99_ms)
            rows.append(row)
            print(
                f"{rooms} rooms: p99 {row['p99_ms']:.1f} ms (server's own "
                f"{bound_ms(row['server_p99_ms'])}, store wait p99 {bound_ms(row['store_p99_ms'])}, its loop lag p99 {bound_ms(row['server_lag_p99_ms'])}, max {bound_ms(row['server_lag_max_ms'])}, "
                f"{row['gc_passes']:.0f} GC passes ({row['gc_full_passes']:.0f} full, "
                f"{row['gc_full_ms']:.0f} ms), longest {bound_ms(row['gc_max_ms'])}, CPU "
                f"{row['gc_cpu_ms']:.0f} ms, longest {bound_ms(row['gc_cpu_max_ms'])}; generator "
                f"lag p99 {row['generator_lag_p99_ms']:.1f} ms, max {row['generator_lag_max_ms']:.1f} ms, "
                f"its longest GC pass {row['generator_gc_max_ms']:.1f} ms), "
                f"{row['rooms_playing']} playing, {row['errors']} errors, server "
                f"{row['server_cpu_share']:.0%} busy, {row['server_wait_share']:.0%} waiting for a core, "
                f"{row['loop_woke_per_action']:.2f} loop wake-ups and "
                f"{row['threads_woke_per_action']:.2f} other threads' per action",
                file=sys.stderr,
            )
            if not row["held"]:
                break
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| rooms | playing | actions/s | p50 | p99 | max | server's own p99 | store wait p99 | server loop lag max "
        "| GC passes (total, longest; CPU; full passes, their time) | generator lag p99 / max | server CPU/action | generator CPU/action "
        "| server user / system per action "
        "| server switches per action: loop woke / preempted, other threads woke "
        "| server busy / waiting | update bytes p50 | server RSS | RSS per room | errors | held |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if "failed" in r:
            lines.append(f"| {r['rooms']:,} |" + " — |" * 19 + f" {r['failed']} |")
            continue
        lines.append(
            f"| {r['rooms']:,} | {r['rooms_playing']:,} | {r['actions_per_s']:,.0f} | {_ms(r['p50_ms'])} "
            f"| {_ms(r['p99_ms'])} | {_ms(r['max_ms'])} | {bound_ms(r['server_p99_ms'])} "
            f"| {bound_ms(r['store_p99_ms'])} "
            f"| {bound_ms(r['server_lag_max_ms'])} "
            f"| {r['gc_passes']:,.0f} ({r['gc_ms']:,.0f} ms, {bound_ms(r['gc_max_ms'])}; "
            f"{r['gc_cpu_ms']:,.0f} ms, {bound_ms(r['gc_cpu_max_ms'])}; "
            f"{r.get('gc_full_passes', 0):,.0f} full, {r.get('gc_full_ms', 0):,.0f} ms) "
            f"| {_ms(r['generator_lag_p99_ms'])} / {_ms(r['generator_lag_max_ms'])} "
            f"| {r['server_cpu_ms_per_action']:.2f} ms | {r['generator_cpu_ms_per_action']:.2f} ms "
            f"| {r['user_ms_per_action']:.2f} / {r['system_ms_per_action']:.2f} ms "
            f"| {r['loop_woke_per_action']:.2f} / {r['loop_preempted_per_action']:.2f}, "
            f"{r['threads_woke_per_action']:.2f} "
            f"| {r['server_cpu_share']:.0%} / {r['server_wait_share']:.0%} | {r['update_bytes_p50']:,.0f} B | {r['rss_mib']:,.0f} MiB "
            f"| {r['kib_per_room']:,.0f} KiB | {r['errors']} | {'yes' if r['held'] else 'no'} |"
        )
    return "\n".join(lines)


def held_rooms(rows: list[dict[str, Any]]) -> int:
    return max((r["rooms"] for r in rows if r.get("held")), default=0)


def section(args: argparse.Namespace, rows: list[dict[str, Any]], setup: Setup) -> list[str]:
    best = held_rooms(rows)
    last = rows[-1] if rows else {}
    if last.get("held") and last["rooms"] == max(args.steps):
        verdict = (
            f"every step held, up to {best:,} rooms (the ramp's last step; more was not tried)"
        )
    elif best and "failed" in last and last["failed"].startswith("not started"):
        verdict = (
            f"**{best:,} rooms** held; the time budget ended the ramp before {last['rooms']:,}"
        )
    elif best:
        verdict = f"**{best:,} rooms** held; the next step ({last['rooms']:,}) did not"
    else:
        verdict = "no step held"
    return [
        "## Capacity: rooms per node at a human pace",
        "",
        f"`{command_line(args)}` — {describe_setup(setup)}. Steps grow one server; each waits until "
        f"every room has had an action accepted, settles {args.settle:g} s and measures "
        f"{args.step_seconds:g} s. A step holds with p99 under {args.p99_ms:g} ms, no error and every "
        f"room playing. Busy / waiting: the server's CPU time and its time ready to run without a "
        f"core (other processes), as shares of the window. Switches: the server's context switches per "
        f"accepted action, its event loop's thread (woke: it blocked and woke; preempted: it lost "
        f"the core) and its other threads' wake-ups. Result: {verdict}.",
        "",
        table(rows),
    ]


def command_line(args: argparse.Namespace) -> str:
    line = (
        f"python -m jokeapp.bench.capacity --steps {' '.join(map(str, args.steps))} "
        f"--step-seconds {args.step_seconds:g} --think {args.think:g}"
    )
    if args.server_args:
        line += f" --server-args={shlex.join(args.server_args)!r}"
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jokeapp.bench.capacity",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--steps", type=int, nargs="+", default=DEFAULT_STEPS, help="room counts, rising"
    )
    parser.add_argument("--max-rooms", type=int, default=5000, help="no step above this")
    parser.add_argument(
        "--step-seconds", type=float, default=60.0, help="measured seconds per step"
    )
    parser.add_argument(
        "--settle", type=float, default=5.0, help="seconds between growing and measuring"
    )
    parser.add_argument(
        "--think", type=float, default=2.0, help="seconds a seat thinks before acting"
    )
    parser.add_argument("--bots", type=int, default=1, help="seats per room played by server bots")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the server's bot delay")
    parser.add_argument(
        "--budget-minutes", type=float, default=25.0, help="no step starts that would end later"
    )
    parser.add_argument("--p99-ms", type=float, default=100.0, help="the latency goal")
    parser.add_argument(
        "--quick", action="store_true", help="smoke test: 20 and 50 rooms, 8 s a step"
    )
    add_setup_arguments(parser)
    parser.add_argument(
        "--section", action="store_true", help="only the Markdown section (for BENCHMARKS.md)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.steps, args.step_seconds, args.settle = [20, 50], 8.0, 1.0
    args.steps = sorted(s for s in set(args.steps) if 0 < s <= args.max_rooms)
    if not args.steps or args.step_seconds <= 0 or not 0 <= args.bots < 4:
        parser.error(
            "need at least one step in 1..--max-rooms, positive --step-seconds, --bots 0-3"
        )
    setup = Setup(
        port=args.port, think=args.think, think_spread=HUMAN_SPREAD, bots=args.bots,
        bot_delay=args.bot_delay, rate=20.0,
        generators=args.generators, db=args.db, pin=not args.no_pin, server_args=tuple(args.server_args),
    )  # fmt: skip
    rows = ramp(
        args.steps, setup, args.step_seconds, args.settle, args.p99_ms, args.budget_minutes * 60
    )
    print("\n".join(section(args, rows, setup)))
    if not args.section:
        print(f"\nMachine: {describe()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
