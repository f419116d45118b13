"""The load test against a cluster (docs/cluster.md): 1, 2 and 3 nodes on one PostgreSQL
database and one Redis, against the single process on the same database.

Every node is pinned to the server's core (so all configurations get the same CPU) and the
generator's seats are spread over the nodes: a room is opened on one node and its other
seats connect to the next ones, so with n nodes (n-1)/n of the sockets are relayed to the
room's owner. CPU per action sums every node. A fresh database is made for each configuration
(``joke_bench_<hex>`` on the server of ``--pg``) and dropped after it, and a fresh Redis key
prefix is used.

    python -m jokeapp.bench.cluster --rooms 100 --runs 3 --seconds 5   (what make bench runs)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import sys
from collections.abc import Iterator
from typing import Any

from jokeapp.bench import load
from jokeapp.bench.machine import describe

PG = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"


async def _admin(url: str, sql: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.contextmanager
def fresh_database(url: str) -> Iterator[str]:
    name = f"joke_bench_{secrets.token_hex(4)}"
    asyncio.run(_admin(url, f"CREATE DATABASE {name}"))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(_admin(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


def configurations(nodes: list[int]) -> list[tuple[str, int, bool]]:
    """(label, nodes, with Redis): the single process first, the baseline."""
    return [("one process, no Redis", 1, False)] + [
        (f"{n} node{'s' if n > 1 else ''} + Redis", n, True) for n in nodes
    ]


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for label, nodes, clustered in configurations(args.nodes):
        with fresh_database(args.pg) as db:
            setup = load.Setup(
                think=args.think,
                generators=args.generators,
                db=db,
                nodes=nodes,
                redis=args.redis if clustered else None,
            )
            row = load.measure(args.rooms, setup, args.runs, args.seconds, args.warmup)
        row["label"] = label
        rows.append(row)
        print(f"measured {label}: {row['actions_per_s']:.0f} actions/s", file=sys.stderr)
    return rows


def section(args: argparse.Namespace, rows: list[dict[str, Any]]) -> list[str]:
    base = rows[0]["server_cpu_ms_per_action"]
    pace = "full speed" if args.think <= 0 else f"each seat thinks {args.think:g} s"
    lines = [
        "## Cluster",
        "",
        f"`python -m jokeapp.bench.cluster --rooms {args.rooms} --runs {args.runs} --seconds "
        f"{args.seconds:g} --think {args.think:g} --nodes {' '.join(map(str, args.nodes))}` — "
        f"{args.rooms} marble rooms × {load.SEATS} WebSocket clients at {pace}, on a fresh "
        "PostgreSQL database each; every node pinned to the same one core (the generator on the "
        "others), so a cluster cannot be faster here: what shows is the cost of crossing nodes. "
        "A room opens on one node, its other seats connect to the next nodes ((n-1)/n of the "
        "sockets relayed to the owner). CPU per action: all nodes summed. Redis carries no "
        "per-action traffic (leases are renewed once per 5/3 s per node, one round trip for all "
        "of a node's rooms); PostgreSQL gets the same group commits as the single process. "
        f"Median of {args.runs} windows of {args.seconds:g} s.",
        "",
        "| setup | playing | actions/s | p50 | p99 | server CPU/action | × one process | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['label']} | {r['rooms_playing']:.0f} | {r['actions_per_s']:,.0f} | "
            f"{r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms | "
            f"{r['server_cpu_ms_per_action']:.3f} ms | "
            f"{r['server_cpu_ms_per_action'] / base:.2f} | {r['errors']:.0f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jokeapp.bench.cluster", description=__doc__)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.0, help="seconds before each action")
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--generators", type=int, default=2)
    parser.add_argument("--pg", default=PG, help="a PostgreSQL URL allowed to create databases")
    parser.add_argument("--redis", default=REDIS)
    parser.add_argument("--quick", action="store_true", help="10 rooms, 1 window of 2 s")
    parser.add_argument("--section", action="store_true", help="only the Markdown section")
    args = parser.parse_args(argv)
    if args.quick:
        args.rooms, args.runs, args.seconds, args.warmup = 10, 1, 2.0, 0.5
    lines = section(args, run(args))
    print("\n".join(lines))
    if not args.section:
        print(f"\nMachine: {describe()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
