"""The cluster benchmark's interleaved rounds (``jokeapp.bench.cluster.combine``): each
configuration's ratio to the single process is taken within a round, against that round's own
single process, and the table shows its median with the lowest and highest round, so a
machine whose load drifts between rounds shows as a range, not as a difference."""

from __future__ import annotations

import argparse
from typing import Any

from jokeapp.bench import cluster


def _row(label: str, cpu: float, *, lost: int = 0, acked: int = 10) -> dict[str, Any]:
    return {
        "label": label,
        "routing": "hash",
        "think": 0.0,
        "server_cpu_ms_per_action": cpu,
        "actions_per_s": 100.0,
        "rooms": 10,
        "rooms_playing_min": 10,
        "relayed": 0,
        "lost": lost,
        "acked": acked,
        "errors": 0,
    }


def test_each_round_s_ratio_is_against_its_own_single_process() -> None:
    one, three = "one process, no Redis", "3 nodes + Redis"
    rounds = [
        [_row(one, 1.0), _row(three, 1.4)],  # a quiet round: 1.4×
        [_row(one, 2.0), _row(three, 2.6, lost=1)],  # a loaded one: everything slower, 1.3×
        [_row(one, 1.5), _row(three, 2.4)],  # 1.6×
    ]
    base, row = cluster.combine(rounds)
    assert base["ratio"] == 1.0 and base["rounds"] == 3
    # The median of the rounds' ratios, not the ratio of the medians (2.4 / 1.5 = 1.6).
    assert round(row["ratio"], 6) == 1.4
    assert (round(row["ratio_min"], 6), round(row["ratio_max"], 6)) == (1.3, 1.6)
    assert row["server_cpu_ms_per_action"] == 2.4  # each figure: the median over the rounds
    assert (row["cpu_min"], row["cpu_max"]) == (1.4, 2.6)
    assert (row["lost"], row["acked"]) == (1, 30)  # nothing lost is hidden by a median


def test_a_round_that_failed_is_said_and_left_out() -> None:
    one, two = "one process, no Redis", "2 nodes + Redis"
    failed = {"label": two, "routing": "hash", "think": 0.0, "failed": "RuntimeError: x"}
    rounds = [[_row(one, 1.0), _row(two, 1.2)], [_row(one, 1.0), failed]]
    _, row = cluster.combine(rounds)
    assert row["rounds"] == 1 and row["failed_rounds"] == 1
    args = argparse.Namespace(
        rooms=10, runs=1, seconds=2.0, warmup=0.5, rounds=2, paces=[0.0], nodes=[2],
        routing=["hash"], minutes=1.0, load_at_start=1.0,
    )  # fmt: skip
    combined = cluster.combine(rounds)
    for r in combined:
        r.setdefault("p50_ms", 1.0)
        r.setdefault("p99_ms", 2.0)
        r.setdefault("server_cpu_share", 0.5)
        r.setdefault("redis_round_trips_per_action", 0.0)
        r.setdefault("pg_round_trips_per_action", 0.1)
        r.setdefault("pg_transactions_per_action", 0.1)
    table = "\n".join(cluster.section(args, combined))
    assert "--rounds 2" in table
    assert "| 1.20, failed in 1 round(s) |" in table
