"""The WebSocket keepalive (jokeapp/server/keepalive.py): one sweep, pings only to silent
sockets, a silent pinged socket dropped, both counted in /metrics; and, end to end, a silent
page that answers pings keeps its seat while a dead one is dropped and counted."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from jokeapp.server import keepalive
from jokeapp.server.keepalive import Sweep, Tally
from jokeapp.telemetry.metrics import Metrics
from tests.server.harness import Api, Client, ServerProcess, masked_text_frame, scrape


class FakeSocket:
    """What a sweep reads and calls on a socket; with a ``loop``, the times of its pings and
    of its drop."""

    heard: bool
    quiet_since: float
    pinged_at: float | None

    def __init__(self, closing: bool = False, loop: FakeLoop | None = None) -> None:
        self.closing = closing
        self.loop = loop
        self.pings = 0
        self.ping_times: list[float] = []
        self.dropped = False
        self.dropped_at: float | None = None

    def ping(self) -> bool:
        if self.closing:
            return False
        self.pings += 1
        if self.loop is not None:
            self.ping_times.append(self.loop.now)
        return True

    def silent_too_long(self) -> None:
        self.dropped = True
        if self.loop is not None:
            self.dropped_at = self.loop.now


class FakeHandle:
    def __init__(self, loop: FakeLoop, entry: tuple[float, Any]) -> None:
        self.loop, self.entry = loop, entry

    def cancel(self) -> None:
        if self.entry in self.loop.timers:
            self.loop.timers.remove(self.entry)


class FakeLoop:
    def __init__(self) -> None:
        self.now = 100.0
        self.timers: list[tuple[float, Any]] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Any) -> FakeHandle:
        entry = (when, callback)
        self.timers.append(entry)
        return FakeHandle(self, entry)

    def call_later(self, delay: float, callback: Any) -> FakeHandle:
        return self.call_at(self.now + delay, callback)

    def run_until(self, until: float) -> list[float]:
        """Runs every timer due by ``until``, in order, the clock at each one's time; the
        times they ran at."""
        ran = []
        while self.timers:
            entry = min(self.timers, key=lambda e: e[0])
            if entry[0] > until:
                break
            self.timers.remove(entry)
            self.now = max(self.now, entry[0])
            ran.append(self.now)
            entry[1]()
        self.now = until
        return ran


def sweep_of(*sockets: FakeSocket, tally: Tally | None = None) -> tuple[Sweep, FakeLoop]:
    loop = FakeLoop()
    sweep = Sweep(loop, interval=3.0, timeout=3.0, tally=tally)  # type: ignore[arg-type]
    for socket in sockets:
        sweep.add(socket)
    return sweep, loop


def test_a_silent_socket_is_pinged_after_the_interval_and_dropped_after_the_timeout() -> None:
    socket = FakeSocket()
    sweep, loop = sweep_of(socket)
    for now in (101.0, 102.0):
        sweep.sweep(now)
    assert socket.pings == 0
    sweep.sweep(103.0)  # silent for 3 s since it was added
    assert socket.pings == 1 and not socket.dropped
    sweep.sweep(104.0)
    sweep.sweep(105.0)
    assert socket.pings == 1 and not socket.dropped  # pinged once, waiting for an answer
    sweep.sweep(106.0)
    assert socket.dropped and socket not in sweep.sockets
    assert (sweep.tally.pings, sweep.tally.dropped) == (1, 1)
    sweep.sweep(107.0)
    assert socket.pings == 1  # a dropped socket is not looked at again


def test_any_frame_answers_a_ping_and_restarts_the_silence() -> None:
    socket = FakeSocket()
    sweep, _ = sweep_of(socket)
    sweep.sweep(103.0)
    assert socket.pings == 1
    socket.heard = True  # the pong, or any message
    sweep.sweep(104.0)
    assert socket.pinged_at is None and socket.quiet_since == 104.0
    for now in (105.0, 106.0):
        sweep.sweep(now)
    assert socket.pings == 1 and not socket.dropped
    sweep.sweep(107.0)
    assert socket.pings == 2


def test_a_socket_that_talks_is_never_pinged() -> None:
    talker, quiet = FakeSocket(), FakeSocket()
    sweep, _ = sweep_of(talker, quiet)
    for now in range(101, 120):
        talker.heard = True
        sweep.sweep(float(now))
    assert talker.pings == 0 and not talker.dropped
    assert quiet.pings >= 1


def test_a_closing_socket_is_not_pinged_and_leaves_the_sweep() -> None:
    socket = FakeSocket(closing=True)
    sweep, _ = sweep_of(socket)
    sweep.sweep(103.0)
    assert socket.pings == 0 and socket not in sweep.sockets and sweep.tally.pings == 0


def test_one_timer_runs_the_sweep_and_stops_without_sockets() -> None:
    a, b = FakeSocket(), FakeSocket()
    sweep, loop = sweep_of(a, b)
    assert len(loop.timers) == 1  # one for the server, not one per socket
    sweep.discard(a)
    sweep.discard(b)
    loop.now, run = loop.timers.pop()
    run()
    assert loop.timers == []  # nothing left to look at: no more wake-ups


def test_a_busy_servers_pings_come_in_ten_runs_a_tick_not_one() -> None:
    """5,000 sockets fall silent together: their pings are spread over ten wake-ups a
    second, none with more than a tenth of them, instead of all in one (a stop of every room:
    docs/server.md, "Connection state")."""
    loop = FakeLoop()
    sweep = Sweep(loop, interval=3.0, timeout=3.0)  # type: ignore[arg-type]
    sockets = [FakeSocket(loop=loop) for _ in range(5000)]
    for socket in sockets:
        sweep.add(socket)
    runs: list[tuple[float, int]] = []  # (when, pings sent in that run)
    while loop.now < 104.95:  # silent since 100: all pinged in the tick from 103
        before = sweep.tally.pings
        loop.run_until(min(t for t, _ in loop.timers))
        runs.append((loop.now, sweep.tally.pings - before))
    assert all(socket.pings == 1 for socket in sockets)
    assert max(n for _, n in runs) == 500  # a tenth each
    assert [round(t, 6) for t, n in runs if n] == [round(103.0 + i / 10, 6) for i in range(10)]
    # ten wake-ups a tick, a tenth of a tick apart (slice j's first look j tenths after the
    # sockets came, slice 0's a tick after)
    assert [round(t, 6) for t, _ in runs] == [round(100.1 + i / 10, 6) for i in range(50)]


def test_a_server_with_few_sockets_keeps_one_wake_up_a_tick() -> None:
    loop = FakeLoop()
    sweep = Sweep(loop, interval=3.0, timeout=3.0)  # type: ignore[arg-type]
    for _ in range(keepalive.SLICE_FILL):
        sweep.add(FakeSocket())
    # never heard: pinged at 103, dropped at 106 (and then no more wake-ups)
    assert loop.run_until(110.0) == pytest.approx([101.0 + i for i in range(6)])


def test_a_socket_in_a_slice_that_had_no_wake_up_is_looked_at_within_a_tick() -> None:
    """A socket that opens a slice is looked at in that slice's turn (a tenth of a tick
    after the slice before it), every tick from then on."""
    loop = FakeLoop()
    sweep = Sweep(loop, interval=3.0, timeout=3.0)  # type: ignore[arg-type]
    for _ in range(keepalive.SLICE_FILL):  # slice 0, looked at on the second
        sweep.add(FakeSocket())
    loop.run_until(100.25)
    late = FakeSocket(loop=loop)
    sweep.add(late)  # slice 1, its turn 0.1 s after slice 0's
    assert loop.run_until(102.0) == pytest.approx([101.0, 101.1, 102.0])
    loop.run_until(110.0)
    # silent since 100.25: looked at 101.1, 102.1 …; pinged at the first look 3 s after,
    # dropped at the first look 3 s after the ping
    assert late.ping_times == [pytest.approx(104.1)]
    assert late.dropped_at == pytest.approx(107.1)


def test_a_slice_opened_again_is_looked_at_in_its_turn() -> None:
    """A slice emptied and opened again by a new socket gets its look back: before the one
    armed when its turn comes first, in its turn a tick on when it has just passed."""
    loop = FakeLoop()
    sweep = Sweep(loop, interval=3.0, timeout=3.0)  # type: ignore[arg-type]
    for _ in range(3 * keepalive.SLICE_FILL):  # slices 0, 1, 2; first looks 100.1, 100.2, 101
        sweep.add(FakeSocket())
    assert loop.run_until(100.15) == pytest.approx([100.1])
    for socket in list(sweep.slices[1]):
        sweep.discard(socket)  # slice 1 empty: no wake-up of its own
    assert loop.run_until(101.05) == pytest.approx([100.2, 101.0])  # slice 2 armed for 101.2
    first = FakeSocket()
    sweep.add(first)  # slice 1 again: its turn (101.1) comes before slice 2's
    assert sweep.sockets[first] == 1
    assert loop.run_until(101.15) == pytest.approx([101.1])
    for socket in list(sweep.slices[1]):
        sweep.discard(socket)
    again = FakeSocket()
    sweep.add(again)  # at 101.15, just after slice 1's turn: its next one, 102.1
    assert sweep.sockets[again] == 1
    assert loop.run_until(102.25) == pytest.approx([101.2, 102.0, 102.1, 102.2])


def test_a_loop_stopped_for_more_than_a_tick_does_not_run_every_slice_at_once() -> None:
    loop = FakeLoop()
    sweep = Sweep(loop, interval=3.0, timeout=3.0)  # type: ignore[arg-type]
    for _ in range(3 * keepalive.SLICE_FILL):  # slices 0, 1, 2
        sweep.add(FakeSocket())
    loop.now = 105.0  # the loop was stopped from 100 to 105: slice 0's look (due 101) runs
    _, run = min(loop.timers, key=lambda e: e[0])
    loop.timers.clear()
    run()
    assert [t for t, _ in loop.timers] == [pytest.approx(105.1)]  # the next one a step on


def test_every_silent_socket_is_pinged_and_dropped_within_the_bound() -> None:
    """Sockets in every slice, added at different moments, some talking for a while: none
    is pinged while it talks or sooner than the interval after its last frame, and every one
    that falls silent is pinged and dropped, within ``bound`` of its last frame."""
    loop = FakeLoop()
    sweep = Sweep(loop, interval=3.0, timeout=3.0)  # type: ignore[arg-type]
    sockets: list[FakeSocket] = []
    last_frame: dict[int, float] = {}
    for i in range(1700):  # four slices: three full, one with 200
        loop.run_until(100.0 + i * 0.0017)  # added over three seconds
        socket = FakeSocket(loop=loop)
        sweep.add(socket)
        sockets.append(socket)
        last_frame[id(socket)] = loop.now
    talkers = sockets[::7]
    for step in range(1, 60):  # they talk every 0.1 s until a moment of their own
        moment = 103.0 + step * 0.1
        loop.run_until(moment)
        for k, socket in enumerate(talkers):
            if moment < 103.0 + (k % 50) * 0.1:
                socket.heard = True
                last_frame[id(socket)] = moment
                assert socket.pings == 0
    loop.run_until(120.0)
    limit = keepalive.bound(3.0, 3.0)
    for socket in sockets:
        last = last_frame[id(socket)]
        assert socket.pings == 1 and socket.dropped and socket.dropped_at is not None
        assert socket.ping_times[0] >= last + 3.0 - keepalive.EARLY
        assert socket.dropped_at <= last + limit + 1e-9
        assert socket.dropped_at >= socket.ping_times[0] + 3.0 - keepalive.EARLY
    assert not sweep.sockets and loop.timers == []  # all dropped: no more wake-ups


def counted(metrics: Metrics) -> tuple[float, float]:
    """(pings, dropped) as /metrics says them."""
    reg = metrics.registry
    pings = reg.get_sample_value("joke_ws_keepalive_pings_total")
    dropped = reg.get_sample_value("joke_ws_keepalive_dropped_total")
    assert pings is not None and dropped is not None
    return pings, dropped


def test_pings_and_drops_are_counted_in_the_metrics_across_sweeps() -> None:
    tally, metrics = Tally(), Metrics()
    metrics.watch_keepalive(lambda: tally.pings, lambda: tally.dropped)
    assert counted(metrics) == (0, 0)
    silent, answers = FakeSocket(), FakeSocket()
    sweep, _ = sweep_of(silent, answers, tally=tally)
    sweep.sweep(103.0)  # both silent for 3 s: both pinged
    assert counted(metrics) == (2, 0)
    answers.heard = True
    sweep.sweep(104.0)
    sweep.sweep(106.0)  # the silent one had 3 s to answer its ping
    assert silent.dropped and not answers.dropped
    assert counted(metrics) == (2, 1)
    later, _ = sweep_of(FakeSocket(), tally=tally)  # the next sweep (the last one's sockets
    later.sweep(103.0)  # gone) counts on
    assert counted(metrics) == (3, 1)
    assert b"joke_ws_keepalive_dropped_total 1.0" in metrics.render()


def test_the_bound_is_interval_plus_one_sweep_plus_timeout() -> None:
    assert keepalive.bound(keepalive.INTERVAL, keepalive.TIMEOUT) == 7.0
    assert keepalive.bound(0.3, 0.2) == pytest.approx(0.7)


# --- end to end ---------------------------------------------------------------------------


@contextlib.contextmanager
def pinging(tmp_path: Path, timeout: str) -> Iterator[ServerProcess]:
    """A server that pings a socket silent for 0.2 s and gives it ``timeout`` s to answer."""
    extra = ("--ws-ping", "0.2", "--ws-ping-timeout", timeout)
    with ServerProcess(str(tmp_path / "joke.sqlite3"), extra=extra) as proc:
        yield proc


@pytest.fixture
def quick_pings(tmp_path: Path) -> Iterator[ServerProcess]:
    with pinging(tmp_path, "0.5") as proc:
        yield proc


@pytest.fixture
def patient_pings(tmp_path: Path) -> Iterator[ServerProcess]:
    """Time enough for a live client to answer on a loaded machine: only a dead one drops."""
    with pinging(tmp_path, "3") as proc:
        yield proc


async def _read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One server frame (unmasked): its opcode and payload."""
    first, second = await reader.readexactly(2)
    size = second & 0x7F
    if size == 126:
        size = int.from_bytes(await reader.readexactly(2), "big")
    elif size == 127:
        size = int.from_bytes(await reader.readexactly(8), "big")
    return first & 0x0F, await reader.readexactly(size)


