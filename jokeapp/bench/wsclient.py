"""A lean WebSocket client for the load generator: one asyncio Protocol per socket.

The generator holds thousands of sockets and every update of every room reaches three of
them. Through ``websockets``' asyncio client each message cost a task's wake-up (``recv``
returns a future), its frame parser's generators and an event list, and each action sent a
coroutine and a drain: most of the generator's CPU per action, enough for the generator to
run out of core before the server it measures (issue 11).

This client keeps ``websockets``' sans-I/O ``ClientProtocol`` for everything but the data
frames (the handshake and its checks, pings and pongs, fragments, the close and every
protocol error) and takes the short path the server takes (``jokeapp.server.wsframes``) for
the two frames a game's traffic is made of:

- a server's whole, unmasked text frame is cut out of the bytes read and handed to
  ``on_message`` at once, within ``data_received``; one cut across two reads waits for the
  rest (its head kept here, ``websockets``' reader left between two frames);
- a ping (the server's keepalive, docs/server.md) is answered with its pong at once: at a
  human pace a socket is silent between its moves, so it is pinged about as often as it
  gets an update;
- a message sent is one masked frame (``wsframes.masked_frame``) in one ``transport.write``.

Anything else (a control frame, a fragment, a frame too big, a masked server frame, reserved
bits) and everything after it in that read go to ``websockets``, which then reads on until
it is between two frames again, so it sees a well-formed stream and answers as it always did.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import cast

from websockets.client import ClientProtocol
from websockets.exceptions import InvalidHandshake
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from jokeapp.server.wsframes import masked_frame

MessageHandler = Callable[[bytes], None]  # a whole message's payload (a text's UTF-8)
CloseHandler = Callable[[int | None], None]  # the close code received (None: no close frame)

_TEXT_FIN = 0x81  # FIN, no reserved bits, opcode 1 (text)
_PING_FIN = 0x89  # FIN, opcode 9 (ping)
_PONG_FIN = 0x8A  # FIN, opcode 10 (pong)


def _ignore_close(code: int | None) -> None:
    pass


class Socket(asyncio.Protocol):
    """One client WebSocket (see the module's text); made by ``connect``."""

    def __init__(
        self,
        url: str,
        on_message: MessageHandler,
        on_close: CloseHandler = _ignore_close,
        max_size: int = 2**20,
    ) -> None:
        self.conn = ClientProtocol(parse_uri(url), max_size=max_size)
        self.on_message = on_message
        self.on_close = on_close
        self.max_size = max_size
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()  # the handshake's outcome
        self.closed: asyncio.Future[int | None] = loop.create_future()  # the close code
        self._head = b""  # the start of a data frame cut at the end of the last read
        self._fragments: list[bytes] = []  # a fragmented message's parts, from websockets

    # --- asyncio.Protocol ---

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.conn.send_request(self.conn.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        if self._head:
            data = self._head + data
            self._head = b""
        elif conn.state is not State.OPEN or conn.reader.buffer or conn.current_size is not None:
            self._slow(data)  # the handshake, or websockets reading a frame of its own
            return
        end = len(data)
        at = 0
        deliver = self.on_message
        while at < end:
            first = data[at]
            if end - at < 2:
                if first in (_TEXT_FIN, _PING_FIN):
                    self._head = data[at:]
                    return
                break
            size = data[at + 1]
            if size & 0x80:
                break  # a server's frame must not be masked: websockets fails with 1002
            start = at + 2
            if first == _PING_FIN and size < 126:
                # the server's keepalive (every socket silent for a few seconds): the pong,
                # as websockets would answer it, without its parser
                stop = start + size
                if stop > end:
                    self._head = data[at:]
                    return
                self._pong(data[start:stop])
                at = stop
                continue
            if first != _TEXT_FIN:
                break  # another control frame, a fragment, reserved bits: websockets'
            if size >= 126:
                extra = 2 if size == 126 else 8
                if end - start < extra:
                    self._head = data[at:]
                    return
                size = int.from_bytes(data[start : start + extra], "big")
                start += extra
            if size > self.max_size:
                break  # websockets fails with 1009
            stop = start + size
            if stop > end:
                self._head = data[at:]
                return
            deliver(data[start:stop])
            at = stop
            if conn.state is not State.OPEN:
                return  # closed by the handler: the rest is discarded
        if at < end:
            self._slow(data[at:] if at else data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn.receive_eof()
        self.conn.events_received()
        close = self.conn.close_rcvd
        code = close.code if close is not None else None
        if not self.opened.done():
            self.opened.set_exception(
                self.conn.handshake_exc
                or ConnectionResetError("the connection closed during the WebSocket handshake")
            )
        if not self.closed.done():
            self.closed.set_result(code)
            self.on_close(code)

    # --- sending ---

    def _pong(self, payload: bytes) -> None:
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.write(masked_frame(payload, os.urandom(4), _PONG_FIN))

    def send(self, payload: bytes) -> bool:
        """Sends one text message (UTF-8); False, sending nothing, once the socket closes."""
        transport = self.transport
        if self.conn.state is not State.OPEN or transport is None or transport.is_closing():
            return False
        transport.write(masked_frame(payload, os.urandom(4)))
        return True

    async def close(self, timeout: float = 10.0) -> None:
        """The closing handshake (1000); the connection is dropped if it takes ``timeout``."""
        if self.conn.state is State.OPEN:
            self.conn.send_close(1000)
            self._flush()
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        except TimeoutError:
            if self.transport is not None:
                self.transport.abort()

    # --- websockets' part ---

    def _slow(self, data: bytes) -> None:
        conn = self.conn
        conn.receive_data(data)
        for event in conn.events_received():
            if isinstance(event, Response):
                if conn.handshake_exc is not None:
                    self.opened.set_exception(conn.handshake_exc)
                else:
                    self.opened.set_result(None)
            elif isinstance(event, Frame):
                self._frame(event)
        self._flush()

    def _frame(self, frame: Frame) -> None:
        if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
            if frame.fin:
                self.on_message(bytes(frame.data))
            else:
                self._fragments = [bytes(frame.data)]
        elif frame.opcode is Opcode.CONT:
            self._fragments.append(bytes(frame.data))
            if frame.fin:
                message, self._fragments = b"".join(self._fragments), []
                self.on_message(message)
        # pings are answered, closes echoed by websockets itself (its writes, flushed next)

    def _flush(self) -> None:
        transport = self.transport
        if transport is None:
            return
        for data in self.conn.data_to_send():
            if data:
                transport.write(data)
            else:  # websockets' end of stream: after a failure, or the server's close
                transport.close()


async def connect(
    url: str,
    on_message: MessageHandler,
    on_close: CloseHandler = _ignore_close,
    *,
    max_size: int = 2**20,
    timeout: float = 120.0,
) -> Socket:
    """A ``Socket`` to ``url`` (ws://host:port/path), open: its handshake done, within
    ``timeout`` seconds. Raises ``OSError`` or ``websockets.exceptions.InvalidHandshake``
    (e.g. ``InvalidStatus``) when it cannot open, ``TimeoutError`` when it takes too long."""
    loop = asyncio.get_running_loop()
    uri = parse_uri(url)
    if uri.secure:
        raise ValueError("wss:// is not supported: the load generator speaks to loopback")
    socket = Socket(url, on_message, on_close, max_size)
    async with asyncio.timeout(timeout):
        await loop.create_connection(lambda: socket, uri.host, uri.port)
        try:
            await socket.opened
        except BaseException:
            if socket.transport is not None:
                socket.transport.abort()
            raise
    return socket


__all__ = ["CloseHandler", "InvalidHandshake", "MessageHandler", "Socket", "connect"]
