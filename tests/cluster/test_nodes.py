"""Three `joke serve` nodes on this machine's PostgreSQL and Redis, real WebSocket clients
spread over them (each straight to a node; docs/cluster.md), full games of both games.

kill -9 of the node that owns the busy rooms: every room runs again on another node within
10 s, clients relayed through the other nodes keep their sockets, the others reconnect with
their tokens, every acknowledged action is in the log and each game ends with the result its
replay gives. Every wait is on a condition (with an upper limit), never a sleep.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import httpx
import pytest

from tests.cluster.conftest import MOVE_LIMIT, assert_the_log_holds, owner_of, until
from tests.rooms.conftest import all_games
from tests.server.harness import (
    Api,
    Client,
    ServerProcess,
    dalmuti_policy,
    marble_policy,
    race_policy,
)

GAMES = all_games()
POLICIES = {"race": race_policy, "marble": marble_policy, "dalmuti": dalmuti_policy}
TABLES = [
    ("marble", 2, 2, {"maxRounds": 15}),
    ("dalmuti", 2, 2, {"rounds": 1}),
    ("race", 3, 0, {"turnSeconds": 30}),
]


async def open_table(
    nodes: list[ServerProcess], api: Api, game: str, humans: int, bots: int, opts: dict[str, Any]
) -> tuple[str, str, list[Client]]:
    """A table created on nodes[0]; its people connect to the nodes in turn."""
    created = await api.create(game, "h1", opts)
    code = created["code"]
    seats = [(created["token"], created["playerId"])]
    for i in range(2, humans + 1):
        joined = await api.join(code, f"h{i}")
        seats.append((joined["token"], joined["playerId"]))
    for _ in range(bots):
        await api.host("POST", f"/api/rooms/{code}/bots", created["token"], {"policy": "heuristic"})
    clients = [
        Client(nodes[i % len(nodes)], created["roomId"], token, pid, POLICIES[game])
        for i, (token, pid) in enumerate(seats)
    ]
    for client in clients:
        await client.connect()
    r = await api.host("POST", f"/api/rooms/{code}/start", created["token"])
    assert r.status_code == 200, r.text
    return code, created["roomId"], clients


@pytest.mark.skipif(not {"marble", "dalmuti"} <= set(GAMES), reason="engines not installed")
async def test_kill_9_of_the_owner_moves_its_rooms_and_loses_no_acknowledged_action(
    nodes: list[ServerProcess],
) -> None:
    a, b, c = nodes
    api = Api(a)
    http = httpx.AsyncClient(timeout=5)
    tables = [await open_table(nodes, api, *spec) for spec in TABLES]
    await api.close()
    try:
        for code, _, _ in tables:
            assert await owner_of(http, b.base, code) == "a"  # asked through b, answered by a
        listed = {r["code"] for r in (await http.get(f"{c.base}/api/rooms")).json()["rooms"]}
        for code, _, _ in tables:  # a's, via c; a race can be over already, and is then not open
            if code not in listed:
                info = (await http.get(f"{b.base}/api/rooms/{code}")).json()
                assert info["status"] == "finished", info
        busy = [cl for _, _, clients in tables for cl in clients]
        await busy[0].wait_until(lambda: sum(len(cl.acked) for cl in busy) >= 6, timeout=60)
        assert any(cl.status == "playing" for cl in busy)

        a.kill()
        killed_at = time.monotonic()
        for code, _, _ in tables:
            await until(functools.partial(_moved, http, b, code), MOVE_LIMIT)
        assert time.monotonic() - killed_at < MOVE_LIMIT

        # those that were on a reconnect (through another node) with their tokens
        after: list[tuple[str, list[Client]]] = []
        relayed: list[Client] = []
        for code, _, clients in tables:
            again = []
            for i, cl in enumerate(clients):
                if cl.server is a:
                    again.append(await cl.reconnect_via(nodes[1 + i % 2]))
                else:
                    assert cl.ws.close_code is None  # relayed: the socket stayed open
                    again.append(cl)
                    relayed.append(cl)
            after.append((code, again))
        for cl in relayed:  # the new owner's snapshot came through the same socket
            await cl.wait_until(
                lambda cl=cl: any(m["type"] == "snapshot" for m in cl.messages[1:]), timeout=30
            )
        for _, clients in after:
            for cl in clients:
                await cl._maybe_play()

        for code, clients in after:
            await clients[0].wait_until(lambda c0=clients[0]: c0.status == "finished", 240)
            record = (await http.get(f"{c.base}/api/rooms/{code}/record")).json()
            assert_the_log_holds(record, clients)
        for _, clients in after:
            for cl in clients:
                await cl.close()
    finally:
        await http.aclose()


async def _moved(http: httpx.AsyncClient, via: ServerProcess, code: str) -> bool:
    return await owner_of(http, via.base, code) in ("b", "c")


async def test_sigterm_hands_the_rooms_over_and_no_one_loses_their_seat(
    nodes: list[ServerProcess],
) -> None:
    a, b, c = nodes
    api = Api(b)
    http = httpx.AsyncClient(timeout=5)
    order = [b, a, c]  # the creator, then the others: people on every node
    tables = [await open_table(order, api, "race", 3, 0, {"turnSeconds": 30}) for _ in range(2)]
    await api.close()
    try:
        people = [cl for _, _, clients in tables for cl in clients]
        await people[0].wait_until(lambda: sum(len(cl.acked) for cl in people) >= 6, timeout=60)
        assert b.proc is not None
        b.proc.terminate()
        assert b.proc.wait(10) is not None  # it exits within 10 s
        for code, _, _ in tables:
            await until(functools.partial(_moved_off, http, a, code, "b"), MOVE_LIMIT)

        after: list[tuple[str, list[Client]]] = []
        for code, _, clients in tables:
            again = []
            for i, cl in enumerate(clients):
                if cl.server is b:
                    await cl.wait_until(lambda cl=cl: cl.ws.close_code is not None, timeout=10)
                    assert cl.ws.close_code == 1012  # "reconnect"
                    again.append(await cl.reconnect_via([a, c][i % 2]))
                else:
                    assert cl.ws.close_code is None  # relayed: the socket stayed open
                    again.append(cl)
            after.append((code, again))
        for _, clients in after:
            for cl in clients:
                await cl.wait_until(
                    lambda cl=cl: (
                        [m for m in cl.messages if m["type"] == "snapshot"][-1:]
                        and cl.messages[-1]["type"] != "error"
                    ),
                    timeout=30,
                )
                snapshots = [m for m in cl.messages if m["type"] == "snapshot"]
                assert snapshots[-1]["you"]["playerId"] == cl.player_id  # the same seat
                await cl._maybe_play()
        for code, clients in after:
            await clients[0].wait_until(lambda c0=clients[0]: c0.status == "finished", 120)
            record = (await http.get(f"{c.base}/api/rooms/{code}/record")).json()
            assert_the_log_holds(record, clients)
            for cl in clients:
                await cl.close()
    finally:
        await http.aclose()


async def _moved_off(http: httpx.AsyncClient, via: ServerProcess, code: str, gone: str) -> bool:
    return await owner_of(http, via.base, code) not in (None, gone)
