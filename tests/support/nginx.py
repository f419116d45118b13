"""A real nginx in front of real `joke serve` nodes, running deploy/nginx.conf itself: the
shared runner (jokeapp/bench/nginx.py, which the cluster benchmark uses too) with the tests'
skip where nginx is missing.

The cluster tests reuse it: ``with running_nginx(nodes, tmp_path) as lb: lb.base`` …
(``routing="round-robin"`` leaves out the deployment's hash on the room). Tests skip, with the
reason shown, where nginx is not installed (``make test`` installs it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from jokeapp.bench import nginx as runner
from jokeapp.bench.nginx import DEPLOY_CONF, Routing, free_port, nginx_binary, render

__all__ = ["DEPLOY_CONF", "Nginx", "free_port", "nginx_binary", "render", "require_nginx"]


def require_nginx() -> str:
    """The nginx binary, or the test is skipped with the reason."""
    binary = nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (make test installs it: apt-get install nginx)")
    return binary


class Nginx(runner.Nginx):
    def __init__(
        self,
        nodes: Sequence[str],
        workdir: Path,
        conf: Path = DEPLOY_CONF,
        *,
        routing: Routing = "hash",
    ) -> None:
        require_nginx()
        super().__init__(nodes, workdir, conf, routing=routing)


@contextlib.contextmanager
def running_nginx(
    nodes: Sequence[str], workdir: Path, *, routing: Routing = "hash"
) -> Iterator[Nginx]:
    lb = Nginx(nodes, workdir, routing=routing)
    lb.start()
    try:
        yield lb
    finally:
        lb.stop()
