"""Our lock-free Counter and Histogram (jokeapp.telemetry.metrics) expose exactly what
prometheus_client's own would, for the same values: same buckets (a value on a bound counts
in that bucket), sums, counts and text."""

from __future__ import annotations

import prometheus_client
from hypothesis import given, settings
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, generate_latest

from jokeapp.telemetry.metrics import LATENCY_BUCKETS, Counter, Histogram

# values on the bounds themselves, between them, below the first and above the last
VALUES = st.lists(
    st.one_of(
        st.sampled_from(LATENCY_BUCKETS[:-1]),
        st.floats(min_value=0.0, max_value=100.0, allow_nan=False),
    ),
    max_size=60,
)


def _text(counter_cls: type, histogram_cls: type, values: list[float]) -> bytes:
    registry = CollectorRegistry()
    counter = counter_cls("joke_test_total", "a counter", ["game"], registry=registry)
    histogram = histogram_cls(
        "joke_test_seconds", "a histogram", ["game"], buckets=LATENCY_BUCKETS, registry=registry
    )
    for i, value in enumerate(values):
        game = "marble" if i % 3 else "dalmuti"
        counter.labels(game).inc(value)
        histogram.labels(game).observe(value)
    # every metric's `_created` line is the wall-clock time it was made: not a value
    lines = generate_latest(registry).splitlines(keepends=True)
    return b"".join(line for line in lines if b"_created" not in line)


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_instruments_expose_what_prometheus_clients_own_would(values: list[float]) -> None:
    ours = _text(Counter, Histogram, values)
    theirs = _text(prometheus_client.Counter, prometheus_client.Histogram, values)
    assert ours == theirs


def test_a_value_on_a_bucket_bound_counts_in_that_bucket() -> None:
    registry = CollectorRegistry()
    histogram = Histogram("joke_bound_seconds", "h", buckets=(0.1, 1.0), registry=registry)
    histogram.observe(0.1)
    text = generate_latest(registry).decode()
    assert 'joke_bound_seconds_bucket{le="0.1"} 1.0' in text
