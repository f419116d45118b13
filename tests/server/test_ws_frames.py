"""WebSocket frames as a raw socket sends them: the server's short path for whole text frames
(jokeapp.server.wsframes) and everything it leaves to ``websockets`` read alike, in order."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
from typing import Any

from jokeapp.server.wsframes import frame
from tests.server.harness import Api, ServerProcess, masked_text_frame


def client_frame(opcode: int, payload: bytes, *, fin: bool = True, masked: bool = True) -> bytes:
    """One client frame of any kind (payloads under 126 bytes)."""
    assert len(payload) < 126
    head = bytes([(0x80 if fin else 0) | opcode, (0x80 if masked else 0) | len(payload)])
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawSocket:
    """A WebSocket spoken by hand: what goes out is exactly the bytes given."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, server: ServerProcess, room_id: str, token: str) -> RawSocket:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        writer.write(
            f"GET /ws/{room_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101")
        raw = cls(reader, writer)
        await raw.write(masked_text_frame(json.dumps({"type": "auth", "token": token})))
        opcode, data = await raw.next_frame()
        assert opcode == 1 and json.loads(data)["type"] == "snapshot"
        return raw

    async def write(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def next_frame(self) -> tuple[int, bytes]:
        """The next frame but the server's keepalive pings: (opcode, payload)."""
        async with asyncio.timeout(30):  # a hang guard only
            while True:
                b0, b1 = await self.reader.readexactly(2)
                assert not b1 & 0x80, "a server's frames are not masked"
                size = b1 & 0x7F
                if size == 126:
                    size = int.from_bytes(await self.reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await self.reader.readexactly(8), "big")
                data = await self.reader.readexactly(size)
                assert b0 & 0x80, "the server sends no fragments"
                if b0 & 0x0F != 0x9:
                    return b0 & 0x0F, data

    async def next_message(self) -> dict[str, Any]:
        opcode, data = await self.next_frame()
        assert opcode == 1, opcode
        message: dict[str, Any] = json.loads(data)
        return message

    async def close_code(self) -> int:
        """The code of the server's close frame (after any messages before it)."""
        while True:
            opcode, data = await self.next_frame()
            if opcode == 0x8:
                return int.from_bytes(data[:2], "big")

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


async def _socket(server: ServerProcess, api: Api) -> RawSocket:
    created = await api.create("race", "a")
    return await RawSocket.open(server, created["roomId"], created["token"])


def _ping() -> bytes:
    return masked_text_frame(json.dumps({"type": "ping"}))


def _unknown(pad: int) -> bytes:
    """A message the server refuses as unknown_type; ``pad`` makes it long (126+: the
    frame's 16-bit length)."""
    return masked_text_frame(json.dumps({"type": "nope", "pad": "가" * pad}))


async def test_messages_in_one_read_are_each_answered_in_order(
    server: ServerProcess, api: Api
) -> None:
    raw = await _socket(server, api)
    await raw.write(_ping() + _unknown(100) + _ping() + _unknown(0))
    kinds = [(await raw.next_message()).get("code", "pong") for _ in range(4)]
    assert kinds == ["pong", "unknown_type", "pong", "unknown_type"]
    await raw.close()


async def test_a_message_cut_across_reads_and_a_fragmented_one_are_read_whole(
    server: ServerProcess, api: Api
) -> None:
    raw = await _socket(server, api)
    whole = _unknown(100)
    await raw.write(_ping() + whole[:5])  # its header cut in two
    await asyncio.sleep(0.05)  # most likely two reads for the server (either way, one answer)
    await raw.write(whole[5:])
    assert (await raw.next_message())["type"] == "pong"
    assert (await raw.next_message())["code"] == "unknown_type"
    text = json.dumps({"type": "ping"}).encode()
    await raw.write(
        client_frame(0x1, text[:4], fin=False) + client_frame(0x0, text[4:]) + _unknown(0)
    )
    assert (await raw.next_message())["type"] == "pong"
    assert (await raw.next_message())["code"] == "unknown_type"
    await raw.write(_ping())  # after the fragments, whole frames again
    assert (await raw.next_message())["type"] == "pong"
    await raw.close()


async def _first_fragment_read(raw: RawSocket, text: bytes) -> None:
    """Sends ``text``'s first fragment (FIN 0) and a ping, and waits for the ping's pong: the
    server has then read the fragment, and whatever comes next is a read of its own."""
    await raw.write(client_frame(0x1, text[:4], fin=False) + client_frame(0x9, b"mid"))
    assert await raw.next_frame() == (0xA, b"mid")  # a control frame between fragments


async def test_a_fragmented_message_with_a_ping_between_its_reads_is_read_whole(
    server: ServerProcess, api: Api
) -> None:
    raw = await _socket(server, api)
    text = json.dumps({"type": "ping"}).encode()
    await _first_fragment_read(raw, text)
    await raw.write(client_frame(0x0, text[4:]))
    assert (await raw.next_message())["type"] == "pong"
    await raw.write(_ping())  # after the fragments, whole frames again
    assert (await raw.next_message())["type"] == "pong"
    await raw.close()


async def test_a_whole_text_frame_inside_a_fragmented_message_closes_with_1002(
    server: ServerProcess, api: Api
) -> None:
    # RFC 6455 section 5.4: a fragmented message's fragments are not interleaved with
    # another message's data frames; the server fails the connection, reads no message
    raw = await _socket(server, api)
    await _first_fragment_read(raw, json.dumps({"type": "ping"}).encode())
    await raw.write(_ping())
    opcode, data = await raw.next_frame()
    assert (opcode, int.from_bytes(data[:2], "big")) == (0x8, 1002)
    await raw.close()


async def test_a_client_ping_between_messages_gets_its_pong_and_both_messages_are_answered(
    server: ServerProcess, api: Api
) -> None:
    raw = await _socket(server, api)
    await raw.write(_ping() + client_frame(0x9, b"hi") + _unknown(0))
    # a control frame is answered as it is read, maybe before messages queued ahead of it
    got = [await raw.next_frame() for _ in range(3)]
    assert (0xA, b"hi") in got
    replies = [json.loads(data) for opcode, data in got if opcode == 0x1]
    assert [m.get("code", m["type"]) for m in replies] == ["pong", "unknown_type"]
    await raw.close()


async def test_pongs_between_messages_are_passed_over_and_a_bad_one_closes_with_1002(
    server: ServerProcess, api: Api
) -> None:
    raw = await _socket(server, api)
    pong = client_frame(0xA, b"")
    await raw.write(pong + _ping() + client_frame(0xA, b"x" * 125) + _unknown(0) + pong)
    assert (await raw.next_message())["type"] == "pong"  # the app's answer to its ping
    assert (await raw.next_message())["code"] == "unknown_type"
    await raw.write(_ping())
    assert (await raw.next_message())["type"] == "pong"
    await raw.write(client_frame(0xA, b"", masked=False))  # a client's frame must be masked
    assert await raw.close_code() == 1002
    await raw.close()


async def test_invalid_utf8_closes_with_1007_and_an_unmasked_frame_with_1002(
    server: ServerProcess, api: Api
) -> None:
    raw = await _socket(server, api)
    await raw.write(_ping() + client_frame(0x1, b'{"type":"\xff"}'))
    assert await raw.close_code() == 1007  # after the pong, or before it if not yet read
    await raw.close()
    raw = await _socket(server, api)
    await raw.write(client_frame(0x1, json.dumps({"type": "ping"}).encode(), masked=False))
    assert await raw.close_code() == 1002
    await raw.close()


def test_a_frame_is_header_and_payload_by_rfc_6455() -> None:
    assert frame(b"ab") == b"\x81\x02ab"
    assert frame(b"x" * 126)[:4] == b"\x81\x7e\x00\x7e"
    assert frame(b"x" * 65536)[:10] == b"\x81\x7f" + (65536).to_bytes(8, "big")
    assert len(frame(b"x" * 65536)) == 10 + 65536
