"""What stalls the server's event loop: a watchdog thread inside the server that notes every
moment the loop is late, and samples the loop thread's stack while it is.

Every ``PERIOD`` seconds the watchdog hands the loop a callback (``call_soon_threadsafe``, as
a socket's read would be: it wakes the loop) and waits for it to run. While it has not run for
``--late-ms`` the watchdog samples the loop thread's Python stack (``sys._current_frames``,
about every ms it gets the GIL); once it runs, a stall longer than that is one line of the log:
when it began, how long it lasted, the collector's passes within it, and its samples.

It goes into a server through ``sitecustomize`` (this package's ``stallhook`` directory on
``PYTHONPATH``), named by ``STALL_LOG``; a process that is not ``joke serve`` ignores it:

    PYTHONPATH=jokeapp/bench/stallhook STALL_LOG=/tmp/stalls.jsonl \\
        python -m jokeapp.bench.capacity --steps 3000 --step-seconds 60 --think 2
    python -m jokeapp.bench.stalls /tmp/stalls.jsonl --since 120   # the summary
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import threading
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any

PERIOD = 0.01  # seconds between two callbacks handed to the loop
LATE = 0.03  # a stall: the callback ran this much after it was handed over, or later


def _frames(frame: Any) -> list[str]:
    out = []
    while frame is not None:
        code = frame.f_code
        path = code.co_filename
        cut = path.find("jokeapp/")
        if cut < 0:
            cut = path.find("site-packages/")
            name = path[cut + 14 :] if cut >= 0 else Path(path).name
        else:
            name = path[cut:]
        out.append(f"{getattr(code, 'co_qualname', code.co_name)} ({name})")
        frame = frame.f_back
    out.reverse()
    return out


class Watchdog:
    def __init__(self, loop: Any, log: Path, late: float = LATE) -> None:
        self.loop = loop
        self.log = log
        self.late = late
        self.ran = 0
        self.ran_at = 0.0
        self.gcs: deque[tuple[float, float, int]] = deque(maxlen=2000)
        self._gc_began = 0.0
        self.main = threading.main_thread().ident or 0

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            self.gcs.append((self._gc_began, time.perf_counter(), info["generation"]))

    def _ack(self, seq: int) -> None:
        self.ran_at = time.perf_counter()
        self.ran = seq

    def run(self) -> None:
        gc.callbacks.append(self._gc)
        t0 = time.perf_counter()
        seq = 0
        with self.log.open("a") as out:
            out.write(json.dumps({"start": time.time(), "pid": os.getpid()}) + "\n")
            while True:
                seq += 1
                sent = time.perf_counter()
                try:
                    self.loop.call_soon_threadsafe(self._ack, seq)
                except RuntimeError:  # the loop closed
                    return
                samples: list[str] = []
                while self.ran < seq:
                    time.sleep(0.001)
                    if time.perf_counter() - sent > self.late and self.ran < seq:
                        frame = sys._current_frames().get(self.main)  # noqa: SLF001
                        samples.append(";".join(_frames(frame)))
                took = self.ran_at - sent
                if took > self.late:
                    gcs = [
                        [round(a - sent, 4), round(b - a, 4), g]
                        for a, b, g in self.gcs
                        if b > sent and a < self.ran_at
                    ]
                    out.write(
                        json.dumps(
                            {
                                "at": round(sent - t0, 3),
                                "wall": round(time.time(), 3),
                                "ms": round(took * 1000, 1),
                                "gc": gcs,
                                "samples": samples,
                            }
                        )  # fmt: skip
                        + "\n"
                    )
                    out.flush()
                rest = PERIOD - (time.perf_counter() - sent)
                if rest > 0:
                    time.sleep(rest)


def install() -> None:
    """From ``sitecustomize``: in ``joke serve`` with ``STALL_LOG`` set, the watchdog
    starts once the main thread runs an event loop."""
    where = os.environ.get("STALL_LOG")
    if not where:
        return
    late = float(os.environ.get("STALL_MS", LATE * 1000)) / 1000
    original = asyncio.events._set_running_loop  # noqa: SLF001
    started: list[bool] = []

    def set_running(loop: Any) -> None:
        original(loop)
        if loop is None or started or threading.current_thread() is not threading.main_thread():
            return
        if "serve" not in sys.argv:
            return
        started.append(True)
        dog = Watchdog(loop, Path(where), late)
        threading.Thread(target=dog.run, name="stall-watchdog", daemon=True).start()

    asyncio.events._set_running_loop = set_running  # noqa: SLF001
    asyncio._set_running_loop = set_running  # noqa: SLF001


def summary(path: Path, since: float, until: float | None) -> str:
    stalls = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if "at" in row and row["at"] >= since and (until is None or row["at"] < until):
            stalls.append(row)
    if not stalls:
        return "no stall"
    span = (stalls[-1]["at"] - stalls[0]["at"]) or 1.0
    lines = [f"{len(stalls)} stalls over {span:.0f} s ({len(stalls) / span:.2f}/s)"]
    buckets: Counter[float] = Counter()
    for s in stalls:
        for edge in (50, 100, 250, 500, 1e9):
            if s["ms"] < edge:
                buckets[edge] += 1
                break
    lines.append(
        "by length: " + ", ".join(f"< {e:g} ms: {buckets[e]}" for e in (50, 100, 250, 500, 1e9))
    )
    lines.append(f"longest: {max(s['ms'] for s in stalls):.0f} ms; "
                 f"with a GC pass in it: {sum(1 for s in stalls if s['gc'])}")  # fmt: skip
    inclusive: Counter[str] = Counter()
    top: Counter[str] = Counter()
    count = 0
    for s in stalls:
        for sample in s["samples"]:
            count += 1
            frames = sample.split(";")
            for f in set(frames):
                if "jokeapp/" in f or "uvicorn" in f or "websockets" in f:
                    inclusive[f] += 1
            top[frames[-1] if frames else "?"] += 1
    lines.append(f"{count} samples in stalls; inclusive (jokeapp, uvicorn, websockets):")
    lines += [f"  {n / count:6.1%}  {f}" for f, n in inclusive.most_common(25)]
    lines.append("top of stack:")
    lines += [f"  {n / count:6.1%}  {f}" for f, n in top.most_common(15)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--since", type=float, default=0.0, help="seconds after start")
    parser.add_argument("--until", type=float, default=None, help="seconds after start")
    args = parser.parse_args(argv)
    print(summary(args.log, args.since, args.until))
    return 0


if __name__ == "__main__":
    sys.exit(main())
