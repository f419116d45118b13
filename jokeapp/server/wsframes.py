"""uvicorn's sans-I/O WebSocket protocol (``websockets``), with a short path for data frames.

uvicorn hands every frame in or out to the ``websockets`` protocol object: a frame sent is
built by ``Frame.serialize`` and read back out of its output buffer, a frame received goes
through its generator-based parser and an event list. Under load that was the largest single
cost of an update (docs/server.md, "The WebSocket protocol"). This subclass keeps all of it for
the handshake, the close, pings and pongs, fragments and every error, and takes a short path
for the frames a game's traffic is made of:

- a server text frame is written as its header and payload in one ``transport.write``
  (``write_frame``, put in the ASGI scope as ``FRAME_WRITER``; ``frame`` builds it once for
  every socket that sends the same update);
- a client's whole, masked, unfragmented text frame is unmasked (``websockets``' C
  ``apply_mask``) and handed to the app's reader (``read_messages``, put in the scope as
  ``MESSAGE_READER``) at once, within ``data_received``: no queue, no wake-up of the app's
  task, no pausing and resuming of the socket's reading per message. Without a reader
  (before the app sets one, e.g. while it authenticates) a message is queued for the ASGI
  ``receive`` as uvicorn does; so is the disconnect, always;
- a client's whole, masked pong (the answer to the keepalive's ping, jokeapp.server.keepalive:
  at a human pace most sockets are silent between their moves and answer one every few
  seconds) is passed over: neither ``websockets`` nor uvicorn does anything with a pong to a
  ping it did not send, and the keepalive counts any frame read as a sign of life.

Anything else (a control frame, a fragment, a frame cut across two reads, a frame too big,
invalid UTF-8, reserved bits) and everything after it in that read go to ``websockets``,
which was left exactly between two frames, so it sees a well-formed stream and answers as
it always did (close codes 1002, 1007, 1009). So does every read while a client's fragmented
message is being received (``websockets``' ``current_size``; its ``expect_continuation_frame``
is about the frames it sends): a whole text frame there is a protocol error (RFC 6455
section 5.4), which it fails with 1002.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a build of websockets without its C extension
    from websockets.utils import apply_mask

# The scope key of ``write_frame`` (jokeapp.server.ws writes its updates through it).
FRAME_WRITER = "jokeapp.write_frame"
# The scope key of ``read_messages`` (jokeapp.server.ws reads a session's messages through it).
MESSAGE_READER = "jokeapp.read_messages"

Reader = Callable[[str | bytes], None]

_TEXT_FIN = 0x81  # FIN, no reserved bits, opcode 1 (text)
_PONG_FIN = 0x8A  # FIN, no reserved bits, opcode 10 (pong)
_CONTROL_MAX = 125  # a control frame's most payload bytes (RFC 6455 section 5.5)
_HEADER_16 = struct.Struct("!BBH")
_HEADER_64 = struct.Struct("!BBQ")


def frame(payload: bytes) -> bytes:
    """A whole server text frame (unmasked, RFC 6455 section 5.2) carrying ``payload``
    (UTF-8)."""
    size = len(payload)
    if size < 126:
        return bytes((_TEXT_FIN, size)) + payload
    if size < 65536:
        return _HEADER_16.pack(_TEXT_FIN, 126, size) + payload
    return _HEADER_64.pack(_TEXT_FIN, 127, size) + payload


def masked_frame(payload: bytes, mask: bytes, first: int = _TEXT_FIN) -> bytes:
    """A whole client frame carrying ``payload``, masked with the four bytes of ``mask`` as a
    client must (RFC 6455 section 5.3): the load generator's (``jokeapp.bench.wsclient``), the
    mirror of ``frame``. ``first``: the frame's first byte (default: FIN, text)."""
    size = len(payload)
    if size < 126:
        head = bytes((first, 0x80 | size))
    elif size < 65536:
        head = _HEADER_16.pack(first, 0x80 | 126, size)
    else:
        head = _HEADER_64.pack(first, 0x80 | 127, size)
    return head + mask + apply_mask(payload, mask)


