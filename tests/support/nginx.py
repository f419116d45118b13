"""A real nginx in front of real `joke serve` nodes, running deploy/nginx.conf itself: the
shared runner (jokeapp/bench/nginx.py, which the cluster benchmark uses too) with the tests'
skip where nginx is missing.

The cluster tests reuse it: ``with running_nginx(nodes, tmp_path) as lb: lb.base`` …
(``routing="round-robin"`` leaves out the deployment's hash on the room). Tests skip, with the
reason shown, where nginx is not installed (``make test`` installs it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from jokeapp.bench import nginx as runner
from jokeapp.bench.loopback import free_port
from jokeapp.bench.nginx import DEPLOY_CONF, Nginx, Routing, nginx_binary, render

__all__ = ["DEPLOY_CONF", "Nginx", "free_port", "nginx_binary", "render", "require_nginx"]


def require_nginx() -> str:
    """The nginx binary, or the test is skipped with the reason."""
    binary = nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (make test installs it: apt-get install nginx)")
    return binary


class SkippingNginx(Nginx):
    """The runner, made only where nginx is installed (else the test skips)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        require_nginx()
        super().__init__(*args, **kwargs)


def running_nginx(
    nodes: Sequence[str], workdir: Path, *, routing: Routing = "hash"
) -> contextlib.AbstractContextManager[Nginx]:
    return runner.running_nginx(nodes, workdir, routing=routing, kind=SkippingNginx)
