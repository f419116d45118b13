"""The load generator's WebSocket client (jokeapp.bench.wsclient): its short path for data
frames and pings and what it leaves to ``websockets`` read alike; and against the real server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.frames import Close, Frame, Opcode
from websockets.utils import accept_key

from jokeapp.bench import wsclient
from jokeapp.server.wsframes import frame
from tests.server.harness import ServerProcess

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask


class FakeTransport:
    """Records what the client writes; ``closed`` once it closes."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


def client_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The client's frames in ``data``: (first byte, unmasked payload); each must be masked."""
    out = []
    at = 0
    while at < len(data):
        first, size = data[at], data[at + 1]
        assert size & 0x80, "a client's frames are masked"
        size &= 0x7F
        at += 2
        if size == 126:
            size = int.from_bytes(data[at : at + 2], "big")
            at += 2
        elif size == 127:
            size = int.from_bytes(data[at : at + 8], "big")
            at += 8
        mask = data[at : at + 4]
        at += 4
        out.append((first, apply_mask(data[at : at + size], mask)))
        at += size
    return out


def opened(got: list[bytes], closes: list[int | None]) -> tuple[wsclient.Socket, FakeTransport]:
    """A client past its handshake (the server's 101 fed to it), its request checked."""
    sock = wsclient.Socket("ws://127.0.0.1:1/ws/room", got.append, closes.append, max_size=2**20)
    transport = FakeTransport()
    sock.connection_made(transport)  # type: ignore[arg-type]
    request = bytes(transport.written)
    assert request.startswith(b"GET /ws/room HTTP/1.1\r\n")
    transport.written.clear()
    sock.data_received(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: " + accept_key(sock.conn.key).encode() + b"\r\n\r\n"
    )
    assert sock.opened.done() and sock.opened.exception() is None
    return sock, transport


def test_data_frames_of_every_length_arrive_whole_however_the_reads_cut_them() -> None:
    async def main() -> None:
        got: list[bytes] = []
        sock, transport = opened(got, [])
        payloads = [b"", b"x" * 125, b'{"a":1}' * 30, "가".encode() * 30_000]  # 7-, 16-, 64-bit
        stream = b"".join(frame(p) for p in payloads)
        sock.data_received(stream)  # all in one read
        assert got == payloads
        got.clear()
        for i in range(len(stream)):  # one byte per read
            sock.data_received(stream[i : i + 1])
        assert got == payloads
        got.clear()
        cut = len(frame(payloads[0])) + 3  # a frame's head cut between two reads
        sock.data_received(stream[:cut])
        sock.data_received(stream[cut:])
        assert got == payloads and not transport.written

    asyncio.run(main())


def test_pings_are_answered_in_order_and_other_frames_go_through_websockets() -> None:
    async def main() -> None:
        got: list[bytes] = []
        sock, transport = opened(got, [])
        ping = b"\x89\x00"
        ping_data = b"\x89\x03abc"
        fragmented = Frame(Opcode.TEXT, b"hel", fin=False).serialize(
            mask=False, extensions=[]
        ) + Frame(Opcode.CONT, b"lo", fin=True).serialize(mask=False, extensions=[])
        sock.data_received(frame(b"1") + ping + frame(b"2") + ping_data + fragmented + frame(b"3"))
        sock.data_received(ping[:1])  # a ping cut between two reads
        sock.data_received(ping[1:])
        assert got == [b"1", b"2", b"hello", b"3"]
        pongs = client_frames(bytes(transport.written))
        assert pongs == [(0x8A, b""), (0x8A, b"abc"), (0x8A, b"")]

    asyncio.run(main())


def test_sent_messages_are_masked_text_frames() -> None:
    async def main() -> None:
        sock, transport = opened([], [])
        messages = [b"{}", "짧은 말".encode() * 10, b"y" * 70_000]
        for message in messages:
            assert sock.send(message)
        assert client_frames(bytes(transport.written)) == [(0x81, m) for m in messages]

    asyncio.run(main())


def test_a_close_is_echoed_and_its_code_reported_once_the_connection_ends() -> None:
    async def main() -> None:
        closes: list[int | None] = []
        sock, transport = opened([], closes)
        close = Frame(Opcode.CLOSE, Close(4000, "moved").serialize())
        sock.data_received(close.serialize(mask=False, extensions=[]) + frame(b"late"))
        echoed = client_frames(bytes(transport.written))
        assert [first for first, _ in echoed] == [0x88]  # the close, echoed
        assert not sock.send(b"after the close")  # nothing goes out any more
        sock.connection_lost(None)
        assert closes == [4000] and sock.closed.result() == 4000

    asyncio.run(main())


def test_a_connection_dropped_without_a_close_reports_none() -> None:
    async def main() -> None:
        closes: list[int | None] = []
        sock, _ = opened([], closes)
        sock.connection_lost(ConnectionResetError())
        assert closes == [None]

    asyncio.run(main())


def test_a_masked_server_frame_fails_the_connection_with_1002() -> None:
    async def main() -> None:
        got: list[bytes] = []
        sock, transport = opened(got, [])
        sock.data_received(Frame(Opcode.TEXT, b"hi").serialize(mask=True, extensions=[]))
        assert not got
        (close,) = client_frames(bytes(transport.written))
        assert close[0] == 0x88 and Close.parse(close[1]).code == 1002
        assert not sock.send(b"after the failure")  # the server then closes the connection

    asyncio.run(main())


def test_against_the_real_server_auth_snapshot_and_a_refused_action(tmp_path: Any) -> None:
    server = ServerProcess(str(tmp_path / "ws.sqlite3"))
    server.start()

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base) as http:
            room = (await http.post("/api/rooms", json={"game": "marble", "nickname": "p1"})).json()
        got: list[dict[str, Any]] = []
        arrived = asyncio.Event()

        def on(data: bytes) -> None:
            got.append(json.loads(data))
            arrived.set()

        url = f"{server.ws_base}/ws/{room['roomId']}"
        sock = await wsclient.connect(url, on, max_size=2**22, timeout=60)
        assert sock.send(json.dumps({"type": "auth", "token": room["token"]}).encode())
        async with asyncio.timeout(30):  # a hang guard only
            while not any(m["type"] == "snapshot" for m in got):
                arrived.clear()
                await arrived.wait()
            # the room has not started: the action is refused, answering its clientSeq
            action = {"type": "action", "clientSeq": 1, "action": {"type": "ROLL"}}
            assert sock.send(json.dumps(action).encode() + b" " * 200)  # a 16-bit length
            while not any(m["type"] == "error" for m in got):
                arrived.clear()
                await arrived.wait()
        (error,) = [m for m in got if m["type"] == "error"]
        assert error["clientSeq"] == 1
        await sock.close()
        assert sock.closed.result() == 1000

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_a_refused_handshake_raises() -> None:
    async def main() -> None:
        from websockets.exceptions import InvalidHandshake

        server = await asyncio.start_server(_http_404, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            await wsclient.connect(f"ws://127.0.0.1:{port}/x", lambda _: None, timeout=30)
        except InvalidHandshake:
            pass
        else:
            raise AssertionError("a 404 opened a socket")
        finally:
            server.close()

    asyncio.run(main())


async def _http_404(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    await writer.drain()
    writer.close()
