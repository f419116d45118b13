"""The load test against a cluster (docs/cluster.md): the single process, then 1, 2 and 3 nodes
on one PostgreSQL database and one Redis, every one of them behind deploy/nginx.conf (run by
jokeapp/bench/nginx.py on a loopback port), at a human pace and at full speed.

Every node is pinned to the server's core (so all configurations get the same CPU); the
generator, nginx and the benchmark's own Redis run on the other cores. The generator reaches
everything through nginx, as people would: with the deployment's routing (``hash`` on the
room's reference, so a room's sockets land on one node, which takes the room over) and, for
two nodes or more, with plain round robin too (``--routing``), where sockets land anywhere and
the owner relays the others. CPU per action sums every node.

Round trips per action over the same windows, as the nodes count them (``/metrics``:
``joke_redis_requests_total``, a pipeline or a script being one request, and
``joke_store_round_trips_total``: statements, BEGIN, COMMIT), and PostgreSQL's own count of
transactions in the run's database (``pg_stat_database`` of ``joke_bench_<hex>`` on the
server of ``--pg``, made for each configuration and dropped after it; backends report it at
most once a second, so a window's edges blur by that much). Redis is a ``redis-server`` of
the benchmark's own (``--redis own``), so nothing else shares it. Nothing lost: after the
windows, every action the generator saw acknowledged (or a new owner's snapshot confirmed) is
looked up in the log (``actions``: room, seat, clientSeq).

At a human pace each think is drawn from the pace × [0.5, 1.5] (``load.HUMAN_SPREAD``): with one fixed
think, the rooms (all started together) acted in waves a think apart, and a short window's
count depended on how many waves it caught. The table gives CPU per action and CPU per second:
at a few hundred actions per second a node's fixed costs per second weigh on the first.

    python -m jokeapp.bench.cluster                 (what make bench runs: 1,000 rooms)
    python -m jokeapp.bench.cluster --rooms 100 --paces 0 --nodes 2 --routing hash
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from math import nan
from typing import Any

import httpx
import redis

from jokeapp.bench import load, loopback
from jokeapp.bench.loopback import free_port
from jokeapp.bench.machine import describe
from jokeapp.bench.nginx import ROUTINGS, Routing

PG = "postgresql://postgres@127.0.0.1:5432/test"
# Requests in flight per generator process while the rooms are opened: a room's sockets make
# it move to their node as they connect, and several nodes on one core then answer far slower
# than one; a deep queue would only stretch each request past nginx's 60 s.
CONCURRENCY = 20
HUMAN = 2.0  # seconds a seat thinks before each action at a human pace (as the capacity ramp)


async def _admin(url: str, sql: str, *args: Any) -> list[Any]:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


@contextlib.contextmanager
def fresh_database(url: str) -> Iterator[tuple[str, str]]:
    """A new database on the server of ``url``: (its URL, its name); dropped after."""
    name = f"joke_bench_{secrets.token_hex(4)}"
    asyncio.run(_admin(url, f"CREATE DATABASE {name}"))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name, name
    finally:
        asyncio.run(_admin(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@contextlib.contextmanager
def own_redis() -> Iterator[str]:
    """A redis-server of the benchmark's own on a loopback port (no persistence), so its
    command counts are the cluster's alone; on the generator's cores."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    _, others = load.split_cores()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="joke-redis-") as tmp:
        cores = others
        proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", tmp],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None,
        )  # fmt: skip
        url = f"redis://127.0.0.1:{port}/0"
        try:
            client = redis.Redis.from_url(url)
            deadline = time.monotonic() + 15
            while True:
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise RuntimeError("redis-server did not start") from None
                    time.sleep(0.05)
            client.close()
            yield url
        finally:
            loopback.stop([proc], wait=10)


@dataclass(frozen=True)
class Config:
    label: str
    nodes: int
    clustered: bool  # with Redis: a cluster of ``nodes``; else the single process
    routing: Routing


def configurations(nodes: list[int], routings: list[Routing]) -> list[Config]:
    """The single process first (the baseline), then each cluster size in each routing (one
    node: routing changes nothing, measured once)."""
    found = [Config("one process, no Redis", 1, False, "hash")]
    for n in nodes:
        for routing in routings if n > 1 else routings[:1]:
            found.append(Config(f"{n} node{'s' if n > 1 else ''} + Redis", n, True, routing))
    return found


