"""Load test of the room server: many rooms whose seats are real WebSocket clients.

Starts a server process on a fresh SQLite file, opens ``--rooms`` marble rooms of four
people each, and lets every seat play from its view at full speed (no thinking pause).
Reports accepted actions per second, the latency from an action sent to its acknowledging
update, and the server's memory per room. Stops by itself after ``--seconds``.

    python -m jokeapp.bench.load --rooms 10 --rooms 100 --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
import websockets

PLAYERS = 4
CONNECT_CONCURRENCY = 100


def marble_policy(view: dict[str, Any], me: str) -> list[dict[str, Any]]:
    """A simple person at a marble table: the actions to try, in order."""
    phase = view["phase"]
    if phase == "turnStart":
        if view["players"][me]["spacePending"]:
            return [{"type": "SPACE_TRAVEL", "dest": 0}]
        return [{"type": "ROLL"}]
    if phase == "decide":
        decision = view.get("decision") or {}
        tries: list[dict[str, Any]] = []
        if decision.get("canBuy"):
            tries.append({"type": "BUY"})
        if decision.get("canBuild"):
            tries.append({"type": "BUILD", "level": decision["canBuild"]})
        return [*tries, {"type": "PASS"}]
    if phase == "debt":
        mine = sorted(
            ((int(pos), info["level"]) for pos, info in view["owners"].items() if info and info["owner"] == me),
            key=lambda x: -x[1],
        )
        tops = [{"type": "SELL", "pos": pos, "what": "top" if level else "all"} for pos, level in mine]
        return tops + [{"type": "SELL", "pos": pos, "what": "all"} for pos, _ in mine]
    if phase == "tradeResponse":
        return [{"type": "TRADE_RESPOND", "accept": False}]
    return []


class _Pending(msgspec.Struct):
    player: str


class _Room(msgspec.Struct):
    status: str


class _Message(msgspec.Struct):
    """Only what a seat needs to decide; the view stays raw until it is this seat's turn."""

    type: str
    ack: int | None = None
    clientSeq: int | None = None  # noqa: N815 - wire name
    code: str | None = None
    detail: dict[str, Any] | None = None
    pending: list[_Pending] = []
    room: _Room | None = None
    view: msgspec.Raw = msgspec.Raw(b"null")


_decode = msgspec.json.Decoder(_Message).decode
_encode = msgspec.json.Encoder().encode


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    errors: int = 0
    measuring: bool = False


class Seat:
    think = 0.0  # seconds a seat waits before acting (0: full speed)

    def __init__(self, base: str, room: dict[str, Any], token: str, player: str, stats: Stats) -> None:
        self.url = f"{base}/ws/{room['roomId']}?token={token}"
        self.player = player
        self.stats = stats
        self.seq = 0
        self.waiting: tuple[int, float, list[dict[str, Any]]] | None = None
        self.ws: Any = None
        self.status = "lobby"

    async def run(self, stop: asyncio.Event) -> None:
        async for text in self.ws:
            if stop.is_set():
                return
            await self.on(_decode(text))

    async def on(self, message: _Message) -> None:
        kind = message.type
        if kind == "error":
            # A refused action does not use its clientSeq (docs/protocol.md): reuse it.
            if message.code == "client_seq_gap" and message.detail:
                self.seq = int(message.detail["expected"]) - 1
            elif message.clientSeq is not None and message.code != "duplicate":
                self.seq = min(self.seq, message.clientSeq - 1)
            if self.waiting and message.clientSeq == self.waiting[0]:
                self.stats.errors += self.stats.measuring
                rest = self.waiting[2]
                self.waiting = None
                if rest:
                    await self.send(rest)
            return
        if kind not in ("update", "snapshot"):
            return
        if message.room is not None:
            self.status = message.room.status
        if self.waiting and message.ack == self.waiting[0]:
            if self.stats.measuring:
                self.stats.latencies.append(time.perf_counter() - self.waiting[1])
                self.stats.accepted += 1
            self.waiting = None
        mine = any(p.player == self.player for p in message.pending)
        if self.waiting is None and self.status == "playing" and bytes(message.view) != b"null" and mine:
            candidates = marble_policy(msgspec.json.decode(message.view), self.player)
            if candidates and self.think > 0:
                self.waiting = (-1, 0.0, [])  # thinking: nothing else goes out meanwhile
                asyncio.get_running_loop().call_later(
                    self.think, lambda c=candidates: asyncio.ensure_future(self.send(c))  # type: ignore[misc]
                )
            elif candidates:
                await self.send(candidates)

    async def send(self, candidates: list[dict[str, Any]]) -> None:
        self.seq += 1
        self.waiting = (self.seq, time.perf_counter(), candidates[1:])
        await self.ws.send(_encode({"type": "action", "clientSeq": self.seq, "action": candidates[0]}).decode())


