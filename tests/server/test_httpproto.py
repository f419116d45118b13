"""The HTTP protocol of a WebSocket's handshake is freed by reference counting once the
socket is handed over (server/httpproto.py), not left as a cycle for the collector."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from jokeapp.server.httpproto import UpgradingHttp

HANDSHAKE = (
    b"GET /ws/r1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _never(scope: Any, receive: Any, send: Any) -> None:
    await asyncio.Event().wait()


async def test_upgraded_http_protocol_is_freed_without_the_collector() -> None:
    config = uvicorn.Config(_never, ws=WebSocketsSansIOProtocol, log_config=None)
    config.load()
    transport = _Transport()
    http = UpgradingHttp(config=config, server_state=ServerState(), app_state={})
    gone = weakref.ref(http)
    gc.disable()
    try:
        http.connection_made(transport)
        transport.set_protocol(http)
        http.data_received(HANDSHAKE)
        assert isinstance(transport.protocol, WebSocketsSansIOProtocol)  # handed over
        del http
        assert gone() is None
    finally:
        gc.enable()
        transport.protocol.connection_lost(None)
        await asyncio.sleep(0)
