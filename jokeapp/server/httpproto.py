"""``http=`` of uvicorn's Config: uvicorn's httptools protocol, minus the cycle an upgrade
leaves.

uvicorn's HTTP protocol and its ``httptools`` parser hold each other (the parser calls the
protocol's bound methods). When the connection ends, ``connection_lost`` drops the parser; but
when its request is a WebSocket upgrade, the socket is handed to a WebSocket protocol and the
HTTP one is dropped without ever losing its connection: a cycle (the protocol, its parser,
their bound methods, its flow control and event, about 15 objects) that only the cyclic
collector frees. One made before the collector's last young pass had already been frozen
(server/collector.py): it then waited for a full pass, about every other WebSocket measured
at a human pace. Dropping the parser once the socket is handed over lets reference counting
free it at once.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class UpgradingHttp(HttpToolsProtocol):
    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # no more data comes here
