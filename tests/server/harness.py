"""A real server process on a free port, and WebSocket clients that record what they get."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from prometheus_client.parser import text_string_to_metric_families

from jokeapp.bench.loopback import Loopback, free_port
from tests.heldview import held_view, with_defaults

ROOT = Path(__file__).resolve().parents[2]
START_LIMIT = 120  # seconds a server process may take to answer /api/health


def masked_text_frame(text: str) -> bytes:
    """One client-to-server WebSocket text frame (RFC 6455: clients mask), for raw sockets."""
    payload = text.encode()
    mask = os.urandom(4)
    if len(payload) < 126:
        head = bytes([0x81, 0x80 | len(payload)])
    else:
        head = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class ServerProcess(Loopback):
    def __init__(self, db: str, bot_delay: float = 0.01, extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.extra = extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = (
            Path(db).with_suffix(f".{self.port}.log")
            if "://" not in db
            else Path("/tmp/joke-server.log")
        )

    def start(self) -> None:
        args = [
            sys.executable,
            "-m",
            "jokeapp.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--bot-delay",
            str(self.bot_delay),
            "--extra-game",
            "tests.rooms.fakegame:GAME",
            "--rate",
            "200",
            *self.extra,
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        # a cap for a process that hangs, not a measure: on a loaded machine the start (imports,
        # migrations, Redis) has taken over 30 s, so this waits for health up to two minutes
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            time.sleep(0.1)
        self.kill()  # not left running behind the failed test
        raise RuntimeError(
            f"server did not start in {START_LIMIT} s: {self.log_path.read_text()[-2000:]}"
        )

    def __enter__(self) -> ServerProcess:
        """``with ServerProcess(...) as server:`` started, and stopped whatever happens."""
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what was committed is all there is."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Client:
    """One person's WebSocket: keeps every raw message, and plays when a policy is given."""

    def __init__(
        self,
        server: ServerProcess,
        room_id: str,
        token: str,
        player_id: str | None,
        policy: Any = None,
    ):
        self.server = server
        self.room_id = room_id
        self.token = token
        self.player_id = player_id
        self.policy = policy
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None
        self.client_seq = 0
        self.outstanding: tuple[int, list[dict[str, Any]]] | None = None
        self.sent_actions: dict[int, dict[str, Any]] = {}
        self.acked: list[
            tuple[int, dict[str, Any]]
        ] = []  # (clientSeq, action) the server confirmed
        self.last_seq = -1
        self.view: Any = None
        self.pending: list[dict[str, Any]] = []
        self.status = "lobby"
        self.changed = asyncio.Event()

    async def connect(self) -> None:
        url = f"{self.server.ws_base}/ws/{self.room_id}"
        self.ws = await websockets.connect(url, max_size=2**22)
        await self.ws.send(json.dumps({"type": "auth", "token": self.token}))
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def reconnect_via(self, server: ServerProcess) -> Client:
        """The same person on a new socket through ``server`` (this one is closed): the same
        token and policy, and what they sent and had acknowledged carried over."""
        await self.close()
        fresh = Client(server, self.room_id, self.token, self.player_id, self.policy)
        fresh.acked, fresh.sent_actions = self.acked, self.sent_actions
        await fresh.connect()
        return fresh

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def act(self, action: dict[str, Any]) -> int:
        self.client_seq += 1
        self.sent_actions[self.client_seq] = action
        await self.send({"type": "action", "clientSeq": self.client_seq, "action": action})
        return self.client_seq

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.raw.append(text)
                message = with_defaults(json.loads(text))
                self.messages.append(message)
                await self._on(message)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.changed.set()

    async def _on(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "snapshot":
            self.last_seq = message["seq"]
            self.client_seq = max(self.client_seq, message["lastClientSeq"])
            self.outstanding = None
        elif kind == "update":
            assert message["seq"] == self.last_seq + 1, (message["seq"], self.last_seq)
            self.last_seq = message["seq"]
            if message.get("ack") is not None:
                self.acked.append((message["ack"], self.sent_actions[message["ack"]]))
            if self.outstanding and message.get("ack") == self.outstanding[0]:
                self.outstanding = None
        elif kind == "error":
            self._unused_number(message)
            if self.outstanding and message.get("clientSeq") == self.outstanding[0]:
                rest = self.outstanding[1]
                self.outstanding = None
                if rest:
                    await self._try(rest)
            return
        else:
            return
        if message.get("room"):
            self.status = message["room"]["status"]
        # the view as a client holds it: the update's whole view, or the last one patched;
        # kept in the message too, so checks of what was sent read every view
        self.view = held_view(self.view, message)
        message["view"] = self.view
        self.pending = message["pending"]
        await self._maybe_play()

    def _unused_number(self, error: dict[str, Any]) -> None:
        """A refused action does not use its clientSeq: the next action takes it again."""
        if error["code"] == "client_seq_gap":
            self.client_seq = error["detail"]["expected"] - 1
        elif error.get("clientSeq") is not None and error["code"] != "duplicate":
            self.client_seq = min(self.client_seq, error["clientSeq"] - 1)

    async def _maybe_play(self) -> None:
        if self.policy is None or self.outstanding is not None or self.status != "playing":
            return
        if not any(p["player"] == self.player_id for p in self.pending):
            return
        candidates = self.policy(self.view, self.player_id, self.pending)
        if candidates:
            await self._try(candidates)

    async def _try(self, candidates: list[dict[str, Any]]) -> None:
        first, *rest = candidates
        seq = await self.act(first)
        self.outstanding = (seq, rest)

    async def wait_until(self, predicate: Any, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("condition not reached")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))