async def _post(http: httpx.AsyncClient, path: str, **kwargs: Any) -> httpx.Response:
    """A POST that survives a dropped keep-alive connection under load (3 tries)."""
    for attempt in range(3):
        try:
            return await http.post(path, **kwargs)
        except httpx.TransportError:
            if attempt == 2:
                raise
            await asyncio.sleep(0.2)
    raise AssertionError("unreachable")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def _open_room(http: httpx.AsyncClient, base_ws: str, stats: Stats, sem: asyncio.Semaphore) -> tuple[dict[str, Any], list[Seat]]:
    async with sem:
        created = (await _post(http, "/api/rooms", json={"game": "marble", "nickname": "p1",
                                                          "options": {"maxRounds": 30}})).json()
        seats = [Seat(base_ws, created, created["token"], created["playerId"], stats)]
        for i in range(2, PLAYERS + 1):
            joined = (await _post(http, f"/api/rooms/{created['code']}/join", json={"nickname": f"p{i}"})).json()
            seats.append(Seat(base_ws, created, joined["token"], joined["playerId"], stats))
        for seat in seats:
            seat.ws = await websockets.connect(seat.url, max_size=2**22, ping_interval=None)
        return created, seats


async def _rematches(http: httpx.AsyncClient, rooms: list[tuple[dict[str, Any], list[Seat]]], stop: asyncio.Event) -> None:
    """A finished room starts again at once, so the load stays constant."""
    while not stop.is_set():
        await asyncio.sleep(0.5)
        for created, seats in rooms:
            if seats[0].status == "finished":
                seats[0].status = "restarting"
                await _post(http, f"/api/rooms/{created['code']}/rematch",
                                headers={"Authorization": f"Bearer {created['token']}"})


