"""Every metric of a server, in one place (``GET /metrics``, Prometheus text format).

One ``Metrics`` per server (per app), each with its own ``CollectorRegistry``: two apps in one
process (tests) never share a counter. The rooms, the cluster and the server count into the
same object; what can be read off the live rooms at scrape time (rooms by game and status) is
read then, not kept up to date on every change.
"""

from __future__ import annotations

import gc
import time
from bisect import bisect_left
from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import prometheus_client
from prometheus_client import CollectorRegistry, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# Seconds; an action's round trip is ~1 ms on an idle node and ~1 s when a core is saturated.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# Seconds; the process's own pauses (jokeapp.telemetry.runtime): mostly well under 1 ms.
PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

# (game id, status) of every live room, read when /metrics is scraped
RoomSource = Callable[[], Iterable[tuple[str, str]]]


_REDIS_HELP = "requests written to Redis (round trips; a pipeline or a script is one)"
_STORE_HELP = "requests sent to the database (statements, BEGIN, COMMIT/ROLLBACK)"

_PINGS_HELP = "keepalive pings sent to WebSockets silent for --ws-ping seconds"
_DROPPED_HELP = "WebSockets closed (1011) for no frame within --ws-ping-timeout of a ping"


class _Plain:
    """A metric's value as prometheus_client's ``MutexValue`` holds it, without its lock.

    Every value of ours is changed from one thread at a time: the event loop's, or the
    collector's callback (``runtime.GcWatch``), which the interpreter runs one pass at a time
    whichever thread set the pass off. At a human pace each action observed three histograms
    and counted one counter, each a lock taken and released per bucket and sum.
    """

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0.0

    def inc(self, amount: float) -> None:
        self.value += amount

    def set(self, value: float, timestamp: float | None = None) -> None:
        self.value = value

    def set_exemplar(self, exemplar: Any) -> None:  # pragma: no cover - we give none
        pass

    def get(self) -> float:
        return self.value

    def get_exemplar(self) -> None:
        return None


class Counter(prometheus_client.Counter):
    """prometheus_client's Counter (same samples, same text), on a lock-free value."""

    def _metric_init(self) -> None:
        super()._metric_init()
        self._value: Any = _Plain()


class Histogram(prometheus_client.Histogram):
    """prometheus_client's Histogram (same buckets, samples and text), whose observation finds
    its bucket by bisection and adds to lock-free values, instead of walking the buckets in
    Python with a lock per addition. A bucket counts the values up to its bound included
    (``le``), as prometheus_client's: ``bisect_left``."""

    def _metric_init(self) -> None:
        super()._metric_init()
        self._sum: Any = _Plain()
        self._buckets: Any = [_Plain() for _ in self._upper_bounds]

    def observe(self, amount: float, exemplar: dict[str, str] | None = None) -> None:
        self._sum.value += amount
        self._buckets[bisect_left(self._upper_bounds, amount)].value += 1


class _CountCollector(Collector):
    def __init__(self, name: str, documentation: str, source: Callable[[], int]) -> None:
        self.name = name
        self.documentation = documentation
        self.source = source

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(self.name, self.documentation, value=self.source())


class _RoomsCollector(Collector):
    def __init__(self, source: RoomSource) -> None:
        self.source = source

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "joke_rooms", "live rooms on this node, by game and status", labels=["game", "status"]
        )
        for (game, status), count in sorted(Tally(self.source()).items()):
            family.add_metric([game, status], count)
        yield family