def marble_policy(
    view: dict[str, Any], me: str, pending: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """What a simple person does, in the order they would try it."""
    phase = view["phase"]
    if phase == "turnStart":
        if view["players"][me]["spacePending"]:
            return [{"type": "SPACE_TRAVEL", "dest": 0}]
        return [{"type": "ROLL"}]
    if phase == "decide":
        return [{"type": "BUY"}, {"type": "BUILD", "level": 1}, {"type": "PASS"}]
    if phase == "debt":
        mine = sorted(
            (
                (int(pos), info["level"])
                for pos, info in view["owners"].items()
                if info and info["owner"] == me
            ),
            key=lambda x: -x[1],
        )
        return [
            {"type": "SELL", "pos": pos, "what": "top" if level else "all"} for pos, level in mine
        ] + [{"type": "SELL", "pos": pos, "what": "all"} for pos, _ in mine]
    if phase == "tradeResponse":
        return [{"type": "TRADE_RESPOND", "accept": False}]
    return []


def dalmuti_policy(
    view: dict[str, Any], me: str, pending: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    phase = view["phase"]["kind"]
    hand = sorted(view.get("hand") or [], key=lambda c: (c["n"], c["id"]))
    numbers = [c for c in hand if c["n"] < 13]
    if phase == "revolutionCheck":
        return [{"type": "confirmHand"}]
    if phase == "taxReturn":
        worst = sorted(numbers, key=lambda c: (-c["n"], c["id"]))
        return [{"type": "returnTax", "cardIds": [c["id"] for c in worst[:k]]} for k in (2, 1)]
    if phase == "playing":
        if numbers:
            top = max(c["n"] for c in numbers)
            lead = [{"type": "play", "cardIds": [c["id"] for c in numbers if c["n"] == top]}]
        else:
            lead = [{"type": "play", "cardIds": [c["id"] for c in hand]}]
        singles = [{"type": "play", "cardIds": [c["id"]]} for c in numbers]
        return [{"type": "pass"}, *lead, *singles]
    return []


def race_policy(
    view: dict[str, Any], me: str, pending: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    if view["phase"] == "confirm":
        return [{"type": "confirm"}]
    return [{"type": "step", "n": 2}]


# every sample of a /metrics answer: (name, sorted labels) -> value
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a /metrics answer (Prometheus text format), parsed by prometheus-client."""
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def scrape(http: httpx.AsyncClient, url: str = "/metrics") -> Samples:
    """A server's /metrics, every sample (``url``: another node's, for a client of no base)."""
    r = await http.get(url)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return samples(r.text)


class Api:
    def __init__(self, server: ServerProcess) -> None:
        self.http = httpx.AsyncClient(base_url=server.base, timeout=10)

    async def close(self) -> None:
        await self.http.aclose()

    async def create(
        self, game: str, nickname: str = "방장", options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        r = await self.http.post(
            "/api/rooms", json={"game": game, "nickname": nickname, "options": options or {}}
        )
        assert r.status_code == 201, r.text
        return dict(r.json())

    async def join(self, code: str, nickname: str, role: str = "player") -> dict[str, Any]:
        r = await self.http.post(
            f"/api/rooms/{code}/join", json={"nickname": nickname, "role": role}
        )
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def host(self, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
        return await self.http.request(
            method, path, json=body, headers={"Authorization": f"Bearer {token}"}
        )
