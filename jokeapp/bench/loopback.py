"""A server of this machine on a loopback port: a free port to listen on, and the URLs that
reach it (the benchmarks' nodes and nginx, the tests' server processes)."""

from __future__ import annotations

import signal
import socket
import subprocess
from collections.abc import Iterable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(procs: Iterable[subprocess.Popen[bytes]], wait: float = 15) -> None:
    """SIGTERM to every process still running, then each given ``wait`` seconds to exit before
    it is killed."""
    running = [proc for proc in procs if proc.poll() is None]
    for proc in running:
        proc.send_signal(signal.SIGTERM)
    for proc in running:
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


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
