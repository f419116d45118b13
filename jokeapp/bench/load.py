"""Load test of the room server: many rooms whose seats are real WebSocket clients.

Starts one server process on a fresh SQLite file, opens ``--rooms`` marble rooms of four
seats, and lets every seat play from its view (at full speed, or after ``--think`` seconds).
Rooms are opened, started and rematched concurrently (at most ``CONCURRENCY`` requests at a
time per generator process); the measured windows open only once every room has had an
action accepted. Each window reports, for exactly the same interval:

- rooms playing: rooms with at least one accepted action in the window;
- accepted actions per second; latency from an action sent to the update that acknowledges it
  (p50, p99, max);
- server CPU per accepted action (the server's /proc/PID/stat at the window's open and close)
  and the load generator's CPU per action (its processes' /proc/PID/stat, read alongside);
- bytes of an update frame as received by a seat (median, p99);
- the server's RSS and RSS per room (above the idle server's).

Each row is the median of ``--runs`` consecutive windows on the same server. With two or more
cores the server runs on the first and the generator on the others (sched_setaffinity), so
neither steals the other's core.

    python -m jokeapp.bench.load --rooms 10 100 1000 --runs 3 --seconds 10
    python -m jokeapp.bench.load --quick            # a smoke test: 2 and 10 rooms, 1 window of 2 s
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import heapq
import importlib.util
import multiprocessing as mp
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from math import nan
from pathlib import Path
from typing import Any

import httpx
import msgspec
from websockets.exceptions import InvalidHandshake

from jokeapp.bench import loopback, serverside, wsclient
from jokeapp.bench.loopback import free_port
from jokeapp.bench.machine import describe
from jokeapp.bench.nginx import Nginx, Routing
from jokeapp.core.codes import CLOSE_RECONNECT as RECONNECT
from jokeapp.rooms.viewpatch import apply_patch
from jokeapp.server.collector import Collector, GcPolicy

SEATS = 4  # marble rooms of four
CONCURRENCY = 100  # requests (and connection openings) in flight per generator process
# the refusal of a start or rematch whose match is playing: a try whose answer was lost was done
STARTED = "match_in_progress"
PLAYING_TIMEOUT = 300.0  # seconds a grown set of rooms has to have every room playing
# the server's collector policy (docs/server.md, "The collector"), its young passes 4 a second,
# not 10: each one wakes the loop (the heap's size, whose read walks every pool, is read only
# once a second, GcPolicy.heap_every)
GENERATOR_GC = GcPolicy(young_every=0.25)
# At a human pace each think is drawn from think × [1 - HUMAN_SPREAD, 1 + HUMAN_SPREAD] (same
# mean): with every think exactly the same, rooms started together acted together, in waves a
# think apart (the server busy 1 s, idle the next), and a window counted two waves or three by
# its phase (407 or 562 actions/s for the same load in the cluster's 5 s windows).
HUMAN_SPREAD = 0.5
THINK_TICK = 0.01  # seconds: a thinking seat acts at most this late (Thinking)
WATCH_INTERVAL = 0.02  # seconds between two looks at a generator's loop lag (each one a wake-up)


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
            (
                (int(pos), info["level"])
                for pos, info in view["owners"].items()
                if info and info["owner"] == me
            ),
            key=lambda x: -x[1],
        )
        tops = [
            {"type": "SELL", "pos": pos, "what": "top" if level else "all"} for pos, level in mine
        ]
        return tops + [{"type": "SELL", "pos": pos, "what": "all"} for pos, _ in mine]
    if phase == "tradeResponse":
        return [{"type": "TRADE_RESPOND", "accept": False}]
    return []


class _Pending(msgspec.Struct):
    player: str


class _RoomInfo(msgspec.Struct):
    status: str


class _Message(msgspec.Struct):
    """Only what a seat needs to decide: the view, whole or patched (docs/protocol.md)."""

    type: str
    ack: int | None = None
    clientSeq: int | None = None  # noqa: N815 - wire name
    lastClientSeq: int | None = None  # noqa: N815 - wire name (a snapshot's)
    code: str | None = None
    detail: dict[str, Any] | None = None
    pending: list[_Pending] = []
    room: _RoomInfo | None = None
    view: dict[str, Any] | None = None
    patch: list[Any] | None = None


_decode = msgspec.json.Decoder(_Message).decode
_encode = msgspec.json.Encoder().encode


# --- one generator process ---------------------------------------------------------------


@dataclass
class WindowStats:
    """What one generator process saw during one measured window."""

    latencies: array[float] = field(default_factory=lambda: array("d"))
    update_bytes: array[int] = field(default_factory=lambda: array("I"))
    accepted: int = 0
    refused: int = 0  # actions the server refused (the seat then tries its next choice)
    errors: int = 0  # anything unexpected: an error not answering an action, a dropped socket, …
    reconnects: int = 0  # sockets the server closed with "reconnect" (a room moving), reopened
    rooms_playing: int = 0
    # how late this process's event loop woke up (seconds): the generator's own share of the
    # latencies above, had its loop been busy with other seats or without a core
    loop_lag: array[float] = field(default_factory=lambda: array("d"))
    gc_pauses: array[float] = field(default_factory=lambda: array("d"))  # its collector's passes


class Room:
    def __init__(self, code: str, token: str, room_id: str = "") -> None:
        self.code = code
        self.room_id = room_id
        self.token = token
        self.seats: list[Seat] = []
        self.played: set[int] = set()  # windows in which an action of this room was accepted
        self.ever_played = False
        self.rematching = False
        self.held = True  # no seat acts until every room of its growth step has started


class Seat:
    def __init__(
        self, gen: Generator, room: Room, url: str, token: str, player: str, host: bool
    ) -> None:
        self.gen = gen
        self.room = room
        self.url = url
        self.token = token  # sent in the first message (auth), never in the URL
        self.player = player
        self.host = host
        self.seq = 0
        self.waiting: tuple[int, float, list[dict[str, Any]]] | None = None
        self.ws: wsclient.Socket | None = None
        self.status = "lobby"
        self.view: dict[str, Any] | None = None  # as patched by every update
        self.my_turn = False  # the last update or snapshot named this seat pending
        self.sent: dict[str, Any] = {}  # the last action sent

    def closed(self, code: int | None) -> None:
        """Its socket closed (``code``: the close code received, None without a close frame)."""
        gen = self.gen
        if gen.closing:
            return
        if code != RECONNECT:
            gen.error()
            gen.dropped[code] = gen.dropped.get(code, 0) + 1
            return
        # the room moved (a cluster hands it to the node holding its sockets): like a
        # person's client, connect again with the token and carry on from the snapshot
        window = gen.window.value
        if window > 0:
            gen.stats(window).reconnects += 1
        gen.spawn(self.reconnect())

    async def reconnect(self) -> None:
        try:
            await self.connect()
        except (OSError, InvalidHandshake):  # TimeoutError is an OSError
            self.gen.error()

    async def connect(self) -> None:
        # every message is handed to ``on`` as it arrives, within the socket's read
        self.ws = await wsclient.connect(self.url, self.on, self.closed, max_size=2**22)
        self.ws.send(_encode({"type": "auth", "token": self.token}))

    def on(self, data: bytes) -> None:
        gen = self.gen
        window = gen.window.value
        message = _decode(data)
        kind = message.type
        if kind == "error":
            # A refused action does not use its clientSeq (docs/protocol.md): reuse it.
            if message.code == "client_seq_gap" and message.detail:
                self.seq = int(message.detail["expected"]) - 1
            elif message.clientSeq is not None and message.code != "duplicate":
                self.seq = min(self.seq, message.clientSeq - 1)
            if not (self.waiting and message.clientSeq == self.waiting[0]):
                gen.error()
            else:
                if window > 0:
                    gen.stats(window).refused += 1
                rest = self.waiting[2]
                if message.code == "client_seq_gap":
                    # its number was off (an action lost as its room moved): the same one again
                    rest = [self.sent, *rest]
                self.waiting = None
                if rest:
                    self.send(rest)
            return
        if kind not in ("update", "snapshot"):
            return
        if kind == "update" and window > 0:
            gen.stats(window).update_bytes.append(len(data))
        if kind == "snapshot" and self.waiting and self.waiting[0] > 0:
            # a new owner's snapshot while an action was on its way: applied (then it is in the
            # log as surely as an acknowledged one), or still on its way or lost; like the web
            # client, never go back: decide again with the next number (a gap is corrected)
            seq = self.waiting[0]
            if (message.lastClientSeq or 0) >= seq:
                self.gen.acked.append((self.room.room_id, self.player, seq))
            self.waiting = None
        if kind == "snapshot" or message.view is not None:
            self.view = message.view
        elif message.patch:
            self.view = apply_patch(self.view, message.patch)
        if message.room is not None:
            self.status = message.room.status
            if self.host and self.status == "finished" and not self.room.rematching:
                self.room.rematching = True
                gen.spawn(gen.rematch(self.room))
        if self.waiting and message.ack == self.waiting[0]:
            self.room.ever_played = True
            self.gen.acked.append((self.room.room_id, self.player, message.ack))
            if window > 0:
                stats = gen.stats(window)
                stats.latencies.append(time.perf_counter() - self.waiting[1])
                stats.accepted += 1
                self.room.played.add(window)
            self.waiting = None
        self.my_turn = any(p.player == self.player for p in message.pending)
        self.decide()

    def decide(self) -> None:
        """Acts if it is this seat's turn and nothing of it is on its way."""
        gen = self.gen
        if self.waiting is not None or self.status != "playing" or self.view is None:
            return
        if not self.my_turn or self.room.held:
            return
        candidates = marble_policy(self.view, self.player)
        if candidates and gen.think > 0:
            self.waiting = (-1, 0.0, [])  # thinking: nothing else goes out meanwhile
            gen.thinking.add(self, candidates)
        elif candidates:
            self.send(candidates)

    def send(self, candidates: list[dict[str, Any]]) -> None:
        self.seq += 1
        self.sent = candidates[0]
        self.waiting = (self.seq, time.perf_counter(), candidates[1:])
        if self.ws is not None:  # closed meanwhile: the frame is lost, as a person's would be
            self.ws.send(
                _encode({"type": "action", "clientSeq": self.seq, "action": candidates[0]})
            )


