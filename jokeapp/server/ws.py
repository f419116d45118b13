"""The WebSocket session of one person: the `auth` message first, reading with limits, ordered
sending."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator
from types import CoroutineType
from typing import Any

import msgspec
from starlette.types import Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from jokeapp.cluster.forward import FORWARDED, Forwarder
from jokeapp.cluster.node import ClusterNode
from jokeapp.core.codes import CLOSE_BY_CODE, CLOSE_INTERNAL, CLOSE_RECONNECT, CLOSE_SLOW
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.errors import RoomError, error_frame
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.room import Room
from jokeapp.server.middleware import RAW_SEND
from jokeapp.server.settings import Settings
from jokeapp.server.wsframes import FRAME_WRITER, MESSAGE_READER, frame
from jokeapp.telemetry.metrics import Metrics
from jokeapp.wire import protocol as p

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 2000  # a client this far behind is not reading: drop it, it can reconnect
MOVE_WAIT = 15.0  # seconds a relayed socket waits for its room to find a new owner
MOVE_POLL = 0.25  # seconds between two looks for the room's new owner


class TokenBucket:
    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


_last_encoded: tuple[object, bytes, bytes] = (None, b"", b"")


def _encoded(message: p.ServerMessage) -> tuple[bytes, bytes]:
    """The frame's JSON and the whole frame (wsframes.frame). A room hands the very same update
    object to every connection that sees it alike (rooms.messages.publish), one after the
    other: encoded and framed once for all."""
    global _last_encoded
    last = _last_encoded[0]
    if last is message:
        return _last_encoded[1], _last_encoded[2]
    if type(message) is p.UpdateMessage and message.ack is not None and _acks(message, last):
        assert isinstance(last, p.UpdateMessage)
        payload = p.encode_acked(_last_encoded[1], last, message.ack)
    else:
        payload = p.encode(message)
    framed = frame(payload)
    _last_encoded = (message, payload, framed)  # holding it: its id cannot be reused meanwhile
    return payload, framed


def _acks(message: p.UpdateMessage, last: object) -> bool:
    """``message`` is ``last`` with an ``ack`` (publish's ``replace``: the very same parts), so
    its encoding is spliced from ``last``'s (protocol.encode_acked)."""
    return (
        type(last) is p.UpdateMessage
        and last.ack is None
        and last.seq == message.seq
        and last.events is message.events
        and last.pending is message.pending
        and last.view is message.view
        and last.room is message.room
        and last.patch is message.patch
        and last.actor == message.actor
        and last.auto == message.auto
    )


class _Resume:
    """Awaiting it waits for ``waiting``, then runs ``coro`` to its end: a coroutine started
    by hand (``coro.send(None)``) that suspended on ``waiting`` instead of finishing."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.coro = coro
        self.waiting = waiting

    def __await__(self) -> Generator[Any, None, None]:
        try:
            yield self.waiting  # a Future (or None), handled by the task as the coroutine's own
        except BaseException:
            self.coro.close()  # cancelled while it waited
            raise
        yield from self.coro.__await__()


class WsConnection:
    """What a room sees of a socket: ``send`` writes at once, in order.

    A frame is written within ``send`` itself, so an update costs no task switch per
    connection: through the protocol's ``write_frame`` (``FRAME_WRITER`` in the scope,
    jokeapp.server.wsframes), or else the server's send coroutine, run by hand, which finishes
    without waiting while the socket takes data. Only when the socket's buffer is full does
    it have to wait; then a writer task finishes that frame and writes the ones queued behind
    it, and ``send`` queues until it is done. Data frames go to the server's own ``send``
    (``RAW_SEND``, put in the scope by the outermost middleware): the layers between only
    act on the accept, the close and HTTP responses.
    """

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        raw: Send | None = websocket.scope.get(RAW_SEND)
        self._send_frame: Send = raw if raw is not None else websocket.send
        self._write: Callable[[bytes], bool] | None = websocket.scope.get(FRAME_WRITER)
        self._backlog: deque[str | int] = deque()  # behind a frame the socket could not take
        self._writer: asyncio.Task[None] | None = None
        self.closed = False

    def send(self, message: p.ServerMessage) -> None:
        if self.closed:
            return
        payload, framed = _encoded(message)
        if self._writer is not None:
            if len(self._backlog) >= OUTBOX_LIMIT:
                self.close(CLOSE_SLOW)
                return
            self._backlog.append(payload.decode())
            return
        if self._write is not None and self._write(framed):
            return  # written
        sending = self._send_frame({"type": "websocket.send", "text": payload.decode()})
        if type(sending) is CoroutineType:
            try:
                waiting = sending.send(None)
            except StopIteration:
                return  # written
            except Exception:
                self.closed = True  # the peer went away; the reader will notice too
                return
            sending = _Resume(sending, waiting)
        self._writer = asyncio.get_running_loop().create_task(self._write_loop(sending))

    def close(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            self._backlog.append(code)
            if self._writer is None:
                self._writer = asyncio.get_running_loop().create_task(self._write_loop(None))

    async def _write_loop(self, first: Awaitable[None] | None) -> None:
        try:
            if first is not None:
                await first
            while self._backlog:
                item = self._backlog.popleft()
                if isinstance(item, int):
                    await self.websocket.close(item)
                    return
                await self._send_frame({"type": "websocket.send", "text": item})
        except Exception:
            self.closed = True  # the peer went away; the reader will notice too
        finally:
            self._writer = None

    async def finish(self) -> None:
        self.closed = True
        writer = self._writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


_UNREADABLE = object()


def _lenient(text: str) -> Any:
    """The frame's JSON, or _UNREADABLE."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return _UNREADABLE


