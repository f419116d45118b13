"""What an idle room holds in memory: tracemalloc over rooms in the middle of a match.

Starts ``--rooms`` marble rooms of 4 people, each person's connection open (a connection that
drops what it is sent: the socket's own buffers are not the room's), plays ``--steps`` steps
in each by the timeout rule under a fake clock (no waiting), then counts the Python memory
the rooms hold (tracemalloc, after a full collection) per room, and where it was allocated.
The store is SQLite on a temporary file, as `joke serve` runs by default.

    python -m jokeapp.bench.memory --rooms 200 --steps 100
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.room import Room
from jokeapp.store.sql import SqlStore

SEATS = 4


class _Sink:
    """An open connection that drops what it is sent."""

    def send(self, message: Any) -> None:
        pass

    def close(self, code: int) -> None:
        pass


async def _open_room(manager: RoomManager) -> tuple[Room, list[_Sink]]:
    room, host, _ = await manager.create("marble", {"maxRounds": 0, "turnSeconds": 15}, "p1")
    tokens = [host]
    for i in range(2, SEATS + 1):
        joined = await room.call(cmd.Join(f"p{i}", "player"))
        tokens.append(joined[0])
    sinks = [_Sink() for _ in tokens]
    for sink, token in zip(sinks, tokens, strict=True):
        await room.call(cmd.Connect(sink, token))
    await room.call(cmd.Start(host))
    return room, sinks


async def _play(manager: RoomManager, clock: FakeClock, steps: int) -> None:
    """Fires the rooms' timers in order until every room has played ``steps`` steps."""
    rooms = list(manager.rooms.values())
    while any(r.match is not None and r.match.steps < steps for r in rooms):
        due = clock.next_due()
        if due is None:
            break
        clock.advance(max(due, 0.0))
        for room in rooms:
            await room.settle()


async def measure(rooms: int, steps: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqlStore.open(str(Path(tmp) / "memory.sqlite3"))
        clock = FakeClock()
        manager = RoomManager(store, clock, bot_delay=1.0)
        try:
            await _open_room(manager)  # warms the caches a first room fills
            gc.collect()
            tracemalloc.start(1)
            before = tracemalloc.take_snapshot()
            start, _ = tracemalloc.get_traced_memory()
            held = [await _open_room(manager) for _ in range(rooms)]
            await _play(manager, clock, steps)
            gc.collect()
            end, _ = tracemalloc.get_traced_memory()
            after = tracemalloc.take_snapshot()
            tracemalloc.stop()
            played = sorted(room.match.steps if room.match else 0 for room, _ in held)
            top = [
                (str(stat.traceback[0]), stat.size_diff / rooms)
                for stat in after.compare_to(before, "lineno")[:8]
            ]
            return {
                "rooms": rooms,
                "steps": played[len(played) // 2],
                "kib_per_room": (end - start) / rooms / 1024,
                "top": top,
            }
        finally:
            await manager.close()
            await store.close()


def section(args: argparse.Namespace, row: dict[str, Any]) -> list[str]:
    lines = [
        "## Memory per idle room",
        "",
        f"Measured {dt.date.today().isoformat()} by `python -m jokeapp.bench.memory --rooms "
        f"{args.rooms} --steps {args.steps}` — {row['rooms']} marble rooms of {SEATS} people, "
        f"every connection open, idle after {row['steps']} steps each (median), SQLite store; "
        "Python memory the rooms hold (tracemalloc after a full collection), per room. The "
        "sockets' own buffers (uvicorn, websockets) are not counted: the load table's RSS "
        "per room has them.",
        "",
        f"**{row['kib_per_room']:.1f} KiB per room.** Where it was allocated (per room):",
        "",
        "| KiB | allocated at |",
        "|---:|---|",
    ]
    root = str(Path(__file__).resolve().parents[2])
    for where, size in row["top"]:
        lines.append(f"| {size / 1024:.1f} | `{where.replace(root + '/', '')}` |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jokeapp.bench.memory",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--steps", type=int, default=100, help="steps each room plays first")
    parser.add_argument("--quick", action="store_true", help="smoke-test size")
    parser.add_argument(
        "--section", action="store_true", help="accepted for `python -m jokeapp.bench`"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.rooms, args.steps = 10, 10
    row = asyncio.run(measure(args.rooms, args.steps))
    print("\n".join(section(args, row)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