def measure(
    rooms: int, seconds: float, warmup: float, workers: int, db: str | None = None, think: float = 0.0
) -> dict[str, Any]:
    """Starts a fresh server process, drives it from ``workers`` processes, stops it."""
    port = _free_port()
    tmp = tempfile.mkdtemp(prefix="joke-load-")
    server = subprocess.Popen(
        [sys.executable, "-m", "jokeapp.cli", "serve", "--port", str(port), "--db", db or f"{tmp}/load.sqlite3",
         "--bot-delay", "0", "--rate", "1000", "--log-level", "error"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        return drive(f"127.0.0.1:{port}", server.pid, rooms, seconds, warmup, workers, think)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def drive(
    address: str, pid: int, rooms: int, seconds: float, warmup: float, workers: int, think: float = 0.0
) -> dict[str, Any]:
    """Splits the rooms between generator processes that start measuring together."""
    _wait_healthy(address)
    baseline = _rss_kib(pid)
    ctx = mp.get_context("fork")
    workers = max(1, min(workers, rooms))
    barrier = ctx.Barrier(workers + 1)
    results: Any = ctx.Queue()
    shares = [rooms // workers + (1 if i < rooms % workers else 0) for i in range(workers)]
    procs = [ctx.Process(target=_worker, args=(address, n, seconds, warmup, barrier, results, think))
             for n in shares]
    for proc in procs:
        proc.start()
    try:
        barrier.wait(timeout=300)  # every room is open and every seat connected
    except threading.BrokenBarrierError:
        for proc in procs:
            proc.kill()
        raise RuntimeError("a load generator failed while opening its rooms") from None
    time.sleep(warmup)
    cpu_before = _cpu_seconds(pid)
    time.sleep(seconds / 2)
    rss = _rss_kib(pid)
    time.sleep(seconds / 2)
    server_cpu = _cpu_seconds(pid) - cpu_before
    parts = [results.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join(60)
    lat = sorted(x for part in parts for x in part["latencies"])
    accepted = sum(part["accepted"] for part in parts)
    return {
        "rooms": rooms,
        "clients": rooms * PLAYERS,
        "actions_per_s": accepted / seconds,
        "p50_ms": statistics.median(lat) * 1000 if lat else float("nan"),
        "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan"),
        "rss_mib": rss / 1024,
        "kib_per_room": (rss - baseline) / rooms,
        "errors": sum(part["errors"] for part in parts),
        "server_cpu_ms_per_action": server_cpu * 1000 / accepted if accepted else float("nan"),
        "server_cpu_share": server_cpu / seconds,
    }


def _wait_healthy(address: str) -> None:
    for _ in range(300):
        try:
            if httpx.get(f"http://{address}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


def _worker(address: str, rooms: int, seconds: float, warmup: float, barrier: Any, results: Any,
            think: float) -> None:
    Seat.think = think
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        results.put(asyncio.run(_play(address, rooms, seconds, warmup, barrier)))
    except BaseException:
        barrier.abort()  # the others and the parent stop waiting instead of hanging
        raise


async def _play(address: str, rooms: int, seconds: float, warmup: float, barrier: Any) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=60,
                                 limits=httpx.Limits(max_connections=CONNECT_CONCURRENCY)) as http:
        sem = asyncio.Semaphore(CONNECT_CONCURRENCY)
        opened = await asyncio.gather(*[_open_room(http, f"ws://{address}", stats, sem) for _ in range(rooms)])
        readers = [asyncio.create_task(seat.run(stop)) for _, seats in opened for seat in seats]
        await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
        for created, _ in opened:
            await _post(http, f"/api/rooms/{created['code']}/start",
                            headers={"Authorization": f"Bearer {created['token']}"})
        restarter = asyncio.create_task(_rematches(http, opened, stop))
        await asyncio.sleep(warmup)
        stats.measuring = True
        await asyncio.sleep(seconds)
        stats.measuring = False
        stop.set()
        restarter.cancel()
        for _, seats in opened:
            for seat in seats:
                await seat.ws.close()
        for task in readers:
            task.cancel()
    return {"latencies": stats.latencies, "accepted": stats.accepted, "errors": stats.errors}


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| rooms | clients | actions/s accepted | p50 ms | p99 ms | server RSS MiB | KiB per room "
        "| server CPU ms/action | server CPU busy |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['rooms']} | {r['clients']} | {r['actions_per_s']:.0f} | {r['p50_ms']:.1f} | "
            f"{r['p99_ms']:.1f} | {r['rss_mib']:.0f} | {r['kib_per_room']:.0f} | "
            f"{r['server_cpu_ms_per_action']:.2f} | {r['server_cpu_share']:.0%} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, action="append", help="rooms (repeatable; default 10, 100, 1000)")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds per size")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--db", default=None, help="the server's --db (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    parser.add_argument("--think", type=float, default=0.0, help="seconds each seat waits before acting")
    args = parser.parse_args(argv)
    rows = []
    for rooms in args.rooms or [10, 100, 1000]:
        rows.append(measure(rooms, args.seconds, args.warmup, args.workers, args.db, args.think))
        print(f"measured {rooms} rooms", file=sys.stderr)
    pace = "full speed" if args.think <= 0 else f"each seat thinks {args.think:g} s"
    print(f"Room server load (marble, {PLAYERS} WebSocket seats per room, {pace}, loopback, {os.cpu_count()} cores, "
          f"load generator on the same machine in {args.workers} processes)\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