class Thinking:
    """Every thinking seat of a process, on one timer: each acts its think time after it
    began (``think()``, drawn per action), or up to ``THINK_TICK`` later. At a human pace a
    timer per seat woke the loop for nearly every action (a wake-up costs tens of µs here);
    this one wakes it at most once a tick. The queue is a heap by due time (a spread think
    makes the dues come out of order)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, think: Callable[[], float]) -> None:
        self.loop = loop
        self.think = think
        self.queue: list[tuple[float, int, Seat, list[dict[str, Any]]]] = []
        self.added = 0  # ties broken by order of arrival (seats do not compare)
        self.timer: asyncio.Handle | None = None
        self.timer_at = 0.0  # when the armed timer fires (uvloop's handle of a time already
        # past is a plain Handle, without ``when``)

    def add(self, seat: Seat, candidates: list[dict[str, Any]]) -> None:
        due = self.loop.time() + self.think()
        self.added += 1
        heapq.heappush(self.queue, (due, self.added, seat, candidates))
        if self.timer is None:
            self._arm(due)
        elif due < self.timer_at - THINK_TICK:  # due well before the armed one: moved up
            self.timer.cancel()
            self._arm(due)

    def _arm(self, at: float) -> None:
        self.timer = self.loop.call_at(at, self.fire)
        self.timer_at = at

    def fire(self) -> None:
        now = self.loop.time()
        queue = self.queue
        while queue and queue[0][0] <= now:
            _, _, seat, candidates = heapq.heappop(queue)
            seat.send(candidates)
        self.timer = None
        if queue:
            self._arm(max(queue[0][0], now + THINK_TICK))

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.queue.clear()


class Generator:
    """The rooms of one generator process and the figures of its windows."""

    def __init__(
        self,
        addresses: list[str],
        http: list[httpx.AsyncClient],
        window: Any,
        think: float,
        bots: int,
        concurrency: int = CONCURRENCY,
        think_spread: float = 0.0,
    ) -> None:
        self.addresses = addresses  # the nodes: room k is opened on node k, its seats go round
        self.http = http
        self.opened = 0
        self.window = window  # shared with the parent: >0 while window N is open
        self.think = think
        # each think drawn from think × [1 - spread, 1 + spread] (same mean): with one fixed
        # think every room started together acts together, in waves a think apart, and a
        # window then counts two waves or three by its phase, not by the server's speed
        self.think_spread = think_spread
        self.random = random.Random(os.getpid())
        self.bots = bots
        self.rooms: list[Room] = []
        self.windows: dict[int, WindowStats] = {}
        self.acked: list[tuple[str, str, int]] = []  # (room id, player, clientSeq) acknowledged
        self.sem = asyncio.Semaphore(concurrency)
        self.loop = asyncio.get_running_loop()
        self.thinking = Thinking(self.loop, self.think_time)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.dropped: dict[int | None, int] = {}  # sockets the server closed, by close code
        self.gc_began = 0.0
        self.watcher: asyncio.TimerHandle | None = None

    def think_time(self) -> float:
        """Seconds a seat thinks before this action."""
        if not self.think_spread:
            return self.think
        return self.think * self.random.uniform(1 - self.think_spread, 1 + self.think_spread)

    def error(self) -> None:
        """Counts something unexpected in the open window (outside windows it shows as rooms not playing)."""
        window = self.window.value
        if window > 0:
            self.stats(window).errors += 1

    def stats(self, window: int) -> WindowStats:
        found = self.windows.get(window)
        if found is None:
            found = self.windows[window] = WindowStats()
        return found

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def post(
        self,
        path: str,
        token: str | None = None,
        node: int = 0,
        done_if_retried: str | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """A POST that survives a dropped keep-alive connection under load (3 tries) and, as
        a person's client does, tries again a moment later when the room is moving.

        A try whose answer was lost may still have been done: a start tried again then finds
        its match playing. ``done_if_retried`` names the refusal that means so
        (``match_in_progress``): on a second or third try it is the answer (the body of the
        refusal), not an error."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        http = self.http[node % len(self.http)]
        for attempt in range(3):
            try:
                async with self.sem:
                    response = await http.post(path, headers=headers, **kwargs)
                for wait in (0.5, 1.0, 2.0):
                    if response.status_code != 503 or "room_moving" not in response.text:
                        break
                    await asyncio.sleep(wait)
                    async with self.sem:
                        response = await http.post(path, headers=headers, **kwargs)
                if response.status_code >= 400:
                    if attempt and done_if_retried and _error_code(response) == done_if_retried:
                        done: dict[str, Any] = response.json()
                        return done
                    raise RuntimeError(f"POST {path}: {response.status_code} {response.text[:200]}")
                result: dict[str, Any] = response.json()
                return result
            except httpx.TransportError as exc:
                if attempt == 2:
                    raise
                print(f"POST {path}: {exc!r}; trying again", file=sys.stderr)
                await asyncio.sleep(0.2)
        raise AssertionError("unreachable")

    def ws_url(self, node: int, room_id: str) -> str:
        return f"ws://{self.addresses[node % len(self.addresses)]}/ws/{room_id}"

    async def open_room(self) -> Room:
        k = self.opened
        self.opened += 1
        created = await self.post(
            "/api/rooms",
            node=k,
            json={"game": "marble", "nickname": "p1", "options": {"maxRounds": 30}},
        )
        rid = created["roomId"]
        room = Room(created["code"], created["token"], rid)
        room.seats.append(
            Seat(self, room, self.ws_url(k, rid), created["token"], created["playerId"], True)
        )
        for i in range(2, SEATS - self.bots + 1):
            joined = await self.post(
                f"/api/rooms/{room.code}/join", node=k, json={"nickname": f"p{i}"}
            )
            url = self.ws_url(k + i - 1, rid)  # other nodes: relayed
            room.seats.append(Seat(self, room, url, joined["token"], joined["playerId"], False))
        for _ in range(self.bots):
            await self.post(
                f"/api/rooms/{room.code}/bots", room.token, json={"policy": "heuristic"}
            )
        for seat in room.seats:
            async with self.sem:
                await seat.connect()
        return room

    async def grow(self, total: int) -> int:
        """Opens and starts rooms until there are ``total``; returns once every room played."""
        new = await asyncio.gather(*[self.open_room() for _ in range(total - len(self.rooms))])
        # Started first, played after: rooms already playing at full speed would make the
        # later starts wait behind them (past nginx's 60 s on a busy machine).
        await asyncio.gather(
            *[
                self.post(f"/api/rooms/{r.code}/start", r.token, done_if_retried=STARTED)
                for r in new
            ]
        )
        for room in new:
            room.held = False
            for seat in room.seats:
                seat.decide()
        self.rooms.extend(new)
        deadline = time.monotonic() + PLAYING_TIMEOUT
        while not all(room.ever_played for room in self.rooms):
            if time.monotonic() > deadline:
                idle = sum(not room.ever_played for room in self.rooms)
                dropped = ", ".join(
                    f"{n} with code {c}" for c, n in sorted(self.dropped.items(), key=str)
                )
                raise RuntimeError(
                    f"{idle} rooms never had an action accepted"
                    + (f" (sockets closed: {dropped})" if dropped else "")
                )
            await asyncio.sleep(0.05)
        return len(self.rooms)

    async def rematch(self, room: Room) -> None:
        """A finished room starts again at once, so the load stays constant."""
        try:
            await self.post(f"/api/rooms/{room.code}/rematch", room.token, done_if_retried=STARTED)
        except RuntimeError:
            self.error()  # the room would stop playing
        finally:
            room.rematching = False

    def watch_cpu(self, due: float = 0.0) -> None:
        """Records how late each of its wake-ups came, in the open window: the generator's loop
        lag. A timer's callback that sets the next one (not a task sleeping): a look costs
        little."""
        if due:
            window = self.window.value
            if window > 0:
                self.stats(window).loop_lag.append(max(0.0, time.perf_counter() - due))
        self.watcher = self.loop.call_later(
            WATCH_INTERVAL, self.watch_cpu, time.perf_counter() + WATCH_INTERVAL
        )

    def time_gc(self, phase: str, info: dict[str, Any]) -> None:
        """A ``gc.callbacks`` entry: this process's collector passes, in the open window."""
        if phase == "start":
            self.gc_began = time.perf_counter()
        elif (window := self.window.value) > 0:
            self.stats(window).gc_pauses.append(time.perf_counter() - self.gc_began)

    def report(self, window: int) -> WindowStats:
        stats = self.windows.pop(window, WindowStats())
        stats.rooms_playing = sum(window in room.played for room in self.rooms)
        return stats

    async def close(self) -> None:
        self.closing = True
        await asyncio.gather(
            *[seat.ws.close() for room in self.rooms for seat in room.seats if seat.ws],
            return_exceptions=True,
        )
        for task in list(self.tasks):
            task.cancel()


