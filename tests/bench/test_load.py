"""The load tool end to end on tiny sizes: it reports what happened, not how fast (issue 11)."""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys

from jokeapp.bench import load
from jokeapp.bench.capacity import held
from jokeapp.bench.loopback import free_port
from jokeapp.bench.memory import measure
from jokeapp.bench.profile import aggregate


def _load(*args: str) -> list[dict[str, float]]:
    done = subprocess.run(
        [sys.executable, "-m", "jokeapp.bench.load", "--json", *args],
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    rows: list[dict[str, float]] = json.loads(done.stdout)
    return rows


def test_two_rooms_all_play_and_every_figure_is_sane() -> None:
    port = free_port()
    (row,) = _load(
        "--rooms", "2", "--runs", "2", "--seconds", "1.5", "--warmup", "0.3", "--port", str(port)
    )
    assert row["rooms"] == 2
    # every room played in every window
    assert row["rooms_playing"] == row["rooms_playing_min"] == 2
    assert row["windows"] == 2 and row["errors"] == 0
    assert row["accepted"] > 0 and row["actions_per_s"] > 0
    assert 0 < row["p50_ms"] <= row["p99_ms"] <= row["max_ms"]
    assert row["p99_ms_min"] <= row["p99_ms"] <= row["p99_ms_max"]
    assert row["server_cpu_ms_per_action"] > 0 and row["generator_cpu_ms_per_action"] > 0
    assert 0 < row["update_bytes_p50"] <= row["update_bytes_p99"]
    assert row["rss_mib"] > 0 and not math.isnan(row["kib_per_room"])
    # the generator's own loop lag, and the server's own figures from its /metrics
    assert 0 <= row["generator_lag_p99_ms"] <= row["generator_lag_max_ms"]
    assert row["server_p99_ms"] > 0 and row["server_lag_max_ms"] >= 0
    assert row["gc_passes"] > 0  # the server's short passes run every 0.1 s


def test_the_markdown_names_its_command_and_machine() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jokeapp.bench.load", "--rooms", "1", "--runs", "1", "--seconds", "1",
         "--warmup", "0.2"],
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert (
        "`python -m jokeapp.bench.load --rooms 1 --runs 1 --seconds 1 --warmup 0.2`" in done.stdout
    )
    assert "| 1 | 1 |" in done.stdout  # one room, one playing
    assert "Machine:" in done.stdout


