"""The server's own figures over a window come from the change in its histograms (issue 11)."""

from __future__ import annotations

import math
import os
import threading
import time

from jokeapp.bench.serverside import bound_ms, parse, process_counters, window_figures
from jokeapp.telemetry.metrics import Metrics


def test_a_window_counts_only_what_happened_in_it_summed_over_labels_and_nodes() -> None:
    one, two = Metrics(), Metrics()
    one.for_game("marble").action_seconds.observe(0.5)  # before the window: not counted
    before = parse([one.render().decode(), two.render().decode()])
    for _ in range(98):
        one.for_game("marble").action_seconds.observe(0.002)
    two.for_game("dalmuti").action_seconds.observe(0.003)  # another node, another game
    one.for_game("marble").action_seconds.observe(0.04)
    one.loop_lag_seconds.observe(0.0001)
    one.loop_lag_seconds.observe(0.03)
    one.gc_pause_seconds.labels("0").observe(0.0002)
    two.gc_pause_seconds.labels("2").observe(0.2)
    two.gc_cpu_seconds.observe(0.07)
    after = parse([one.render().decode(), two.render().decode()])
    figures = window_figures(before, after)
    # 100 actions in the window: 98 at 2 ms, 1 at 3 ms, 1 at 40 ms
    assert figures["server_p99_ms"] == 5.0  # the 99th falls in the (2.5, 5] ms bucket
    assert figures["server_lag_max_ms"] == 50.0  # 30 ms: in (25, 50]
    assert figures["gc_passes"] == 2
    assert math.isclose(figures["gc_ms"], 200.2)
    assert figures["gc_max_ms"] == 250.0
    assert math.isclose(figures["gc_cpu_ms"], 70.0) and figures["gc_cpu_max_ms"] == 100.0
    assert figures["gc_full_passes"] == 1 and math.isclose(figures["gc_full_ms"], 200.0)
    assert math.isnan(figures["store_p99_ms"])  # no store write in the window


def test_an_empty_window_gives_no_figure_rather_than_zero() -> None:
    m = Metrics()
    snap = parse([m.render().decode()])
    figures = window_figures(snap, snap)
    assert math.isnan(figures["server_p99_ms"]) and figures["gc_passes"] == 0
    assert bound_ms(figures["server_p99_ms"]) == "—"
    assert bound_ms(25.0) == "≤ 25 ms" and bound_ms(math.inf) == "> top bucket"


def test_a_process_s_switches_are_split_between_its_main_thread_and_the_others() -> None:
    before = process_counters([os.getpid()])
    slept = threading.Event()
    finish = threading.Event()

    def worker() -> None:
        time.sleep(0.001)  # a sleep blocks: at least one voluntary switch of this thread
        slept.set()
        finish.wait()  # still alive (and in /proc) when the counters are read

    thread = threading.Thread(target=worker)
    thread.start()
    slept.wait()
    after = process_counters([os.getpid()])
    finish.set()
    thread.join()
    assert after["threads_woke"] >= before["threads_woke"] + 1
    assert after["loop_woke"] >= before["loop_woke"]
    assert after["user_ms"] + after["system_ms"] >= before["user_ms"] + before["system_ms"]
    assert set(after) == {
        "user_ms", "system_ms", "loop_woke", "loop_preempted", "threads_woke", "threads_preempted",
    }  # fmt: skip