def _raise_open_files() -> None:
    """Thousands of rooms need more sockets than the usual soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 200_000), max(hard, 200_000)))
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _worker(
    address: str,
    conn: Any,
    window: Any,
    think: float,
    bots: int,
    cores: set[int] | None,
    concurrency: int,
    think_spread: float = 0.0,
) -> None:
    if cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)
    _raise_open_files()
    if importlib.util.find_spec("sniffio") is None:
        # httpcore runs ``import sniffio`` for every request; a failed import is not cached,
        # so each one searched sys.path again: ~1 ms of CPU a request, most of the
        # generator's CPU while rooms open. Known absent: it falls back to asyncio at once.
        sys.modules["sniffio"] = None  # type: ignore[assignment]
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    try:
        asyncio.run(_commands(address, conn, window, think, bots, concurrency, think_spread))
    except BaseException as exc:  # the parent reports it instead of waiting forever
        with contextlib.suppress(Exception):
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
        raise


async def _commands(
    address: str,
    conn: Any,
    window: Any,
    think: float,
    bots: int,
    concurrency: int,
    think_spread: float = 0.0,
) -> None:
    loop = asyncio.get_running_loop()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    addresses = address.split(",")  # a cluster's nodes, or the one server
    async with contextlib.AsyncExitStack() as stack:
        http = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=f"http://{a}", timeout=120, limits=limits)
            )
            for a in addresses
        ]
        gen = Generator(addresses, http, window, think, bots, concurrency, think_spread)
        gen.watch_cpu()
        # The generator holds thousands of seats' views: with CPython's own collector its full
        # passes stalled its loop for ~0.5 s (its lag), which the latencies then included.
        GENERATOR_GC.apply()
        collector = asyncio.create_task(Collector(GENERATOR_GC).run())
        gc.callbacks.append(gen.time_gc)
        while True:
            command, arg = await loop.run_in_executor(None, conn.recv)
            if command == "grow":
                conn.send(("ready", await gen.grow(arg)))
            elif command == "report":
                conn.send(("report", gen.report(arg)))
            elif command == "acked":
                conn.send(("acked", gen.acked))
            else:
                if gen.watcher is not None:
                    gen.watcher.cancel()
                gen.thinking.cancel()
                collector.cancel()
                await gen.close()
                conn.send(("stopped", None))
                return


# --- the parent: server process, generator processes, windows ------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (all its threads), from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_queue_wait_s(pid: int) -> float:
    """Seconds the process's main thread was ready to run but waited for a core (schedstat).

    On a shared machine this is the noise: time the server wanted the CPU and did not get it.
    """
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def split_cores() -> tuple[set[int] | None, set[int] | None]:
    """The server's core and the generator's cores: first core, the rest (None: not pinned)."""
    if not hasattr(os, "sched_getaffinity"):
        return None, None
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None, None
    return {cores[0]}, set(cores[1:])


@dataclass
class Setup:
    port: int = 0  # 0: a free port
    think: float = 0.0
    think_spread: float = 0.0  # each think drawn from think × [1 - spread, 1 + spread]
    bots: int = 0  # seats per room played by the server's bots
    bot_delay: float = 0.0
    rate: float = 1000.0  # WebSocket messages per second per connection the server allows
    generators: int = 2
    db: str | None = None
    pin: bool = True
    nodes: int = 1  # >1: a cluster of that many nodes on ``db`` (PostgreSQL) and ``redis``
    redis: str | None = None
    concurrency: int = CONCURRENCY  # requests in flight per generator process while growing
    lb: Routing | None = None  # the generator reaches the nodes through deploy/nginx.conf
    server_args: tuple[str, ...] = ()  # more flags of `joke serve` (e.g. the collector's)
    server_wrap: tuple[str, ...] = ()  # the server's command starts with these (valgrind …)
    tree: str | None = None  # run the server from this checkout (its directory first on sys.path)
    start_seconds: float = 30.0  # how long the server may take to answer its health check


class Server:
    """`joke serve` in its own process on a fresh SQLite file, pinned to its core; or, with
    ``setup.nodes`` > 1, that many cluster nodes (docs/cluster.md) sharing ``setup.db`` and
    ``setup.redis`` (its own key prefix), all pinned to the server's core."""

    def __init__(self, setup: Setup, core: set[int] | None) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="joke-load-")
        self.procs: list[subprocess.Popen[bytes]] = []
        self.addresses: list[str] = []
        prefix = self.prefix = f"bench-{os.getpid()}-{time.time_ns()}"
        self.redis = setup.redis
        for i in range(max(1, setup.nodes)):
            port = setup.port + i if setup.port else free_port()
            cmd = [
                *setup.server_wrap, sys.executable, "-m", "jokeapp.cli", "serve", "--port", str(port),
                "--db", setup.db or f"{self.tmp.name}/load.sqlite3", "--bot-delay", str(setup.bot_delay),
                "--rate", str(setup.rate), "--log-level", "error",
            ]  # fmt: skip
            if setup.redis:
                cmd += ["--redis", setup.redis, "--node", f"n{i + 1}", "--redis-prefix", prefix]
            cmd += setup.server_args
            # a file, not a pipe nobody reads: a node that logs a lot must not block on it
            with Path(self.tmp.name, f"node-{i + 1}.log").open("wb") as log:
                proc = subprocess.Popen(
                    cmd, cwd=setup.tree, stdout=subprocess.DEVNULL, stderr=log,
                    preexec_fn=_raise_open_files,
                )  # fmt: skip
            if core:
                os.sched_setaffinity(proc.pid, core)
            self.procs.append(proc)
            self.addresses.append(f"127.0.0.1:{port}")
        self.proc = self.procs[0]
        self.address = self.addresses[0]
        for proc, address in zip(self.procs, self.addresses, strict=True):
            self._wait_healthy(proc, address, setup.start_seconds)
        self.idle_rss_kib = sum(rss_kib(pid) for pid in self.pids)
        self.nginx: Nginx | None = None
        self.entry = self.addresses  # where the generator connects
        if setup.lb:
            _, others = split_cores() if setup.pin else (None, None)
            self.nginx = Nginx(self.addresses, Path(self.tmp.name), routing=setup.lb, cores=others)
            self.nginx.start()
            self.nginx.wait_ready()
            self.entry = [self.nginx.address]

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]

    def log_tail(self, proc: subprocess.Popen[bytes], size: int = 500) -> str:
        """The end of a node's stderr (its error lines)."""
        path = Path(self.tmp.name, f"node-{self.procs.index(proc) + 1}.log")
        with contextlib.suppress(OSError):
            return path.read_bytes()[-size:].decode(errors="replace").strip()
        return ""

    def _wait_healthy(self, proc: subprocess.Popen[bytes], address: str, seconds: float) -> None:
        for _ in range(int(seconds * 10)):
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_tail(proc)}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{address}/api/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        loopback.stop(self.procs)
        self.tmp.cleanup()
        if self.redis:
            import redis

            client = redis.Redis.from_url(self.redis)
            keys = list(client.scan_iter(match=f"{self.prefix}:*"))
            if keys:
                client.delete(*keys)
            client.close()


