"""What the server measured itself over a load window: the change in its ``/metrics`` histograms.

A load generator's latency is the server's time plus the network and the generator's own
event loop (busy with other seats, or without a core). The server's histograms
(``docs/server.md``, "Metrics") say which part is whose: an action's time in its room
(``joke_action_update_seconds``), how late its event loop ran (``joke_event_loop_lag_seconds``)
and the collector's passes (``joke_gc_pause_seconds``). A histogram gives a quantile only to
its bucket: the figures are the upper bounds of the buckets they fall in.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

ACTION = "joke_action_update_seconds"
LOOP_LAG = "joke_event_loop_lag_seconds"
GC_PAUSE = "joke_gc_pause_seconds"
GC_CPU = "joke_gc_cpu_seconds"
STORE_WRITE = "joke_store_write_seconds"
WATCHED = (ACTION, LOOP_LAG, GC_PAUSE, STORE_WRITE, GC_CPU)
# the full passes apart (generation 2 of joke_gc_pause_seconds): each walks every live object
GC_FULL = "joke_gc_pause_seconds{generation=2}"


@dataclass(frozen=True)
class Histogram:
    """Cumulative counts by upper bound (seconds, ``inf`` last) and the sum of the values."""

    buckets: tuple[tuple[float, float], ...]
    total: float

    @property
    def count(self) -> float:
        return self.buckets[-1][1] if self.buckets else 0.0

    def minus(self, before: Histogram | None) -> Histogram:
        if before is None:
            return self
        old = dict(before.buckets)
        return Histogram(
            tuple((le, n - old.get(le, 0.0)) for le, n in self.buckets), self.total - before.total
        )

    def quantile(self, q: float) -> float:
        """The upper bound of the bucket the ``q`` quantile falls in (nan if empty)."""
        if not self.count:
            return math.nan
        rank = q * self.count
        for le, n in self.buckets:
            if n >= rank:
                return le
        return math.inf

    def top(self) -> float:
        """The upper bound of the highest bucket anything fell in (nan if empty)."""
        below = 0.0
        found = math.nan
        for le, n in self.buckets:
            if n > below:
                found = le
            below = n
        return found


Snapshot = dict[str, Histogram]  # family name -> summed over its labels (and over nodes)


def parse(texts: Iterable[str]) -> Snapshot:
    """The watched histograms of one or more scrapes (several nodes), summed over labels."""
    buckets: dict[str, dict[float, float]] = defaultdict(lambda: defaultdict(float))
    sums: dict[str, float] = defaultdict(float)
    for text in texts:
        for family in text_string_to_metric_families(text):
            if family.name not in WATCHED:
                continue
            for sample in family.samples:
                names = [family.name]
                if family.name == GC_PAUSE and sample.labels.get("generation") == "2":
                    names.append(GC_FULL)
                for name in names:
                    if sample.name.endswith("_bucket"):
                        buckets[name][float(sample.labels["le"])] += sample.value
                    elif sample.name.endswith("_sum"):
                        sums[name] += sample.value
    return {
        name: Histogram(tuple(sorted(counts.items())), sums[name])
        for name, counts in buckets.items()
    }


def scrape(addresses: Iterable[str]) -> Snapshot:
    return parse(httpx.get(f"http://{a}/metrics", timeout=30).text for a in addresses)


def window_figures(before: Snapshot, after: Snapshot) -> dict[str, float]:
    """Per window, in ms: the server's own p99 of an action, its loop's worst lateness, the
    collector's passes (how many, their total and the longest, in wall and CPU time), the
    store wait's p99."""

    def delta(name: str) -> Histogram:
        return after.get(name, Histogram((), 0.0)).minus(before.get(name))

    action, lag, gc, store, gc_cpu = (delta(n) for n in WATCHED)
    full = delta(GC_FULL)
    return {
        "server_p99_ms": action.quantile(0.99) * 1000,
        "server_lag_p99_ms": lag.quantile(0.99) * 1000,
        "server_lag_max_ms": lag.top() * 1000,
        "gc_passes": gc.count,
        "gc_ms": gc.total * 1000,
        "gc_max_ms": gc.top() * 1000,
        "gc_cpu_ms": gc_cpu.total * 1000,
        "gc_cpu_max_ms": gc_cpu.top() * 1000,
        "gc_full_passes": full.count,
        "gc_full_ms": full.total * 1000,
        "store_p99_ms": store.quantile(0.99) * 1000,
    }


def bound_ms(value: float) -> str:
    """A bucket's upper bound, for a table: ``≤ 25 ms``, ``> 5 s`` past the last bucket."""
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return "> top bucket"
    return f"≤ {value:g} ms"


def process_counters(pids: Iterable[int]) -> dict[str, float]:
    """The servers' CPU split (user and system, ms) and their context switches, the event
    loop's thread (the main one) apart from the others (SQLite's, the bots' workers …): a
    voluntary switch is a block and a wake-up (waiting in epoll, on a queue, in a sleep), a
    nonvoluntary one a thread that wanted the core and lost it (/proc/PID/task/*/stat, status).
    A probe of ``load.measure_window``: each becomes a figure per accepted action."""
    tick = os.sysconf("SC_CLK_TCK")
    names = ("user_ms", "system_ms", "loop_woke", "loop_preempted")
    out = dict.fromkeys((*names, "threads_woke", "threads_preempted"), 0.0)
    for pid in pids:
        for task in Path(f"/proc/{pid}").glob("task/*"):
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                status = (task / "status").read_text().splitlines()
            except OSError:  # the thread ended meanwhile
                continue
            out["user_ms"] += int(fields[11]) * 1000 / tick
            out["system_ms"] += int(fields[12]) * 1000 / tick
            who = "loop" if task.name == str(pid) else "threads"
            for line in status:
                if line.startswith("voluntary_ctxt_switches:"):
                    out[f"{who}_woke"] += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches:"):
                    out[f"{who}_preempted"] += int(line.split()[1])
    return out
