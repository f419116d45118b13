"""A person's socket that reconnects the way the web client does (client/src/net/session.ts):
on a close that is not final it opens a new socket (here: through the load balancer) after a
backoff, sends its token first, and takes the snapshot's ``lastClientSeq`` as the truth about
its own numbering; the seat is the token's, so it comes back with it."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import websockets

from tests.server.harness import Client

FATAL_CLOSE = frozenset({4401, 4403, 4409})  # kicked, bad token, replaced: no reconnect


def backoff_delay(attempt: int) -> float:
    """The web client's: doubling from 0.5 s, capped at 8 s, up to 25 % jitter (seq.ts)."""
    return min(8.0, 0.5 * 2.0**attempt) * (1 + 0.25 * random.random())


class WebClient(Client):
    """``server``: where the first socket goes (a node, or nginx); ``home``: where every later
    one goes (nginx). Keeps, per socket, where it went and how it ended."""

    def __init__(
        self,
        server: Any,
        room_id: str,
        token: str,
        player_id: str | None,
        policy: Any = None,
        *,
        home: Any,
    ) -> None:
        super().__init__(server, room_id, token, player_id, policy)
        self.home = home
        self.sockets: list[Any] = [server]  # where each socket went
        self.close_codes: list[int | None] = []  # how each socket but the open one ended
        self.arrived: list[float] = []  # time.monotonic() of each message, as self.messages
        self.leaving = False
        self._fresh = True  # no snapshot yet on this socket

    async def close(self) -> None:
        self.leaving = True
        await super().close()

    async def _read(self) -> None:
        while True:
            await super()._read()
            self.close_codes.append(self.ws.close_code)
            if self.leaving or self.ws.close_code in FATAL_CLOSE:
                return
            attempt = 0
            while not self.leaving:
                # the web client's reconnection delay, not a wait for a condition
                await asyncio.sleep(backoff_delay(attempt))
                attempt += 1
                try:
                    ws = await websockets.connect(
                        f"{self.home.ws_base}/ws/{self.room_id}", max_size=2**22, open_timeout=10
                    )
                    await ws.send(json.dumps({"type": "auth", "token": self.token}))
                except (OSError, TimeoutError, websockets.WebSocketException):
                    continue
                self.ws = ws
                self.sockets.append(self.home)
                self._fresh = True
                break
            self.changed.set()

    async def _on(self, message: dict[str, Any]) -> None:
        self.arrived.append(time.monotonic())
        if message["type"] == "snapshot" and self._fresh:
            # on a new socket the server's count is the truth: what the old one had in flight
            # is gone (session.ts does the same)
            self.client_seq = message["lastClientSeq"]
            self._fresh = False
        await super()._on(message)

    @property
    def snapshot_on_this_socket(self) -> bool:
        """The open socket is not the first, and its snapshot has come."""
        return len(self.sockets) >= 2 and not self._fresh

    def snapshots(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "snapshot"]