def _client_seq(raw: Any) -> int | None:
    """The frame's ``clientSeq`` if it has an integer one, whatever else is wrong with it."""
    seq = raw.get("clientSeq") if isinstance(raw, dict) else None
    return seq if type(seq) is int else None


_DECODER = msgspec.json.Decoder(p.ClientMessage)


def _decoded(text: str) -> p.ClientMessage | p.ErrorMessage:
    """The message, or the error to answer with. A well-formed message is decoded straight
    from its text (msgspec, its type's decoder built once); any other is looked at again by
    ``_parse`` to tell why it was refused and which clientSeq it had."""
    try:
        message = _DECODER.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):
        raw = _lenient(text)
        return _parse(raw, _client_seq(raw))
    if isinstance(message, p.ActionMessage) and not 1 <= message.client_seq < 2**31:
        return error_frame("invalid_message", message.client_seq)
    return message


def _parse(raw: Any, seq: int | None) -> p.ClientMessage | p.ErrorMessage:
    """The message, or the error to answer with."""
    if raw is _UNREADABLE:
        return error_frame("bad_json")
    if not isinstance(raw, dict):
        return error_frame("invalid_message")
    if raw.get("type") not in p.CLIENT_TYPES:
        return error_frame("unknown_type", seq)
    try:
        message: p.ClientMessage = msgspec.convert(raw, p.ClientMessage)
    except msgspec.ValidationError:
        return error_frame("invalid_message", seq)
    if isinstance(message, p.ActionMessage) and not 1 <= message.client_seq < 2**31:
        return error_frame("invalid_message", seq)
    return message


async def _authenticate(websocket: WebSocket, seconds: float) -> tuple[str, str] | None:
    """The token of the first message (``auth``) and that message (a relay sends it on to the
    room's owner), or None after closing the socket: no message within ``seconds``, or a first
    message that is not ``auth``."""
    try:
        async with asyncio.timeout(seconds):
            frame = await websocket.receive()
    except TimeoutError:
        frame = None
    if frame is not None and frame["type"] == "websocket.disconnect":
        return None
    if frame is not None:
        text = frame.get("text")
        if text is None:
            text = (frame.get("bytes") or b"").decode("utf-8", errors="replace")
        raw = _lenient(text) if len(text) <= p.MAX_MESSAGE_BYTES else _UNREADABLE
        if isinstance(raw, dict) and raw.get("type") == "auth":
            try:
                return msgspec.convert(raw, p.AuthMessage).token, text
            except msgspec.ValidationError:
                pass
    await websocket.send_text(p.encode(error_frame("auth_required")).decode())
    await websocket.close(CLOSE_BY_CODE["auth_required"])
    return None


async def websocket_endpoint(websocket: WebSocket) -> None:
    metrics: Metrics = websocket.app.state.metrics
    metrics.connections.inc()
    try:
        await _session(websocket)
    finally:
        metrics.connections.dec()


async def _session(websocket: WebSocket) -> None:
    manager: RoomManager = websocket.app.state.manager
    settings: Settings = websocket.app.state.settings
    metrics: Metrics = websocket.app.state.metrics
    cluster: ClusterNode | None = websocket.app.state.cluster
    await websocket.accept()
    try:
        auth = await _authenticate(websocket, settings.auth_seconds)
    except (WebSocketDisconnect, RuntimeError, OSError):  # gone before it authenticated
        return
    if auth is None:
        return
    token, auth_frame = auth
    pending: list[str | bytes] = []  # frames read while no room answered (relayed sockets)
    if cluster is not None and FORWARDED not in websocket.headers:
        found = await _find_in_cluster(websocket, cluster, pending, auth_frame)
        if found is None:
            return
        room = found
    else:
        try:
            room = await manager.get(websocket.path_params["ref"])
        except RoomError as exc:
            code = "room_moving" if exc.code == "room_moving" else "bad_token"
            await websocket.send_text(p.encode(error_frame(code)).decode())
            await websocket.close(CLOSE_BY_CODE[code])
            return
    origin = None
    if cluster is not None:  # who this socket came through: its room follows the most of them
        origin = websocket.headers.get(FORWARDED, cluster.name)
    await _play(websocket, room, settings, metrics, token, pending, (cluster, origin))


