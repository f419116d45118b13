"""A socket's writes: at once while the socket takes data, in order behind a full one."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from starlette.websockets import WebSocket

from jokeapp.server.middleware import RAW_SEND
from jokeapp.server.ws import WsConnection
from jokeapp.wire import protocol as p


class FakeSocket:
    """The server's side of one WebSocket: ``writable`` cleared is a full socket buffer."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.closed: int | None = None
        self.writable = asyncio.Event()
        self.writable.set()
        self.gone = False
        self.scope: dict[str, Any] = {RAW_SEND: self._send}

    async def _send(self, message: dict[str, Any]) -> None:
        await self.writable.wait()
        if self.gone:
            raise OSError("peer gone")
        self.frames.append(message["text"])

    async def close(self, code: int) -> None:
        self.closed = code


def pong(n: int) -> p.PongMessage:
    return p.PongMessage(server_time=n)


def text(n: int) -> str:
    return p.encode(pong(n)).decode()


async def until(condition: Any) -> None:
    async with asyncio.timeout(10):  # a hang guard only
        while not condition():
            await asyncio.sleep(0)


async def test_a_frame_is_written_within_send_while_the_socket_takes_data() -> None:
    socket = FakeSocket()
    conn = WsConnection(cast(WebSocket, socket))
    for n in range(3):
        conn.send(pong(n))
    assert socket.frames == [text(0), text(1), text(2)]  # nothing awaited: no task switch
    await conn.finish()


async def test_frames_wait_in_order_behind_a_full_socket_and_the_close_comes_last() -> None:
    socket = FakeSocket()
    conn = WsConnection(cast(WebSocket, socket))
    conn.send(pong(1))
    socket.writable.clear()
    for n in (2, 3, 4):
        conn.send(pong(n))
    conn.close(4000)
    conn.send(pong(5))  # after the close: dropped
    await asyncio.sleep(0)
    assert socket.frames == [text(1)] and socket.closed is None
    socket.writable.set()
    await until(lambda: socket.closed is not None)
    assert socket.frames == [text(n) for n in (1, 2, 3, 4)] and socket.closed == 4000


async def test_writes_go_back_to_send_once_the_socket_drained() -> None:
    socket = FakeSocket()
    conn = WsConnection(cast(WebSocket, socket))
    socket.writable.clear()
    conn.send(pong(1))
    conn.send(pong(2))
    socket.writable.set()
    await until(lambda: len(socket.frames) == 2)
    await asyncio.sleep(0)  # the writer task ends
    conn.send(pong(3))
    assert socket.frames == [text(1), text(2), text(3)]
    await conn.finish()


async def test_a_peer_gone_mid_write_closes_the_connection() -> None:
    socket = FakeSocket()
    conn = WsConnection(cast(WebSocket, socket))
    socket.gone = True
    conn.send(pong(1))
    assert conn.closed and socket.frames == []
    conn.send(pong(2))  # closed: not tried again
    assert socket.frames == []
    await conn.finish()


async def test_finishing_drops_what_a_full_socket_still_holds() -> None:
    socket = FakeSocket()
    conn = WsConnection(cast(WebSocket, socket))
    socket.writable.clear()
    conn.send(pong(1))
    conn.send(pong(2))
    await conn.finish()  # the writer, waiting on the socket, is cancelled
    socket.writable.set()
    await asyncio.sleep(0)
    assert socket.frames == [] and conn.closed