def node_counts(server: load.Server) -> dict[str, float]:
    """Every node's /metrics, summed: the counters and gauges by name (labels dropped)."""
    found: dict[str, float] = {}
    for address in server.addresses:
        text = httpx.get(f"http://{address}/metrics", timeout=30).text
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                name = name.split("{", 1)[0]
                found[name] = found.get(name, 0.0) + float(value)
    return found


class Counters:
    """What a window's probe reads: the nodes' requests to Redis and to PostgreSQL (their
    /metrics) and PostgreSQL's own count of the run's transactions."""

    def __init__(self, pg: str, database: str) -> None:
        self.pg = pg
        self.database = database

    def __call__(self, server: load.Server) -> dict[str, float]:
        counts = node_counts(server)
        found = {
            "pg_round_trips": counts.get("joke_store_round_trips_total", 0.0),
            "redis_round_trips": counts.get("joke_redis_requests_total", 0.0),
        }
        rows = asyncio.run(
            _admin(
                self.pg,
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = $1",
                self.database,
            )
        )
        found["pg_transactions"] = float(rows[0][0]) if rows else float("nan")
        return found


def lost(db: str, acked: list[tuple[str, str, int]]) -> int:
    """The acknowledged actions that are not in the log."""
    rows = asyncio.run(
        _admin(db, "SELECT room_id, actor, client_seq FROM actions WHERE client_seq IS NOT NULL")
    )
    logged = {(r[0], r[1], r[2]) for r in rows}
    return sum(item not in logged for item in acked)


def measure(
    args: argparse.Namespace, config: Config, think: float, redis_url: str
) -> dict[str, Any]:
    with fresh_database(args.pg) as (db, name):
        setup = load.Setup(
            think=think,
            generators=args.generators,
            db=db,
            nodes=config.nodes,
            redis=redis_url if config.clustered else None,
            lb=config.routing,
            concurrency=CONCURRENCY,
            think_spread=load.HUMAN_SPREAD if think > 0 else 0.0,
        )
        ends: dict[str, Any] = {}

        def after(server: load.Server, acked: list[tuple[str, str, int]]) -> dict[str, Any]:
            ends["relayed"] = int(node_counts(server).get("joke_relayed_sockets", 0))
            ends["acked"] = len(acked)
            ends["lost"] = lost(db, acked)
            return ends

        probe = Counters(args.pg, name)
        row = load.measure(args.rooms, setup, args.runs, args.seconds, args.warmup, probe, after)
    return row | {"label": config.label, "routing": config.routing, "think": think}


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every configuration at every pace, in ``args.rounds`` interleaved rounds (the single
    process, then each cluster, then again…), so that the machine's load drifting over the
    run weighs on every configuration alike; the rows are combined by ``combine``."""
    args.load_at_start = os.getloadavg()[0]
    started = time.monotonic()
    rounds: list[list[dict[str, Any]]] = []
    with own_redis() if args.redis == "own" else contextlib.nullcontext(args.redis) as url:
        for number in range(args.rounds):
            rows = []
            for think in args.paces:
                for config in configurations(args.nodes, args.routing):
                    began = time.monotonic()
                    try:
                        row = measure(args, config, think, url)
                    except Exception as exc:  # one failed configuration does not lose the others
                        print(f"failed {config.label} ({config.routing}): {exc}", file=sys.stderr)
                        rows.append({"label": config.label, "routing": config.routing,
                                     "think": think, "failed": f"{type(exc).__name__}: {exc}"})  # fmt: skip
                        continue
                    rows.append(row)
                    print(
                        f"round {number + 1}/{args.rounds}: {config.label} ({config.routing}, "
                        f"think {think:g} s): {row['actions_per_s']:.0f} actions/s, "
                        f"{row['server_cpu_ms_per_action']:.3f} ms CPU/action, "
                        f"{row['pg_transactions_per_action']:.3f} commits/action, "
                        f"{row['redis_round_trips_per_action']:.4f} Redis/action, "
                        f"{row['lost']} lost, in {time.monotonic() - began:.0f} s",
                        file=sys.stderr,
                    )
            rounds.append(rows)
    args.minutes = (time.monotonic() - started) / 60
    return combine(rounds)


def _key(row: dict[str, Any]) -> tuple[str, str, float]:
    return row["label"], row["routing"], row["think"]


def combine(rounds: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per configuration from the rounds: each figure's median over the rounds that
    measured it; the ratio to the single process computed within each round (against that
    round's own single process) and given as its median, lowest and highest (``ratio``,
    ``ratio_min``, ``ratio_max``), so the table shows how far the noise reaches; lost and
    acknowledged actions summed. A configuration that failed in every round stays failed; one
    that failed in some says in how many (``failed_rounds``)."""
    order: list[tuple[str, str, float]] = []
    found: dict[tuple[str, str, float], list[dict[str, Any]]] = {}
    ratios: dict[tuple[str, str, float], list[float]] = {}
    for rows in rounds:
        base = {
            r["think"]: r["server_cpu_ms_per_action"]
            for r in rows
            if r["label"].startswith("one") and "failed" not in r
        }
        for r in rows:
            key = _key(r)
            if key not in found:
                order.append(key)
                found[key] = []
                ratios[key] = []
            found[key].append(r)
            if "failed" not in r and r["think"] in base:
                ratios[key].append(r["server_cpu_ms_per_action"] / base[r["think"]])
    combined = []
    for key in order:
        measured = [r for r in found[key] if "failed" not in r]
        if not measured:
            combined.append(found[key][0])
            continue
        row: dict[str, Any] = {}
        for name, value in measured[0].items():
            values = [r[name] for r in measured if name in r]
            numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
            row[name] = statistics.median(numbers) if len(numbers) == len(values) else value
        for name in ("lost", "acked", "errors"):
            row[name] = sum(r[name] for r in measured)
        row["relayed"] = max(r["relayed"] for r in measured)
        row["rooms_playing_min"] = min(r["rooms_playing_min"] for r in measured)
        row["rooms"] = measured[0]["rooms"]
        row["rounds"] = len(measured)
        row["failed_rounds"] = len(found[key]) - len(measured)
        row["cpu_min"] = min(r["server_cpu_ms_per_action"] for r in measured)
        row["cpu_max"] = max(r["server_cpu_ms_per_action"] for r in measured)
        if ratios[key]:
            row["ratio"] = statistics.median(ratios[key])
            row["ratio_min"], row["ratio_max"] = min(ratios[key]), max(ratios[key])
        combined.append(row)
    return combined