def test_bad_sizes_are_refused() -> None:
    done = subprocess.run([sys.executable, "-m", "jokeapp.bench.load", "--rooms", "0"],
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 2 and "must be positive" in done.stderr


def test_a_capacity_step_holds_only_under_the_goal_with_every_room_playing() -> None:
    ok = {"rooms": 10, "rooms_playing": 10, "p99_ms": 80.0, "errors": 0}
    assert held(ok, 100.0)
    assert not held({**ok, "p99_ms": 100.0}, 100.0)
    assert not held({**ok, "errors": 1}, 100.0)
    assert not held({**ok, "rooms_playing": 9}, 100.0)


def test_profile_shares_come_from_the_collapsed_stacks() -> None:
    raw = "\n".join([
        "process 1:\"python\";run (asyncio/runners.py);Room._run (jokeapp/rooms/room.py);"
        "Match.apply (jokeapp/rooms/match.py) 3",
        "process 1:\"python\";run (asyncio/runners.py);Room._run (jokeapp/rooms/room.py) 1",
        "process 1:\"python\";_connection_worker_thread (aiosqlite/core.py) 4",
        "process 1:\"python\";SqliteBatches._work (jokeapp/store/sqlite_batches.py) 2",
    ])  # fmt: skip
    total, inclusive, own, stages = aggregate(raw)
    assert total == 10
    assert inclusive["Room._run (jokeapp/rooms/room.py)"] == 4
    assert own["Match.apply (jokeapp/rooms/match.py)"] == 3
    assert stages["  apply (Match.apply: rules)"] == 3
    assert (
        stages["SQLite thread (SqliteBatches._work: checkpoints; aiosqlite's worker for reads)"]
        == 6
    )


def test_the_profile_s_encoding_stage_counts_the_spliced_ack_too() -> None:
    from jokeapp.bench.profile import STAGES

    publish = "publish (jokeapp/rooms/messages.py)"
    raw = "\n".join([
        f"process 1:\"python\";Room._run (jokeapp/rooms/room.py);{publish};"
        "WsConnection.send (jokeapp/server/ws.py);encode (jokeapp/wire/protocol.py) 2",
        f"process 1:\"python\";Room._run (jokeapp/rooms/room.py);{publish};"
        "WsConnection.send (jokeapp/server/ws.py);encode_acked (jokeapp/wire/protocol.py) 1",
    ])  # fmt: skip
    _, _, _, stages = aggregate(raw)
    encoding = next(name for name, _ in STAGES if name.strip().startswith("encoding"))
    assert stages[encoding] == 3


def test_the_memory_tool_counts_what_idle_rooms_hold_mid_match() -> None:
    row = asyncio.run(measure(rooms=3, steps=5))
    assert row["rooms"] == 3 and row["steps"] >= 5  # every room played, then idles
    assert 1.0 < row["kib_per_room"] < 1024.0
    assert row["top"] and all(size > 0 for _, size in row["top"][:1])


def test_a_capacity_row_shows_the_server_s_own_figures_and_the_generator_s_lag() -> None:
    from jokeapp.bench.capacity import table

    row = {
        "rooms": 500, "rooms_playing": 500, "actions_per_s": 210.0, "p50_ms": 2.1,
        "p99_ms": 40.0, "max_ms": 90.0, "server_p99_ms": 25.0, "store_p99_ms": 5.0,
        "server_lag_max_ms": 50.0, "gc_passes": 600.0, "gc_ms": 450.0, "gc_max_ms": 10.0,
        "gc_cpu_ms": 420.0, "gc_cpu_max_ms": 5.0, "gc_full_passes": 1.0, "gc_full_ms": 310.0,
        "generator_lag_p99_ms": 9.5,
        "generator_lag_max_ms": 150.0, "server_cpu_ms_per_action": 0.65,
        "generator_cpu_ms_per_action": 0.4, "server_cpu_share": 0.14, "server_wait_share": 0.06,
        "update_bytes_p50": 600.0, "rss_mib": 160.0, "kib_per_room": 150.0, "errors": 0,
        "held": True, "user_ms_per_action": 0.5, "system_ms_per_action": 0.15,
        "loop_woke_per_action": 2.4, "loop_preempted_per_action": 1.25,
        "threads_woke_per_action": 0.8,
    }  # fmt: skip
    header, _, line = table([row, {"rooms": 1000, "failed": "not started"}]).splitlines()[:3]
    cells = [c.strip() for c in line.strip("|").split("|")]
    names = [c.strip() for c in header.strip("|").split("|")]
    shown = dict(zip(names, cells, strict=True))
    assert shown["server's own p99"] == "≤ 25 ms"
    assert shown["generator lag p99 / max"] == "9.5 ms / 150 ms"
    gc = "GC passes (total, longest; CPU; full passes, their time)"
    assert shown[gc] == "600 (450 ms, ≤ 10 ms; 420 ms, ≤ 5 ms; 1 full, 310 ms)"
    assert shown["server user / system per action"] == "0.50 / 0.15 ms"
    switches = "server switches per action: loop woke / preempted, other threads woke"
    assert shown[switches] == "2.40 / 1.25, 0.80"
    failed = table([{"rooms": 1000, "failed": "not started"}]).splitlines()[2]
    assert failed.count("|") == header.count("|")  # the failed row has every column


def test_thinking_seats_act_in_order_each_after_its_think_time() -> None:
    from typing import Any, cast

    from jokeapp.bench.load import Seat, Thinking

    async def main() -> None:
        loop = asyncio.get_running_loop()
        thinking = Thinking(loop, lambda: 0.05)
        acted: list[tuple[str, float, float]] = []
        done = asyncio.Event()

        class FakeSeat:
            def __init__(self, name: str) -> None:
                self.name = name
                self.began = 0.0

            def send(self, candidates: list[dict[str, Any]]) -> None:
                acted.append((self.name, self.began, loop.time()))
                if len(acted) == 3:
                    done.set()

        for name in ("a", "b", "c"):
            seat = FakeSeat(name)
            seat.began = loop.time()
            thinking.add(cast(Seat, seat), [{"type": "ROLL"}])
            await asyncio.sleep(0.01)
        await asyncio.wait_for(done.wait(), 30)  # a hang guard only
        assert [name for name, _, _ in acted] == ["a", "b", "c"]
        assert all(at >= began + 0.05 for _, began, at in acted)
        assert thinking.timer is None and not thinking.queue  # nothing left armed

    asyncio.run(main())


def test_a_spread_think_keeps_its_mean_and_stays_in_its_range() -> None:
    async def main() -> None:
        fixed = load.Generator([], [], None, think=2.0, bots=0)
        assert {fixed.think_time() for _ in range(5)} == {2.0}  # no spread: exactly the think
        spread = load.Generator([], [], None, think=2.0, bots=0, think_spread=0.5)
        drawn = [spread.think_time() for _ in range(4000)]
        assert all(1.0 <= x <= 3.0 for x in drawn)
        assert abs(sum(drawn) / len(drawn) - 2.0) < 0.05  # the same load offered on average
        assert max(drawn) - min(drawn) > 1.8  # the rooms' moments drift apart: no waves

    asyncio.run(main())


def test_thinking_seats_with_different_thinks_act_in_order_of_their_due() -> None:
    from typing import Any, cast

    from jokeapp.bench.load import Seat, Thinking

    async def main() -> None:
        loop = asyncio.get_running_loop()
        thinks = iter([0.3, 0.05, 0.15])  # a, b, c: due in the order b, c, a
        thinking = Thinking(loop, lambda: next(thinks))
        acted: list[tuple[str, float]] = []
        due: dict[str, float] = {}
        done = asyncio.Event()

        class FakeSeat:
            def __init__(self, name: str) -> None:
                self.name = name

            def send(self, candidates: list[dict[str, Any]]) -> None:
                acted.append((self.name, loop.time()))
                if len(acted) == 3:
                    done.set()

        for name, think in zip("abc", (0.3, 0.05, 0.15), strict=True):
            due[name] = loop.time() + think
            thinking.add(cast(Seat, FakeSeat(name)), [{"type": "ROLL"}])
        await asyncio.wait_for(done.wait(), 30)  # a hang guard only
        assert [name for name, _ in acted] == ["b", "c", "a"]
        assert all(at >= due[name] for name, at in acted)  # never before its think time
        assert thinking.timer is None and not thinking.queue

    asyncio.run(main())


def test_a_start_whose_answer_was_lost_is_done_when_its_retry_finds_the_match_playing() -> None:
    """Under load the generator's setup lost a start's answer (its connection dropped after
    the server had started the match) and its retry got 409: the setup failed. The retry's
    ``match_in_progress`` says the first try was done; any other refusal is still an error,
    and so is that one on a first try."""
    import httpx

    started: list[str] = []

    def server(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path in started:
            return httpx.Response(409, json={"error": {"code": "match_in_progress"}})
        started.append(path)
        if path == "/api/rooms/LOST/start":
            raise httpx.ReadError("the answer was lost", request=request)  # done, unanswered
        return httpx.Response(409, json={"error": {"code": "wrong_status"}})

    async def main() -> None:
        async with httpx.AsyncClient(
            base_url="http://node", transport=httpx.MockTransport(server)
        ) as http:
            gen = load.Generator(["node"], [http], window=None, think=0.0, bots=0)
            done = await gen.post("/api/rooms/LOST/start", "t", done_if_retried=load.STARTED)
            assert done == {"error": {"code": "match_in_progress"}}
            for path in ("/api/rooms/REFUSED/start", "/api/rooms/LOST/start"):
                try:  # a first try's refusal, even match_in_progress, is the setup's error
                    await gen.post(path, "t", done_if_retried=load.STARTED)
                except RuntimeError as exc:
                    assert "409" in str(exc)
                else:
                    raise AssertionError(f"{path}: refused, yet taken as done")

    asyncio.run(main())


def test_the_profile_s_human_pace_is_the_capacity_run_s() -> None:
    """Drawn thinks, as the capacity run's: fixed ones make rooms act in waves, cheaper per
    action than the run the profile is meant to explain."""
    from jokeapp.bench.profile import human

    paced = human(load.Setup())
    assert (paced.think, paced.think_spread, paced.bots, paced.bot_delay) == (
        2.0,
        load.HUMAN_SPREAD,
        1,
        1.0,
    )