class Generators:
    """The load generator processes, commanded over pipes; a shared flag opens a window."""

    def __init__(self, address: str, setup: Setup, cores: set[int] | None) -> None:
        ctx = mp.get_context("fork")
        self.window: Any = ctx.RawValue("i", 0)
        self.count = max(1, setup.generators)
        self.conns = []
        self.procs = []
        for _ in range(self.count):
            parent, child = ctx.Pipe()
            proc = ctx.Process(
                target=_worker,
                args=(address, child, self.window, setup.think, setup.bots, cores, setup.concurrency,
                      setup.think_spread),
                daemon=True,
            )  # fmt: skip
            proc.start()
            self.conns.append(parent)
            self.procs.append(proc)
        self.rooms = 0

    def _ask_all(self, command: str, args: Sequence[Any], timeout: float) -> list[Any]:
        for conn, arg in zip(self.conns, args, strict=True):
            conn.send((command, arg))
        replies = []
        for conn in self.conns:
            if not conn.poll(timeout):
                raise RuntimeError(
                    f"a load generator did not answer {command!r} in {timeout:.0f} s"
                )
            kind, value = conn.recv()
            if kind == "error":
                raise RuntimeError(f"a load generator failed: {value}")
            replies.append(value)
        return replies

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs if proc.pid is not None]

    def grow(self, rooms: int) -> None:
        """Shares ``rooms`` between the processes; returns when every room is playing."""
        n = self.count
        shares = [rooms // n + (1 if i < rooms % n else 0) for i in range(n)]
        self._ask_all("grow", shares, PLAYING_TIMEOUT + 600)
        self.rooms = rooms

    def report(self, window: int) -> list[WindowStats]:
        return list(self._ask_all("report", [window] * self.count, 120))

    def acked(self) -> list[tuple[str, str, int]]:
        """Every action acknowledged so far: (room id, player, clientSeq)."""
        parts = self._ask_all("acked", [None] * self.count, 120)
        return [tuple(item) for part in parts for item in part]

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._ask_all("stop", [None] * self.count, 60)
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()


@contextlib.contextmanager
def running(setup: Setup) -> Iterator[tuple[Server, Generators]]:
    server_core, generator_cores = split_cores() if setup.pin else (None, None)
    server = Server(setup, server_core)
    generators = None
    try:
        generators = Generators(",".join(server.entry), setup, generator_cores)
        yield server, generators
    except BaseException:
        for proc in server.procs:  # the nodes' own error lines, before their files go
            print(f"node {proc.pid}: {server.log_tail(proc, 3000)}", file=sys.stderr)
        raise
    finally:
        if generators:
            generators.stop()
        server.stop()


def _error_code(response: httpx.Response) -> str | None:
    """The code of a refusal's shared error body (None when it has none)."""
    try:
        body = response.json()
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return float(sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))])