def _pace(think: float) -> str:
    return "full speed" if think <= 0 else f"human pace ({think:g} s)"


def command_line(args: argparse.Namespace) -> str:
    parts = [
        "python -m jokeapp.bench.cluster",
        f"--rooms {args.rooms}",
        f"--runs {args.runs}",
        f"--seconds {args.seconds:g}",
        f"--rounds {args.rounds}",
        f"--paces {' '.join(f'{t:g}' for t in args.paces)}",
        f"--nodes {' '.join(map(str, args.nodes))}",
        f"--routing {' '.join(args.routing)}",
    ]
    return " ".join(parts)


def section(args: argparse.Namespace, rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "## Cluster",
        "",
        f"`{command_line(args)}` — {args.rooms} marble rooms × {load.SEATS} WebSocket clients, "
        "at a human pace and at full speed, everything through deploy/nginx.conf on loopback; "
        "a fresh PostgreSQL database each; every node pinned to the same one core (generator, "
        "nginx and Redis on the others), so a cluster cannot be faster here: what shows is the "
        "cost of crossing nodes. Routing `hash`: the deployment's (nginx hashes on the room's "
        "reference, the room follows its sockets to that node); `round-robin`: the same file "
        "without its `hash` line. Playing: rooms with an action accepted in the window, of all "
        "rooms. CPU per action: all nodes summed; × one process: against the single process "
        "at the same pace: at a human pace every configuration is offered the same load (the "
        f"same rooms, each think drawn anew from the pace × [{1 - load.HUMAN_SPREAD:g}, {1 + load.HUMAN_SPREAD:g}], "
        "the same mean, so the rooms act at random moments rather than in waves), so "
        "its actions/s differ only by the latency, and the ratio compares the same work; "
        "server CPU/s: all nodes' CPU per second of the window, the per-action cost times "
        "the rate plus every fixed cost per second (timers, renewals, scans, keepalive), which "
        "weigh on the human pace's few actions per second. Relayed: sockets relayed to another node after the windows, of all. "
        "Round trips per accepted action, counted by the nodes (/metrics): Redis requests (a "
        "pipeline or a script is one; the benchmark's own redis-server), PostgreSQL requests "
        "(statements, BEGIN, COMMIT) and, in brackets, PostgreSQL's own count of the run "
        "database's transactions (pg_stat_database). "
        "Lost: acknowledged actions missing from the log, of all acknowledged in the run. "
        f"Each configuration measured in {args.rounds} interleaved round(s) (every "
        "configuration once, then again), each the median of "
        f"{args.runs} windows of {args.seconds:g} s after {args.warmup:g} s of "
        "warm-up; every figure is the median over the rounds, CPU per action with its lowest "
        "and highest round, and × one process is the median of each round's ratio to that "
        "round's own single process, with the lowest and highest (the noise of the loaded "
        f"machine: trust a difference only beyond that range); the run took {args.minutes:.0f} "
        f"minutes, the machine's load average was {args.load_at_start:.1f} as it began.",
        "",
        "| pace | setup | routing | playing | actions/s | p50 | p99 | server CPU/action "
        "| × one process | server CPU/s | relayed | Redis/action | PostgreSQL/action (transactions) | errors "
        "| lost |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        routing = r["routing"] if r["label"][0] in "23456789" else "—"
        if "failed" in r:
            why = r["failed"].splitlines()[0][:120].replace("|", "/")
            lines.append(f"| {_pace(r['think'])} | {r['label']} | {routing} | failed: {why} |")
            continue
        ratio = f"{r['ratio']:.2f}" if "ratio" in r else f"{nan}"
        cpu = f"{r['server_cpu_ms_per_action']:.3f} ms"
        if r.get("rounds", 1) > 1:
            ratio += f" ({r['ratio_min']:.2f}–{r['ratio_max']:.2f})"
            cpu += f" ({r['cpu_min']:.3f}–{r['cpu_max']:.3f})"
        if r.get("failed_rounds"):
            ratio += f", failed in {r['failed_rounds']} round(s)"
        redis = r["redis_round_trips_per_action"]
        redis_cell = f"{redis:.3f}" if r["label"][0].isdigit() else "—"
        lines.append(
            f"| {_pace(r['think'])} | {r['label']} | {routing} "
            f"| {r['rooms_playing_min']:,.0f} / {r['rooms']:,} | {r['actions_per_s']:,.0f} "
            f"| {r['p50_ms']:,.1f} ms | {r['p99_ms']:,.1f} ms "
            f"| {cpu} | {ratio} "
            f"| {r['server_cpu_share'] * 1000:,.0f} ms "
            f"| {r['relayed']:,} / {r['rooms'] * load.SEATS:,} | {redis_cell} "
            f"| {r['pg_round_trips_per_action']:.2f} ({r['pg_transactions_per_action']:.3f}) "
            f"| {r['errors']:.0f} "
            f"| {r['lost']} / {r['acked']:,} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jokeapp.bench.cluster", description=__doc__)
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=2, help="windows per configuration and round")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="interleaved rounds of every configuration; medians and ranges over them",
    )
    parser.add_argument(
        "--paces",
        type=float,
        nargs="+",
        default=[HUMAN, 0.0],
        help="seconds each seat thinks before acting, one run each (0: full speed)",
    )
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument(
        "--routing", nargs="+", choices=ROUTINGS, default=list(ROUTINGS), help="nginx's routing"
    )
    parser.add_argument("--generators", type=int, default=2)
    parser.add_argument("--pg", default=PG, help="a PostgreSQL URL allowed to create databases")
    parser.add_argument(
        "--redis", default="own", help="a redis:// URL, or `own`: a redis-server of its own"
    )
    parser.add_argument("--quick", action="store_true", help="10 rooms, 1 window of 2 s")
    parser.add_argument("--section", action="store_true", help="only the Markdown section")
    args = parser.parse_args(argv)
    if args.quick:
        args.rooms, args.runs, args.seconds, args.warmup, args.rounds = 10, 1, 2.0, 0.5, 1
    lines = section(args, run(args))
    print("\n".join(lines))
    if not args.section:
        print(f"\nMachine: {describe()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
