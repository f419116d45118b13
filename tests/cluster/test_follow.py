"""A room's ownership follows its sockets (docs/cluster.md): the node that relays more of a
room's sockets than its owner serves takes the room over through the hand-over (the owner lets
it go, its lease reserved for that node), mid-game, and no acknowledged action is lost.
Three `joke serve` nodes on PostgreSQL and Redis (conftest's ``nodes``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from tests.cluster.conftest import assert_the_log_holds, owner_of, until
from tests.server.harness import Api, Client, ServerProcess, race_policy, scrape
from tests.support.nginx import running_nginx


async def _owned_by(http: httpx.AsyncClient, via: ServerProcess, code: str, name: str) -> bool:
    return await owner_of(http, via.base, code) == name


async def _relayed(http: httpx.AsyncClient, node: ServerProcess) -> int:
    return int((await scrape(http, f"{node.base}/metrics"))[("joke_relayed_sockets", ())])


async def test_the_room_moves_to_the_node_holding_most_of_its_sockets_mid_game(
    nodes: list[ServerProcess],
) -> None:
    a, b, c = nodes
    api = Api(a)
    http = httpx.AsyncClient(timeout=5)
    try:
        created = await api.create("race", "h1", {"turnSeconds": 30})
        code, room_id = created["code"], created["roomId"]
        joined = await api.join(code, "h2")
        one = Client(a, room_id, created["token"], created["playerId"], race_policy)
        two = Client(b, room_id, joined["token"], joined["playerId"], race_policy)
        await one.connect()
        await two.connect()
        r = await api.host("POST", f"/api/rooms/{code}/start", created["token"])
        assert r.status_code == 200, r.text
        await two.wait_until(lambda: len(one.acked) >= 2 and len(two.acked) >= 2, timeout=60)
        # one socket on a, one relayed by b: it stays
        assert await owner_of(http, c.base, code) == "a"
        assert await _relayed(http, b) == 1

        # the socket on a leaves: b now holds the most of them, and the room follows it there
        await one.close()
        await until(lambda: _owned_by(http, c, code, "b"), 10)
        await two.wait_until(
            lambda: any(m["type"] == "snapshot" for m in two.messages[1:]), timeout=30
        )
        assert two.ws.close_code is None  # the relayed socket stayed open: b serves it now
        assert await _relayed(http, b) == 0
        again = await one.reconnect_via(b)
        await two._maybe_play()

        for cl in (again, two):
            await cl.wait_until(lambda cl=cl: cl.status == "finished", timeout=120)
        assert await owner_of(http, c.base, code) == "b"  # nothing pulled it back
        record = (await http.get(f"{c.base}/api/rooms/{code}/record")).json()
        assert_the_log_holds(record, [again, two])
        await again.close()
        await two.close()
    finally:
        await api.close()
        await http.aclose()


async def test_through_nginx_a_room_runs_where_its_sockets_land_and_nothing_is_relayed(
    nodes: list[ServerProcess], tmp_path: Path
) -> None:
    names = {f"127.0.0.1:{n.port}": name for n, name in zip(nodes, "abc", strict=True)}
    with running_nginx(list(names), tmp_path) as lb:
        lb.wait_ready()
        api = Api(nodes[0])  # created on a, wherever nginx sends its sockets
        http = httpx.AsyncClient(timeout=5)
        try:
            created = await api.create("race", "h1", {"turnSeconds": 30})
            code, room_id = created["code"], created["roomId"]
            joined = await api.join(code, "h2")
            via: Any = _Via(lb.ws_base)
            people = [
                Client(via, room_id, created["token"], created["playerId"], race_policy),
                Client(via, room_id, joined["token"], joined["playerId"], race_policy),
            ]
            for cl in people:
                await cl.connect()
            for cl in people:  # served (relayed or not): counted where they are
                await cl.wait_until(
                    lambda cl=cl: any(m["type"] == "snapshot" for m in cl.messages), timeout=30
                )
            # wherever the hash sent the sockets, the room follows them there
            await until(lambda: _nothing_relayed(http, nodes), 30)
            r = await api.host("POST", f"/api/rooms/{code}/start", created["token"])
            assert r.status_code == 200, r.text
            for cl in people:
                await cl.wait_until(lambda cl=cl: cl.status == "finished", timeout=120)
            name = await owner_of(http, nodes[0].base, code)
            assert [await _relayed(http, n) for n in nodes] == [0, 0, 0]
            record = (await http.get(f"{lb.base}/api/rooms/{code}/record")).json()
            assert_the_log_holds(record, people)
            for cl in people:
                await cl.close()
        finally:
            await api.close()
            await http.aclose()
    # both sockets went to one node (the hash of the room), and that node owned the room
    lines = [ln for ln in lb.access_log.read_text().splitlines() if f"/ws/{room_id}" in ln]
    landed = {m.group(1) for ln in lines if (m := re.search(r"node=(\S+)", ln))}
    assert len(landed) == 1, lines
    assert names[landed.pop()] == name


async def _nothing_relayed(http: httpx.AsyncClient, nodes: list[ServerProcess]) -> bool:
    return not any([await _relayed(http, n) for n in nodes])


class _Via:
    """What a Client needs of a server: where to open its WebSocket (here: nginx)."""

    def __init__(self, ws_base: str) -> None:
        self.ws_base = ws_base
