"""deploy/nginx.conf in front of two real `joke serve` nodes: HTTP round robin, the request id,
passive health checks (a stopped node is skipped) and a full game over WebSockets through it.

Each node here is a single process with its own SQLite file, so this is not a cluster: the
WebSocket part runs once one node is left. The cluster's tests put the same fixture
(tests/support/nginx.py) in front of nodes that share PostgreSQL and Redis.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.harness import Api, Client, ServerProcess, race_policy
from tests.support.nginx import DEPLOY_CONF, Nginx, require_nginx, running_nginx


class Behind:
    """What a Client needs of a server: where to open its WebSocket (here: nginx)."""

    def __init__(self, lb: Nginx) -> None:
        self.ws_base = lb.ws_base


@pytest.fixture
def two_nodes(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    require_nginx()  # skip before starting anything
    nodes = [
        ServerProcess(str(tmp_path / f"{name}.sqlite3"), extra=("--node", name))
        for name in ("node-a", "node-b")
    ]
    try:
        for node in nodes:
            node.start()
        yield nodes
    finally:
        for node in nodes:
            node.stop()


@pytest.fixture
def lb(two_nodes: list[ServerProcess], tmp_path: Path) -> Iterator[Nginx]:
    with running_nginx([f"127.0.0.1:{n.port}" for n in two_nodes], tmp_path) as nginx:
        nginx.wait_ready()
        yield nginx


def ready_nodes(lb: Nginx, times: int) -> list[str]:
    seen = []
    with httpx.Client(base_url=lb.base, timeout=5) as http:
        for _ in range(times):
            r = http.get("/api/ready")
            assert r.status_code == 200, r.text
            assert re.fullmatch(r"[0-9a-f]{32}", r.headers["x-request-id"])  # nginx's id
            seen.append(r.json()["node"])
    return seen


async def test_nginx_spreads_http_over_the_nodes_and_skips_a_stopped_one(
    two_nodes: list[ServerProcess], lb: Nginx
) -> None:
    assert set(ready_nodes(lb, 20)) == {"node-a", "node-b"}
    two_nodes[1].stop()
    # refused connections: nginx passes each request to the live node and then leaves the
    # dead one out for fail_timeout; nobody sees an error
    assert set(ready_nodes(lb, 10)) == {"node-a"}
    with httpx.Client(base_url=lb.base, timeout=5) as http:
        assert http.get("/metrics").status_code == 404  # scraped per node, not through nginx
        assert http.get("/api/health").json()["node"] == "node-a"


async def test_a_whole_game_over_websockets_through_nginx(
    two_nodes: list[ServerProcess], lb: Nginx
) -> None:
    two_nodes[1].stop()  # one room server left: every request reaches the room's node
    lb.wait_ready()
    api = Api(two_nodes[0])
    api.http = httpx.AsyncClient(base_url=lb.base, timeout=10)  # the API through nginx
    try:
        created = await api.create("race", "a", {"turnSeconds": 30})
        joined = await api.join(created["code"], "b")
        via: Any = Behind(lb)
        one = Client(via, created["roomId"], created["token"], "p1", race_policy)
        two = Client(via, created["roomId"], joined["token"], "p2", race_policy)
        await one.connect()
        await two.connect()
        r = await api.host("POST", f"/api/rooms/{created['code']}/start", created["token"])
        assert r.status_code == 200, r.text
        await one.wait_until(lambda: one.status == "finished")
        await two.wait_until(lambda: two.status == "finished")
        assert one.messages[0]["type"] == "snapshot"
        assert any(m.get("ack") for m in one.messages) and any(m.get("ack") for m in two.messages)
        await one.close()
        await two.close()
        record = await api.http.get(f"/api/rooms/{created['code']}/record")
        assert record.status_code == 200 and record.json()["result"]
    finally:
        await api.close()
    log = lb.access_log.read_text(encoding="utf-8")
    assert f'"GET /ws/{created["roomId"]}" 101' in log  # the upgrade went through nginx
    assert created["token"] not in log and joined["token"] not in log


def test_the_config_points_at_the_port_the_unit_gives_node_1() -> None:
    """deploy/ as docs/deploy.md sets it up: joke-node@1 on each machine, nginx in front of
    them; the upstreams name the port that instance listens on."""
    deploy = DEPLOY_CONF.parent
    unit = (deploy / "joke-node@.service").read_text(encoding="utf-8")
    found = re.search(r"^Environment=JOKE_PORT=(\S+)$", unit, re.M)
    assert found, "the unit sets no JOKE_PORT"
    port = found.group(1).replace("%i", "1")
    conf = (deploy / "nginx.conf").read_text(encoding="utf-8")
    for name in ("joke_nodes", "joke_sockets"):
        block = re.search(rf"upstream {name} \{{(.*?)\}}", conf, re.S)
        assert block, name
        servers = re.findall(r"^\s*server (\S+)", block.group(1), re.M)
        assert len(servers) == 3 and all(s.endswith(f":{port}") for s in servers), servers