Probe = Callable[[Server], dict[str, float]]  # counters read at a window's open and close


def measure_window(
    server: Server, generators: Generators, number: int, seconds: float, probe: Probe | None = None
) -> dict[str, Any]:
    """One measured window: the server's CPU and the generators' counts over the same interval;
    ``probe``'s counters become figures per accepted action (``NAME_per_action``)."""
    metrics_open = serverside.scrape(server.addresses)  # before the CPU: its cost is outside
    counters_open = probe(server) if probe else {}
    cpu_open = sum(cpu_seconds(pid) for pid in server.pids)
    generator_open = sum(cpu_seconds(pid) for pid in generators.pids)
    wait_open = sum(run_queue_wait_s(pid) for pid in server.pids)
    started = time.perf_counter()
    generators.window.value = number
    time.sleep(seconds)
    generators.window.value = 0
    elapsed = time.perf_counter() - started
    server_cpu = sum(cpu_seconds(pid) for pid in server.pids) - cpu_open  # every node's
    generator_cpu = sum(cpu_seconds(pid) for pid in generators.pids) - generator_open
    server_wait = sum(run_queue_wait_s(pid) for pid in server.pids) - wait_open
    own = serverside.window_figures(metrics_open, serverside.scrape(server.addresses))
    rss = sum(rss_kib(pid) for pid in server.pids)
    counters_close = probe(server) if probe else {}
    parts = generators.report(number)
    lat = sorted(x for part in parts for x in part.latencies)
    sizes = sorted(x for part in parts for x in part.update_bytes)
    lag = sorted(x for part in parts for x in part.loop_lag)
    gen_gc = [x for part in parts for x in part.gc_pauses]
    accepted = sum(part.accepted for part in parts)
    per_action = (lambda s: s * 1000 / accepted) if accepted else (lambda s: float("nan"))
    return {
        "rooms": generators.rooms,
        "rooms_playing": sum(part.rooms_playing for part in parts),
        "seconds": elapsed,
        "accepted": accepted,
        "actions_per_s": accepted / elapsed,
        "p50_ms": _quantile(lat, 0.5) * 1000,
        "p99_ms": _quantile(lat, 0.99) * 1000,
        "max_ms": (lat[-1] if lat else float("nan")) * 1000,
        "server_cpu_ms_per_action": per_action(server_cpu),
        "server_cpu_share": server_cpu / elapsed,
        "server_wait_share": server_wait / elapsed,
        "generator_cpu_ms_per_action": per_action(generator_cpu),
        "update_bytes_p50": _quantile(sizes, 0.5),
        "update_bytes_p99": _quantile(sizes, 0.99),
        "rss_mib": rss / 1024,
        "kib_per_room": (rss - server.idle_rss_kib) / max(generators.rooms, 1),
        "errors": sum(part.errors for part in parts),
        "refused": sum(part.refused for part in parts),
        "reconnects": sum(part.reconnects for part in parts),
        "generator_lag_p99_ms": _quantile(lag, 0.99) * 1000,
        "generator_lag_max_ms": (lag[-1] if lag else float("nan")) * 1000,
        "generator_gc_max_ms": max(gen_gc, default=float("nan")) * 1000,
        **own,
    } | {
        f"{name}_per_action": (value - counters_open[name]) / accepted if accepted else nan
        for name, value in counters_close.items()
    }