async def _find_in_cluster(
    websocket: WebSocket, cluster: ClusterNode, pending: list[str | bytes], auth_frame: str
) -> Room | None:
    """The room if it runs here; else relays the socket to its owner (its `auth` first), again
    to the next owner each time one goes away, until the client leaves (None)."""
    forwarder: Forwarder = websocket.app.state.forwarder
    ref = websocket.path_params["ref"]
    give_up = time.monotonic() + MOVE_WAIT
    hurry = False  # the owner just closed: look again at once (it was handed over, likely here)
    while not cluster.stopping:
        try:
            where = await cluster.locate(ref)
        except RoomError as exc:
            if exc.code != "room_moving":
                await websocket.send_text(p.encode(error_frame("bad_token")).decode())
                await websocket.close(CLOSE_BY_CODE["bad_token"])
                return None
        else:
            if isinstance(where, Room):
                return where
            relayed = websocket.app.state.metrics.relayed
            relayed.inc()
            try:
                with cluster.watching(where.node) as gone:  # a frozen owner: move on at once
                    done = await forwarder.relay(
                        websocket, where.url, pending, opening=(auth_frame,), gone=gone
                    )
            finally:
                relayed.dec()
            if done:
                return None
            give_up = time.monotonic() + MOVE_WAIT  # it was reachable: wait for its successor
            hurry = not hurry
            if hurry:
                continue
        if time.monotonic() > give_up:
            break
        await asyncio.sleep(MOVE_POLL)  # between owners: a dead owner's lease expires soon
    with contextlib.suppress(Exception):
        await websocket.send_text(p.encode(error_frame("room_moving")).decode())
        await websocket.close(CLOSE_RECONNECT)
    return None


async def _play(
    websocket: WebSocket,
    room: Room,
    settings: Settings,
    metrics: Metrics,
    token: str,
    pending: list[str | bytes],
    via: tuple[ClusterNode | None, str | None] = (None, None),
) -> None:
    conn = WsConnection(websocket)
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
    refused = metrics.frames_refused
    cluster, origin = via
    attached = False

    def on_message(item: str | bytes) -> None:
        """One message of the client's, as it arrives: refused, answered, or posted to the
        room (never awaited: a room's commands queue in order)."""
        if conn.closed:
            return
        text = item if isinstance(item, str) else item.decode("utf-8", errors="replace")
        received = time.perf_counter()
        if not bucket.take():
            refused.labels("rate_limited").inc()
            conn.send(error_frame("rate_limited", _client_seq(_lenient(text))))
            return
        if len(text) > p.MAX_MESSAGE_BYTES // 4 and len(text.encode()) > p.MAX_MESSAGE_BYTES:
            refused.labels("too_large").inc()
            conn.send(error_frame("too_large", _client_seq(_lenient(text))))
            return
        message = _decoded(text)
        if isinstance(message, p.ErrorMessage):
            refused.labels(message.code).inc()
            conn.send(message)
        elif isinstance(message, p.PingMessage):
            conn.send(p.PongMessage(server_time=int(time.time() * 1000)))
        elif isinstance(message, p.ResyncMessage):
            room.post(cmd.Resync(conn))
        elif isinstance(message, p.AuthMessage):
            refused.labels("invalid_message").inc()  # authenticated once, at the start
            conn.send(error_frame("invalid_message", _client_seq(_lenient(text))))
        else:
            room.post(cmd.ClientAction(conn, message.client_seq, message.action, received))

    # the protocol's reader (jokeapp.server.wsframes): each message handled within the read
    # that brings it, in this task's context (its request id); else read one by one here
    listen: Callable[[Callable[[str | bytes], None] | None], None] | None = websocket.scope.get(
        MESSAGE_READER
    )
    try:
        try:
            await room.call(cmd.Connect(conn, token))
        except RoomError as exc:  # the room failed on it (and logged why): tell, and close
            conn.send(error_frame(exc))
            conn.close(CLOSE_INTERNAL)
        if cluster is not None and origin is not None and not conn.closed:
            cluster.attach(room.room_id, origin)
            attached = True
        while pending and not conn.closed:
            on_message(pending.pop(0))
        if listen is not None and not conn.closed:
            run: Any = contextvars.copy_context().run
            listen(functools.partial(run, on_message))
        while not conn.closed:
            frame = await websocket.receive()  # with a reader, only the disconnect comes here
            if frame["type"] == "websocket.disconnect":
                break
            got: str | None = frame.get("text")
            on_message(got if got is not None else frame.get("bytes") or b"")
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if listen is not None:
            listen(None)
        if attached and cluster is not None and origin is not None:
            cluster.detach(room.room_id, origin)
        room.post(cmd.Disconnect(conn))
        await asyncio.sleep(0)
        await conn.finish()
