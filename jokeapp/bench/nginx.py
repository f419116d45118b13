"""deploy/nginx.conf itself, run unprivileged on a loopback port in front of given nodes: for
the cluster benchmark and for the tests (tests/support/nginx.py adds their skip).

``Nginx(nodes, workdir)`` renders the deployment's config: its own prefix with its own pid
file, logs and temp directories under ``workdir``, a free loopback port to listen on, and the
upstream blocks' servers (``joke_nodes``, ``joke_sockets``) replaced by the given nodes
(each keeping its block's ``max_fails``/``fail_timeout``). ``routing="round-robin"`` leaves
out the deployment's ``hash`` on the room (docs/cluster.md), to measure or test plain round
robin. nginx runs in
the foreground as this user (no root needed: no privileged port, no system path) and is
stopped by its own pid.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal

import httpx

from jokeapp.bench import loopback
from jokeapp.bench.loopback import Loopback, free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_CONF = ROOT / "deploy" / "nginx.conf"
NGINX_PATHS = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")
TEMP_DIRS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
Routing = Literal["hash", "round-robin"]
ROUTINGS: tuple[Routing, ...] = ("hash", "round-robin")


def nginx_binary() -> str | None:
    found = shutil.which("nginx")
    if found:
        return found
    return next((path for path in NGINX_PATHS if os.access(path, os.X_OK)), None)


def render(
    text: str, *, port: int, nodes: Sequence[str], prefix: Path, routing: Routing = "hash"
) -> str:
    """deploy/nginx.conf on a loopback port, for these nodes, every path under ``prefix``."""

    def servers(found: re.Match[str]) -> str:
        block, name = found.group(0), found.group(1)
        first = re.search(r"^\s*server \S+ ([^;]*);", block, re.M)
        assert first, f"no server in `upstream {name}`"
        lines = "".join(f"        server {node} {first.group(1)};\n" for node in nodes)
        block = re.sub(r"^\s*server \S+ [^;]*;\n", "", block, flags=re.M)
        if routing == "round-robin":
            block, hashes = re.subn(r"^\s*hash [^;]*;\n", "", block, flags=re.M)
            assert hashes == 1, f"`upstream {name}` has no `hash` line"
        return block.replace("{\n", "{\n" + lines, 1)

    text, count = re.subn(r"upstream (joke_nodes|joke_sockets) \{.*?\}", servers, text, flags=re.S)
    assert count == 2, "deploy/nginx.conf has no `upstream joke_nodes` and `joke_sockets` blocks"
    assert re.search(r"^\s*listen 80;", text, re.M), "deploy/nginx.conf listens on 80"
    text = re.sub(r"^(\s*)listen 80;", rf"\g<1>listen 127.0.0.1:{port};", text, flags=re.M)
    # as root (a container) the workers stay root to reach these directories; as anyone
    # else nginx ignores `user` and runs as that user
    user = "user root;" if os.geteuid() == 0 else ""
    text = re.sub(r"^user [^;]*;", user, text, flags=re.M)
    text = re.sub(r"^pid [^;]*;", f"pid {prefix}/nginx.pid;", text, flags=re.M)
    text = text.replace("/var/log/nginx/", f"{prefix}/logs/")
    temps = "".join(f"    {name}_temp_path {prefix}/tmp/{name};\n" for name in TEMP_DIRS)
    return text.replace("http {\n", "http {\n" + temps, 1)


class Nginx(Loopback):
    def __init__(
        self,
        nodes: Sequence[str],
        workdir: Path,
        conf: Path = DEPLOY_CONF,
        *,
        routing: Routing = "hash",
        cores: set[int] | None = None,
    ) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx)")
        self.binary = binary
        self.nodes = list(nodes)  # "127.0.0.1:PORT" of each node
        self.prefix = workdir / "nginx"
        self.conf_path = self.prefix / "nginx.conf"
        self.source = conf
        self.routing = routing
        self.cores = cores  # the master and its workers are kept on these cores
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def access_log(self) -> Path:
        return self.prefix / "logs" / "joke-access.log"

    @property
    def error_log(self) -> Path:
        return self.prefix / "logs" / "error.log"

    def start(self) -> None:
        for sub in ("logs", *(f"tmp/{name}" for name in TEMP_DIRS)):
            (self.prefix / sub).mkdir(parents=True, exist_ok=True)
        text = render(
            self.source.read_text(encoding="utf-8"),
            port=self.port,
            nodes=self.nodes,
            prefix=self.prefix,
            routing=self.routing,
        )
        self.conf_path.write_text(text, encoding="utf-8")
        command = [
            self.binary,
            "-p",
            str(self.prefix),
            "-e",
            str(self.error_log),
            "-c",
            str(self.conf_path),
        ]
        checked = subprocess.run(
            [*command, "-t", "-q"], capture_output=True, text=True, check=False
        )
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t: {checked.stderr}")
        log = (self.prefix / "nginx.out").open("ab")
        cores = self.cores
        self.proc = subprocess.Popen(
            [*command, "-g", "daemon off;"],
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.error_log.read_text()[-2000:]}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    def stop(self) -> None:
        """A fast shutdown (SIGTERM) of this nginx master, by its pid."""
        if self.proc is not None:
            loopback.stop([self.proc], wait=10)

    def wait_ready(self, timeout: float = 15) -> None:
        """Until /api/ready through nginx answers 200 (some node is up behind it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/ready", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("no node behind nginx became ready")


@contextlib.contextmanager
def running_nginx(
    nodes: Sequence[str], workdir: Path, *, routing: Routing = "hash", kind: type[Nginx] = Nginx
) -> Iterator[Nginx]:
    """A started ``kind`` (this runner, or a subclass: the tests' skips where nginx is
    missing), stopped after."""
    lb = kind(nodes, workdir, routing=routing)
    lb.start()
    try:
        yield lb
    finally:
        lb.stop()