def median_row(windows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the windows; p99's spread is kept too."""
    row = {key: statistics.median(w[key] for w in windows) for key in windows[0]}
    row["rooms"] = windows[0]["rooms"]
    row["rooms_playing_min"] = min(w["rooms_playing"] for w in windows)
    row["p99_ms_min"] = min(w["p99_ms"] for w in windows)
    row["p99_ms_max"] = max(w["p99_ms"] for w in windows)
    row["errors"] = sum(w["errors"] for w in windows)
    row["refused"] = sum(w["refused"] for w in windows)
    row["reconnects"] = sum(w["reconnects"] for w in windows)
    row["windows"] = len(windows)
    return row


def measure(
    rooms: int,
    setup: Setup,
    runs: int,
    seconds: float,
    warmup: float,
    probe: Probe | None = None,
    after: Callable[[Server, list[tuple[str, str, int]]], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A fresh server with ``rooms`` playing rooms; ``runs`` windows of ``seconds`` after warm-up.
    ``after``: told the server and every action acknowledged during the run (room id, player,
    clientSeq) once the windows closed; its figures join the row."""
    with running(setup) as (server, generators):
        generators.grow(rooms)
        time.sleep(warmup)
        windows = [measure_window(server, generators, i + 1, seconds, probe) for i in range(runs)]
        checked = after(server, generators.acked()) if after else {}
    return median_row(windows) | checked


def _ms(value: float) -> str:
    return f"{value:,.0f} ms" if value >= 100 else f"{value:.1f} ms"


HEADER = (
    "| rooms | playing | actions/s | p50 | p99 (min–max) | max | server's own p99 "
    "| generator lag p99 | server CPU/action | generator CPU/action | update bytes p50 / p99 "
    "| server RSS | RSS per room | errors |"
)


def table(rows: list[dict[str, Any]]) -> str:
    lines = [HEADER, "|---:" * 14 + "|"]
    for r in rows:
        lines.append(
            f"| {r['rooms']:,} | {r['rooms_playing_min']:,.0f} | {r['actions_per_s']:,.0f} "
            f"| {_ms(r['p50_ms'])} | {_ms(r['p99_ms'])} ({_ms(r['p99_ms_min'])}–{_ms(r['p99_ms_max'])}) "
            f"| {_ms(r['max_ms'])} | {serverside.bound_ms(r['server_p99_ms'])} "
            f"| {_ms(r['generator_lag_p99_ms'])} | {r['server_cpu_ms_per_action']:.2f} ms "
            f"({r['server_cpu_share']:.0%} busy, {r['server_wait_share']:.0%} waiting) | {r['generator_cpu_ms_per_action']:.2f} ms "
            f"| {r['update_bytes_p50']:,.0f} / {r['update_bytes_p99']:,.0f} B | {r['rss_mib']:,.0f} MiB "
            f"| {r['kib_per_room']:,.0f} KiB | {r['errors']} |"
        )
    return "\n".join(lines)


def describe_setup(setup: Setup) -> str:
    server_core, generator_cores = split_cores() if setup.pin else (None, None)
    if setup.think <= 0:
        pace = "full speed"
    elif setup.think_spread:
        low, high = setup.think * (1 - setup.think_spread), setup.think * (1 + setup.think_spread)
        pace = f"each seat thinks {setup.think:g} s on average before acting (drawn from {low:g}–{high:g} s)"
    else:
        pace = f"each seat thinks {setup.think:g} s before acting"
    where = (
        f"server pinned to core {min(server_core)}, generator ({setup.generators} processes) on "
        f"core{'s' if len(generator_cores or ()) > 1 else ''} {', '.join(map(str, sorted(generator_cores or ())))}"
        if server_core
        else f"server and generator ({setup.generators} processes) share the cores"
    )
    bots = (
        f", {setup.bots} server bot(s) per room (delay {setup.bot_delay:g} s)" if setup.bots else ""
    )
    return f"marble rooms of {SEATS} seats ({SEATS - setup.bots} WebSocket clients{bots}), {pace}; {where}"


def section(args: argparse.Namespace, rows: list[dict[str, Any]], setup: Setup) -> list[str]:
    return [
        "## Room server load",
        "",
        f"`{command_line(args)}` — {describe_setup(setup)}; one server process on a fresh SQLite "
        f"file, loopback. Every room has had an action accepted before the windows open; each row "
        f"is the median of {args.runs} windows of {args.seconds:g} s after {args.warmup:g} s of "
        "warm-up (p99 also as min–max over the windows). Latency: action sent to the update that "
        "acknowledges it; the server's own p99 is its action→update histogram's (to its bucket, "
        "/metrics), the generator's lag how late its own event loop ran (both parts of the "
        "latency). CPU per action: CPU time over the window / accepted actions; busy: the "
        "server's CPU time / the window; waiting: time the server was ready to run but had no core "
        "(taken by other processes: the noise of a shared machine). Errors: "
        "anything unexpected (an error not answering an action, a dropped socket, a refused "
        "rematch); refused actions (the simple policy's first choice refused, its next one sent) "
        "are not errors.",
        "",
        table(rows),
    ]


def command_line(args: argparse.Namespace) -> str:
    parts = ["python -m jokeapp.bench.load", "--rooms", *map(str, args.rooms)]
    parts += [
        "--runs",
        str(args.runs),
        "--seconds",
        f"{args.seconds:g}",
        "--warmup",
        f"{args.warmup:g}",
    ]
    if args.think:
        parts += ["--think", f"{args.think:g}"]
    if args.server_args:
        parts += [f"--server-args={shlex.join(args.server_args)!r}"]
    if getattr(args, "redis", None):
        parts += ["--nodes", str(args.nodes), "--redis", args.redis, "--db", args.db]
    return " ".join(parts)


def add_setup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port", type=int, default=0, help="the server's port (default: a free one)"
    )
    parser.add_argument(
        "--db", default=None, help="the server's --db (default: a fresh SQLite file)"
    )
    parser.add_argument("--generators", type=int, default=2, help="load generator processes")
    parser.add_argument(
        "--nodes", type=int, default=1, help="cluster nodes (with --redis and a PostgreSQL --db)"
    )
    parser.add_argument("--redis", default=None, help="the cluster's redis:// URL")
    parser.add_argument(
        "--no-pin", action="store_true", help="do not pin server and generator to cores"
    )
    parser.add_argument(
        "--server-args",
        type=shlex.split,
        default=[],
        metavar="'FLAGS'",
        help="more flags for the server, e.g. --server-args='--no-gc-freeze'",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jokeapp.bench.load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rooms", type=int, nargs="+", default=[10, 100, 1000], help="room counts")
    parser.add_argument("--runs", type=int, default=3, help="measured windows per room count")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds after every room plays")
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a seat waits before acting"
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke test: 2 and 10 rooms, 1 window of 2 s"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON, not Markdown")
    add_setup_arguments(parser)
    parser.add_argument(
        "--section", action="store_true", help="only the Markdown section (for BENCHMARKS.md)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.rooms, args.runs, args.seconds, args.warmup = [2, 10], 1, 2.0, 0.5
    if min(args.rooms) < 1 or args.runs < 1 or args.seconds <= 0:
        parser.error("rooms, runs and seconds must be positive")
    setup = Setup(
        port=args.port,
        think=args.think,
        generators=args.generators,
        db=args.db,
        pin=not args.no_pin,
        nodes=args.nodes,
        redis=args.redis,
        server_args=tuple(args.server_args),
    )
    if args.nodes > 1 and not (args.redis and args.db and "://" in args.db):
        parser.error("--nodes needs --redis and a postgresql:// --db")
    rows = []
    for rooms in args.rooms:
        rows.append(measure(rooms, setup, args.runs, args.seconds, args.warmup))
        print(f"measured {rooms} rooms: p99 {rows[-1]['p99_ms']:.1f} ms", file=sys.stderr)
    if args.json:
        print(msgspec.json.encode(rows).decode())
    else:
        print("\n".join(section(args, rows, setup)))
        if not args.section:
            print(f"\nMachine: {describe()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
