"""A server of this machine on a loopback port: a free port to listen on, and the URLs that
reach it (the benchmarks' nodes and nginx, the tests' server processes)."""

from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Loopback:
    """Something listening on ``127.0.0.1:port``."""

    port: int

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        return f"http://{self.address}"

    @property
    def ws_base(self) -> str:
        return f"ws://{self.address}"