def _masked_pong(payload: bytes) -> bytes:
    mask = b"\x01\x02\x03\x04"
    return (
        bytes([0x8A, 0x80 | len(payload)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


async def raw_seat(
    proc: ServerProcess, room_id: str, token: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A page's WebSocket, by hand (so the test decides whether it answers pings), that has
    sent its auth: the seat is taken."""
    reader, writer = await asyncio.open_connection("127.0.0.1", proc.port)
    writer.write(
        f"GET /ws/{room_id} HTTP/1.1\r\nHost: 127.0.0.1:{proc.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await reader.readuntil(b"\r\n\r\n")
    writer.write(masked_text_frame(json.dumps({"type": "auth", "token": token})))
    return reader, writer


def seat_connected(client: Client, player: str) -> bool | None:
    rooms = [m["room"] for m in client.messages if m.get("room")]
    if not rooms:
        return None
    seat = next((s for s in rooms[-1]["seats"] if s["playerId"] == player), None)
    return None if seat is None else bool(seat["connected"])


@contextlib.asynccontextmanager
async def host_and_raw_seat(
    server: ServerProcess,
) -> AsyncIterator[tuple[Api, Client, asyncio.StreamReader, asyncio.StreamWriter]]:
    """A race room: its host on the test harness's client, the second seat a raw socket that
    answers nothing by itself, both seated and connected as the host sees it."""
    api = Api(server)
    created = await api.create("race", "a", {"turnSeconds": 30})
    joined = await api.join(created["code"], "b")
    host = Client(server, created["roomId"], created["token"], "p1")
    await host.connect()
    reader, writer = await raw_seat(server, created["roomId"], joined["token"])
    try:
        await host.wait_until(lambda: seat_connected(host, "p2") is True)
        yield api, host, reader, writer
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
        await host.close()
        await api.close()


async def test_a_silent_page_that_answers_pings_keeps_its_seat(
    quick_pings: ServerProcess,
) -> None:
    async with host_and_raw_seat(quick_pings) as (_, host, reader, writer):
        seen = len(host.messages)
        pings = 0
        async with asyncio.timeout(30):
            while pings < 4:  # four pings: far longer than one timeout, had a pong not counted
                opcode, payload = await _read_frame(reader)
                assert opcode != 0x8, "the server closed a page that answered its pings"
                if opcode == 0x9:
                    pings += 1
                    writer.write(_masked_pong(payload))
        assert seat_connected(host, "p2") is True
        assert not any(
            s["playerId"] == "p2" and not s["connected"]
            for m in host.messages[seen:]
            if m.get("room")
            for s in m["room"]["seats"]
        )


async def test_a_dead_page_is_pinged_dropped_and_counted(patient_pings: ServerProcess) -> None:
    async with host_and_raw_seat(patient_pings) as (api, host, reader, writer):
        opcodes: list[int] = []
        async with asyncio.timeout(30):  # a hang guard: the drop comes within 0.2 + 0.2 + 3 s
            while not opcodes or opcodes[-1] != 0x8:  # never answers: read until the close
                opcode, payload = await _read_frame(reader)
                opcodes.append(opcode)
        assert 0x9 in opcodes  # pinged first
        assert int.from_bytes(payload[:2], "big") == 1011  # closed as uvicorn closes one
        await host.wait_until(lambda: seat_connected(host, "p2") is False)
        counts = await scrape(api.http)
        assert counts[("joke_ws_keepalive_pings_total", ())] >= 1
        # the host's client answers its pings: only the dead page was dropped
        assert counts[("joke_ws_keepalive_dropped_total", ())] == 1