class FramingProtocol(WebSocketsSansIOProtocol):
    """``ws=`` of uvicorn's Config: see the module's text."""

    _reader: Reader | None = None

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)
        if scope is not None:  # accepted to the app (the app's task has not run yet)
            scope[FRAME_WRITER] = self.write_frame
            scope[MESSAGE_READER] = self.read_messages

    def write_frame(self, data: bytes) -> bool:
        """Writes ``data`` (a whole frame from ``frame``) at once; False, having written
        nothing, when it cannot be written now (the socket's buffer is full, or the socket
        is closing): the caller then sends through the ASGI ``send``, which waits or fails."""
        if (
            self.close_sent
            or self.disconnected
            or not self.handshake_complete
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.conn.extensions  # e.g. per-message deflate: websockets frames those
        ):
            return False
        self.transport.write(data)
        return True

    def read_messages(self, reader: Reader | None) -> None:
        """From now on every message received is handed to ``reader`` (its text, or its bytes
        for a binary one) as it arrives, instead of queued for ``receive``, which then only
        returns the disconnect; the messages already queued go to ``reader`` first, in order.
        None: queued again."""
        self._reader = reader
        if reader is None:
            return
        held = []
        while not self.queue.empty():
            held.append(self.queue.get_nowait())
        for message in held:
            if message["type"] == "websocket.receive":
                got = message.get("text")
                self._hand(reader, got if got is not None else message.get("bytes") or b"")
            else:
                self.queue.put_nowait(message)
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()

    def _hand(self, reader: Reader, message: str | bytes) -> None:
        try:
            reader(message)
        except Exception:  # the app's bug: logged, and the socket reads on
            self.logger.exception("WebSocket message reader failed")

    def send_receive_event_to_app(self) -> None:
        reader = self._reader
        if reader is None or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.curr_msg_data_type != "text":
            self._hand(reader, data)
            return
        try:
            text = data.decode()
        except UnicodeDecodeError:  # as uvicorn does
            self.logger.exception("Invalid UTF-8 sequence received from client.")
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        self._hand(reader, text)

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        if (
            self.close_sent
            or not self.handshake_complete
            or conn.state is not State.OPEN
            or conn.current_size is not None  # a fragmented message being received
            or conn.reader.buffer
        ):
            super().data_received(data)
            return
        end = len(data)
        at = 0
        limit = self.config.ws_max_size
        reader = self._reader
        queued = False
        while at < end:
            first = data[at]
            if end - at < 6 or (first != _TEXT_FIN and first != _PONG_FIN):
                break
            size = data[at + 1]
            if not size & 0x80:
                break  # a client's frame must be masked: websockets closes with 1002
            size &= 0x7F
            start = at + 2
            if first == _PONG_FIN:
                stop = start + 4 + size
                if size > _CONTROL_MAX or stop > end:
                    break  # too long for a control frame (websockets closes with 1002), or cut
                at = stop  # nothing to answer, nothing to hand on
                continue
            if size == 126:
                if end - at < 8:
                    break
                size = (data[start] << 8) | data[start + 1]
                start += 2
            elif size == 127:
                break
            stop = start + 4 + size
            if stop > end or size > limit:
                break
            try:
                text = apply_mask(data[start + 4 : stop], data[start : start + 4]).decode()
            except UnicodeDecodeError:
                break  # websockets and uvicorn close with 1007
            at = stop
            if reader is not None:
                self._hand(reader, text)
                reader = self._reader
                if self.close_sent or reader is None:
                    break  # the rest as uvicorn reads it (discarded once the close is sent)
            else:
                self.queue.put_nowait({"type": "websocket.receive", "text": text})
                queued = True
        if queued and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()
        if at < end:
            super().data_received(data[at:] if at else data)
