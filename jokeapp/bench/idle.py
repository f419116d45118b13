"""What an idle node costs a second: `joke serve` with rooms open and nobody playing.

Starts `joke serve` on a fresh SQLite file (pinned to the first core, this process on the
others), opens ``--rooms`` marble rooms of four seats in the lobby, each seat's WebSocket open
and authenticated (``jokeapp.bench.wsclient``: it answers the keepalive's pings), waits
``--settle`` seconds, then reads the server's CPU time (every thread's, ``/proc/PID/task/*/
schedstat``, in ns) over ``--windows`` windows of ``--window`` seconds, and the CPU of one
``GET /metrics`` (the same counters around it; median of ``--scrapes``). Prints one JSON line.
``--tree`` runs the server from another checkout (its directory first on ``sys.path``), so
two versions can be measured in interleaved rounds on a shared machine.

    python -m jokeapp.bench.idle --rooms 1000 [--tree DIR] [--window 15] [--windows 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from jokeapp.bench import load, loopback, wsclient
from jokeapp.bench.loopback import free_port

SEATS = 4
CONCURRENCY = 50  # requests (and socket openings) in flight while the rooms open


def cpu_ns(pid: int) -> int:
    """The CPU time of every thread of ``pid`` so far (ns)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):  # a thread that ended
            total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
    return total


def pings(metrics: str) -> float:
    for line in metrics.splitlines():
        if line.startswith("joke_ws_keepalive_pings_total"):
            return float(line.split()[1])
    return float("nan")


async def _open_rooms(http: httpx.AsyncClient, port: int, rooms: int) -> list[wsclient.Socket]:
    sem = asyncio.Semaphore(CONCURRENCY)
    sockets: list[wsclient.Socket] = []

    async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with sem:
            response = await http.post(path, json=body)
        response.raise_for_status()
        got: dict[str, Any] = response.json()
        return got

    async def room() -> None:
        created = await post(
            "/api/rooms", {"game": "marble", "nickname": "p1", "options": {"maxRounds": 30}}
        )
        tokens = [created["token"]]
        for i in range(2, SEATS + 1):
            joined = await post(f"/api/rooms/{created['code']}/join", {"nickname": f"p{i}"})
            tokens.append(joined["token"])
        for token in tokens:
            async with sem:
                url = f"ws://127.0.0.1:{port}/ws/{created['roomId']}"
                ws = await wsclient.connect(url, lambda data: None)
            ws.send(json.dumps({"type": "auth", "token": token}).encode())
            sockets.append(ws)

    await asyncio.gather(*[room() for _ in range(rooms)])
    return sockets


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="joke-idle-") as tmp:
        port = free_port()
        cmd = [
            sys.executable, "-m", "jokeapp.cli", "serve", "--port", str(port),
            "--db", f"{tmp}/idle.sqlite3", "--log-level", "error", *args.server_args.split(),
        ]  # fmt: skip
        with Path(tmp, "server.log").open("wb") as log:
            proc = subprocess.Popen(cmd, cwd=args.tree, stdout=subprocess.DEVNULL, stderr=log)
        server_core, own_cores = load.split_cores()
        if server_core and own_cores:
            os.sched_setaffinity(proc.pid, server_core)
            os.sched_setaffinity(0, own_cores)
        http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60)
        try:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/health")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            sockets = await _open_rooms(http, port, args.rooms)
            await asyncio.sleep(args.settle)
            out: dict[str, Any] = {"rooms": args.rooms, "sockets": len(sockets)}
            out["ms_per_s"], out["pings_per_s"] = [], []
            for _ in range(args.windows):
                p0 = pings((await http.get("/metrics")).text)
                await asyncio.sleep(1)  # the scrape's own CPU out of the window
                c0, t0 = cpu_ns(proc.pid), time.monotonic()
                await asyncio.sleep(args.window)
                c1, t1 = cpu_ns(proc.pid), time.monotonic()
                p1 = pings((await http.get("/metrics")).text)
                out["ms_per_s"].append(round((c1 - c0) / 1e6 / (t1 - t0), 2))
                out["pings_per_s"].append(round((p1 - p0) / (t1 - t0 + 1), 1))
            scrapes = []
            for _ in range(args.scrapes):
                await asyncio.sleep(0.5)
                c0 = cpu_ns(proc.pid)
                await http.get("/metrics")
                scrapes.append((cpu_ns(proc.pid) - c0) / 1e6)
            out["scrape_ms"] = round(statistics.median(scrapes), 2)
            return out
        finally:
            await http.aclose()
            loopback.stop([proc])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--tree", default=None, help="run the server from this checkout")
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--window", type=float, default=15.0)
    parser.add_argument("--windows", type=int, default=2)
    parser.add_argument("--scrapes", type=int, default=5)
    parser.add_argument("--server-args", default="", help="more flags of `joke serve`")
    args = parser.parse_args(argv)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # thousands of sockets
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(json.dumps(asyncio.run(measure(args))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