class TrackedObjects:
    """``joke_gc_tracked_objects``: the objects the cyclic collector tracks, frozen ones
    included (what a full pass walks), as the last full pass left them.

    Counting them walks every one of them (``gc.get_freeze_count`` follows the frozen list
    object by object): 55–60 ms of CPU at 1,000 idle rooms of four WebSockets and 217 ms at
    3,000 playing rooms, a stop of every room. So a scrape never counts them, except the
    first one before any full pass; the server's collector hands in what each of its full
    passes leaves (``counted``: they count them anyway). A heap that stops growing calls for
    no full pass, and its count stands."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.count = 0
        self.at: float | None = None  # the clock at the last count (None: never counted)

    def counted(self, count: int) -> None:
        """The tracked objects, as counted now by someone else (a full pass)."""
        self.count = count
        self.at = self.clock()

    def __call__(self) -> float:
        if self.at is None:
            self.counted(gc.get_freeze_count() + len(gc.get_objects()))
        return float(self.count)


class Metrics:
    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.connections = Gauge(
            "joke_connections", "open WebSocket connections on this node", registry=r
        )
        self.actions_accepted = Counter(
            "joke_actions_accepted", "game actions applied and stored", ["game"], registry=r
        )
        self.actions_refused = Counter(
            "joke_actions_refused",
            "game actions refused by the room or the rules, by error code",
            ["game", "code"],
            registry=r,
        )
        self.frames_refused = Counter(
            "joke_ws_frames_refused",
            "WebSocket frames refused before reaching a room (bad JSON, rate limit ...), by code",
            ["code"],
            registry=r,
        )
        self.action_seconds = Histogram(
            "joke_action_update_seconds",
            "from a client's action arriving to its update handed to every connection",
            ["game"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.store_write_seconds = Histogram(
            "joke_store_write_seconds",
            "a room's wait for one store write (group commit included), by operation",
            ["op"],
            buckets=STORE_BUCKETS,
            registry=r,
        )
        # The whole process's pauses (jokeapp.telemetry.runtime): they delay every room at once.
        self.loop_lag_seconds = Histogram(
            "joke_event_loop_lag_seconds",
            "how late the event loop ran a wake-up that was due (busy elsewhere, or no core)",
            buckets=PAUSE_BUCKETS,
            registry=r,
        )
        self.gc_pause_seconds = Histogram(
            "joke_gc_pause_seconds",
            "one pass of the cyclic garbage collector (wall time), by generation",
            ["generation"],
            buckets=PAUSE_BUCKETS,
            registry=r,
        )
        # The same passes' CPU time: on a shared machine the wall time also holds the moments
        # the process had no core, which say nothing about the collector.
        self.gc_cpu_seconds = Histogram(
            "joke_gc_cpu_seconds",
            "one pass of the cyclic garbage collector (its thread's CPU time)",
            buckets=PAUSE_BUCKETS,
            registry=r,
        )
        self.gc_collected = Counter(
            "joke_gc_collected",
            "objects the cyclic collector found unreachable (cycles reference counting missed)",
            registry=r,
        )
        # What a full pass of the collector walks: the objects it tracks, frozen ones included
        # (server/collector.py freezes every survivor), counted at most once a minute.
        self.gc_tracked = Gauge(
            "joke_gc_tracked_objects",
            "objects the cyclic collector tracks (frozen and not): what a full pass walks",
            registry=r,
        )
        self.tracked = TrackedObjects()
        self.gc_tracked.set_function(self.tracked)
        self.timeouts = Counter(
            "joke_timeouts", "decisions taken by the timeout rules", ["game"], registry=r
        )
        self.room_failures = Counter(
            "joke_room_failures", "commands a room failed on (logged with a traceback)", registry=r
        )
        # The cluster's leases (jokeapp.cluster): rooms this node owns, and rooms it took over
        # from a node whose lease had expired.
        self.leases_held = Gauge("joke_leases_held", "room leases this node holds", registry=r)
        self.leases_taken_over = Counter(
            "joke_leases_taken_over", "rooms taken over from another node", registry=r
        )
        self.leases_lost = Counter(
            "joke_leases_lost", "rooms this node stopped owning (lease lost or fenced)", registry=r
        )
        self.relayed = Gauge(
            "joke_relayed_sockets",
            "sockets this node relays to the node owning their room",
            registry=r,
        )

    def for_game(self, game: str) -> GameMetrics:
        """The children of one game's labels, looked up once per room instead of per action."""
        return GameMetrics(self, game)

    def watch_rooms(self, source: RoomSource) -> None:
        """Reports ``joke_rooms{game, status}`` from ``source`` at each scrape."""
        self.registry.register(_RoomsCollector(source))

    def watch_round_trips(self, store: Callable[[], int], redis: Callable[[], int] | None) -> None:
        """Reports ``joke_store_round_trips_total`` (statements, BEGIN, COMMIT sent to the
        database) and, in a cluster, ``joke_redis_requests_total`` (requests written to Redis;
        a pipeline or a script is one), read at each scrape."""
        self.registry.register(_CountCollector("joke_store_round_trips", _STORE_HELP, store))
        if redis is not None:
            self.registry.register(_CountCollector("joke_redis_requests", _REDIS_HELP, redis))

    def watch_keepalive(self, pings: Callable[[], int], dropped: Callable[[], int]) -> None:
        """Reports ``joke_ws_keepalive_pings_total`` and ``joke_ws_keepalive_dropped_total``
        (the server's keepalive sweep, jokeapp/server/keepalive.py), read at each scrape."""
        self.registry.register(_CountCollector("joke_ws_keepalive_pings", _PINGS_HELP, pings))
        self.registry.register(_CountCollector("joke_ws_keepalive_dropped", _DROPPED_HELP, dropped))

    def render(self) -> bytes:
        return generate_latest(self.registry)


class GameMetrics:
    """What a room of one game counts into on every action (label lookups done once)."""

    def __init__(self, metrics: Metrics, game: str) -> None:
        self.metrics = metrics
        self.game = game
        self.accepted = metrics.actions_accepted.labels(game)
        self.action_seconds = metrics.action_seconds.labels(game)
        self.timeouts = metrics.timeouts.labels(game)
        self.store_append = metrics.store_write_seconds.labels("append")
        self.store_snapshot = metrics.store_write_seconds.labels("snapshot")

    def refused(self, code: str) -> None:
        self.metrics.actions_refused.labels(self.game, code).inc()


# What a room counts into when nobody attached it to a server's metrics (unit tests that build
# a Room directly): real counters, read by no one.
DETACHED = Metrics()
