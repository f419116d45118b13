"""The cluster as players meet it: three `joke serve` nodes on this machine's PostgreSQL and
Redis behind nginx running deploy/nginx.conf (tests/support/nginx.py), real WebSocket clients
spread over it: one through nginx, one straight to the room's owner, one straight to another
node (its socket relayed to the owner), a spectator relayed too. Every client reconnects the
way the web client does: through nginx, with its token (tests/cluster/webclient.py).

- kill -9 and SIGTERM of the owner of a busy room, full games of both games: the room runs
  again on another node (the next update reaches a client within 10 s of the kill), nobody
  loses their seat, every acknowledged action is in PostgreSQL's log exactly once, and each
  game ends with the result a replay of that log gives; and kill -9 of two owners in turn;
- an owner frozen past its lease (SIGSTOP) and woken: fenced, it drops the room;
- the single process's hidden-information scan (tests/server/test_e2e.py) over relayed and
  direct sockets, mid-game takeovers included, and the crash test (tests/server/
  test_crash.py) for the whole cluster killed at once and started again.

Every wait is on a condition with a generous upper limit (the machine is loaded), never a sleep.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from jokeapp.core.record import verify_record
from tests.cluster.conftest import MOVE_LIMIT, owner_of
from tests.cluster.webclient import WebClient
from tests.rooms.conftest import all_games
from tests.server.harness import Api, ServerProcess, dalmuti_policy, marble_policy, race_policy
from tests.server.test_e2e import assert_nothing_hidden_leaks
from tests.support.nginx import Nginx, require_nginx, running_nginx

GAMES = all_games()
POLICIES = {"race": race_policy, "marble": marble_policy, "dalmuti": dalmuti_policy}
BOTH = [("marble", 3, 1, {"maxRounds": 15}), ("dalmuti", 3, 2, {"rounds": 1})]
FINISH_LIMIT = 300.0  # seconds for a whole game on a loaded machine: a hang guard

pytestmark = pytest.mark.skipif(
    not {"marble", "dalmuti"} <= set(GAMES), reason="engines not installed"
)


@pytest.fixture(autouse=True)
def _nginx_installed() -> None:
    require_nginx()  # skips, with the reason, before any node starts


@pytest.fixture
def lb(nodes: list[ServerProcess], tmp_path: Path) -> Iterator[Nginx]:
    with running_nginx([f"127.0.0.1:{n.port}" for n in nodes], tmp_path) as nginx:
        nginx.wait_ready()
        yield nginx


@pytest.fixture
async def api(lb: Nginx) -> AsyncIterator[Api]:
    via: Any = lb  # the HTTP API through nginx: Api needs only a `base`
    client = Api(via)
    yield client
    await client.close()


@dataclass
class Table:
    game: str
    code: str
    room_id: str
    owner: str  # the node that owned the room when it started
    people: list[WebClient]  # seated, in seat order
    watcher: WebClient | None
    relayed: list[WebClient]  # connected straight to a node that is not the owner

    @property
    def everyone(self) -> list[WebClient]:
        return [*self.people, *([self.watcher] if self.watcher else [])]


async def until(
    condition: Callable[[], Awaitable[bool] | bool], limit: float, clients: list[WebClient]
) -> None:
    """Polls ``condition`` until true; a client whose reader failed (a broken numbering, a
    message it could not take) fails the test at once with its own error."""
    async with asyncio.timeout(limit):
        while True:
            for cl in clients:
                if cl.task is not None and cl.task.done() and not cl.task.cancelled():
                    error = cl.task.exception()
                    if error is not None:
                        raise error
            found = condition()
            if not isinstance(found, bool):
                found = await found
            if found:
                return
            await asyncio.sleep(0.05)


def node_name(node: ServerProcess) -> str:
    return node.extra[node.extra.index("--node") + 1]


async def open_table(
    lb: Nginx,
    nodes: list[ServerProcess],
    api: Api,
    http: httpx.AsyncClient,
    spec: tuple[str, int, int, dict[str, Any]],
    *,
    watcher: bool = True,
) -> Table:
    """A table made through nginx (whichever node it lands on owns it); its first person
    through nginx, the second straight to the owner, the others (and the spectator) straight
    to the other nodes, relayed."""
    game, humans, bots, options = spec
    created = await api.create(game, "h1", options)
    code, room_id, host = created["code"], created["roomId"], created["token"]
    seats = [(host, created["playerId"])]
    for i in range(2, humans + 1):
        joined = await api.join(code, f"h{i}")
        seats.append((joined["token"], joined["playerId"]))
    for _ in range(bots):
        r = await api.host("POST", f"/api/rooms/{code}/bots", host, {"policy": "heuristic"})
        assert r.status_code == 200, r.text
    owner = await owner_of(http, lb.base, code)
    assert owner is not None
    by_name = {node_name(n): n for n in nodes}
    others = [n for name, n in by_name.items() if name != owner]
    places: list[Any] = [lb, by_name[owner], *others]
    people = [
        WebClient(places[min(i, len(places) - 1)], room_id, token, pid, POLICIES[game], home=lb)
        for i, (token, pid) in enumerate(seats)
    ]
    seen: WebClient | None = None
    if watcher:
        spectator = await api.join(code, "구경꾼", "spectator")
        seen = WebClient(others[-1], room_id, spectator["token"], None, home=lb)
    table = Table(game, code, room_id, owner, people, seen, [])
    table.relayed = [cl for cl in table.everyone if cl.server in others]
    for cl in table.everyone:
        await cl.connect()
    r = await api.host("POST", f"/api/rooms/{code}/start", host)
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    return table


async def finish(tables: list[Table], http: httpx.AsyncClient, lb: Nginx) -> list[dict[str, Any]]:
    """Waits until every table's game is over; their records (asked through nginx)."""
    everyone = [cl for t in tables for cl in t.everyone]
    for t in tables:

        def over(t: Table = t) -> bool:
            return all(cl.status == "finished" for cl in t.people)

        await until(over, FINISH_LIMIT, everyone)
    records = []
    for t in tables:
        r = await http.get(f"{lb.base}/api/rooms/{t.code}/record")
        assert r.status_code == 200, r.text
        records.append(r.json())
    for cl in everyone:
        await cl.close()
    return records


async def check_the_log(pg: tuple[str, str], table: Table, record: dict[str, Any]) -> None:
    """What PostgreSQL holds for the table: every acknowledged action exactly once, under its
    player and clientSeq; replayed from the stored seed, it ends with the record's result."""
    import asyncpg  # type: ignore[import-untyped]

    url, schema = pg
    conn = await asyncpg.connect(url, server_settings={"search_path": schema})
    try:
        match = await conn.fetchrow(
            "SELECT match, seed, players, options FROM matches WHERE room_id = $1"
            " ORDER BY match DESC LIMIT 1",
            table.room_id,
        )
        assert match is not None
        rows = await conn.fetch(
            "SELECT step, actor, action, auto, client_seq FROM actions"
            " WHERE room_id = $1 AND match = $2 ORDER BY step",
            table.room_id,
            match["match"],
        )
    finally:
        await conn.close()
    steps = [(r["actor"], json.loads(r["action"]), r["auto"], r["client_seq"]) for r in rows]
    numbered = [r["step"] for r in rows]
    assert numbered == list(range(numbered[0], numbered[0] + len(rows))), "a hole in the log"
    for cl in table.people:
        mine = [
            (seq, action)
            for actor, action, auto, seq in steps
            if actor == cl.player_id and not auto
        ]
        numbers = [seq for seq, _ in mine]
        assert numbers == sorted(set(numbers)), f"{cl.player_id}: a clientSeq applied twice"
        for seq, action in cl.acked:
            assert (seq, action) in mine, f"{cl.player_id}: acknowledged #{seq} not in the log"
    game = GAMES[table.game]
    state, _ = game.start(json.loads(match["options"]), json.loads(match["players"]), match["seed"])
    for actor, action, _, _ in steps:
        game.apply(state, actor, action)
    assert game.is_over(state)
    assert game.result(state) == record["result"], "the record's result is not the log's"
    assert [s["action"] for s in record["steps"]] == [action for _, action, _, _ in steps]
    assert verify_record(game, record) == []


def seats_kept(table: Table) -> None:
    """Every socket's snapshot, before and after any move, was this client's own seat."""
    for cl in table.people:
        assert cl.snapshots(), cl.player_id
        assert {s["you"]["playerId"] for s in cl.snapshots()} == {cl.player_id}
    if table.watcher is not None:
        assert {s["you"]["role"] for s in table.watcher.snapshots()} == {"spectator"}


def no_secret_of_another(tables: list[Table]) -> None:
    """No frame, relayed or not, carries another person's token."""
    for t in tables:
        tokens = {cl.token for cl in t.everyone}
        for cl in t.everyone:
            for text in cl.raw:
                assert not any(tok in text for tok in tokens - {cl.token}), "a token leaked"


def next_update_after(cl: WebClient, moment: float) -> float | None:
    """When this client got its first update from a room rebuilt after ``moment`` (the
    update following a snapshot it got after that); None if not yet."""
    resynced = False
    for message, at in zip(cl.messages, cl.arrived, strict=False):
        if at <= moment:
            continue
        if message["type"] == "snapshot":
            resynced = True
        elif message["type"] == "update" and resynced:
            return at
    return None


async def resume_elsewhere(
    moved: list[Table],
    gone: str,
    lost_at: float,
    http: httpx.AsyncClient,
    lb: Nginx,
    everyone: list[WebClient],
) -> None:
    """Each of the tables the node ``gone`` owned runs on another node (asked through nginx),
    and one of its clients got an update from there within MOVE_LIMIT of ``lost_at``."""
    for t in moved:

        async def runs_elsewhere(t: Table = t) -> bool:
            return await owner_of(http, lb.base, t.code) not in (None, gone)

        def resumed(t: Table = t) -> bool:  # some client got an update of the new owner
            return any(next_update_after(cl, lost_at) for cl in t.everyone)

        await until(runs_elsewhere, 60, everyone)
        await until(resumed, 60, everyone)
        first = min(at for cl in t.everyone if (at := next_update_after(cl, lost_at)) is not None)
        assert first - lost_at < MOVE_LIMIT, f"{t.game}: {first - lost_at:.1f} s to resume"


async def lose_the_owner(
    how: str,
    nodes: list[ServerProcess],
    lb: Nginx,
    api: Api,
    pg_schema: tuple[str, str],
) -> None:
    http = httpx.AsyncClient(timeout=10)
    try:
        tables = [await open_table(lb, nodes, api, http, spec) for spec in BOTH]
        everyone = [cl for t in tables for cl in t.everyone]
        busy = tables[0]  # the marble table
        assert busy.relayed and any(cl.sockets[0] is lb for cl in busy.people)
        await until(lambda: sum(len(cl.acked) for cl in busy.people) >= 6, 120, everyone)
        assert any(cl.status == "playing" for cl in busy.people)
        assert not any(cl.status == "finished" for cl in busy.people), "over before the failure"
        victim = next(n for n in nodes if node_name(n) == busy.owner)
        survivors = [n for n in nodes if n is not victim]
        assert victim.proc is not None
        moved = [t for t in tables if t.owner == busy.owner]

        lost_at = time.monotonic()
        if how == "kill":
            victim.kill()
        else:
            victim.proc.terminate()
            assert await asyncio.to_thread(victim.proc.wait, 10) is not None  # exits in 10 s

        await resume_elsewhere(moved, busy.owner, lost_at, http, lb, everyone)

        records = await finish(tables, http, lb)
        for t, record in zip(tables, records, strict=True):
            seats_kept(t)
            await check_the_log(pg_schema, t, record)
            for cl in t.everyone:
                if cl.server is victim:  # straight to the lost node: back through nginx
                    assert cl.close_codes[0] == (1012 if how == "term" else 1006), cl.close_codes
                    assert cl.sockets[1] is lb
                elif cl.server in survivors:  # relayed through a live node: never closed
                    assert len(cl.sockets) == 1, (cl.player_id, cl.close_codes)
            for cl in t.relayed:
                if t in moved and cl.server in survivors:  # the new owner's snapshot came through
                    assert len(cl.snapshots()) >= 2
        assert_scan(tables, records)
    finally:
        await http.aclose()


def assert_scan(tables: list[Table], records: list[dict[str, Any]]) -> None:
    for t, record in zip(tables, records, strict=True):
        assert t.watcher is not None
        assert_nothing_hidden_leaks(record, list(t.people), t.watcher)
    no_secret_of_another(tables)


async def test_kill_9_of_a_busy_owner_behind_nginx(
    nodes: list[ServerProcess], lb: Nginx, api: Api, pg_schema: tuple[str, str]
) -> None:
    await lose_the_owner("kill", nodes, lb, api, pg_schema)


async def test_sigterm_of_a_busy_owner_behind_nginx(
    nodes: list[ServerProcess], lb: Nginx, api: Api, pg_schema: tuple[str, str]
) -> None:
    await lose_the_owner("term", nodes, lb, api, pg_schema)


async def test_a_busy_room_outlives_two_owners_killed_in_turn(
    nodes: list[ServerProcess], lb: Nginx, api: Api, pg_schema: tuple[str, str]
) -> None:
    """kill -9 of the marble table's owner, and once it is busy again on its new owner, kill
    -9 of that one: the last node runs every room and nothing acknowledged is lost."""
    http = httpx.AsyncClient(timeout=10)
    try:
        tables = [await open_table(lb, nodes, api, http, spec) for spec in BOTH]
        everyone = [cl for t in tables for cl in t.everyone]
        busy = tables[0]
        for _ in range(2):
            goal = sum(len(cl.acked) for cl in busy.people) + 6

            def busy_again(goal: int = goal) -> bool:
                return sum(len(cl.acked) for cl in busy.people) >= goal

            await until(busy_again, 120, everyone)
            assert not any(cl.status == "finished" for cl in busy.people), "over too soon"
            gone = await owner_of(http, lb.base, busy.code)
            assert gone is not None
            moved = [t for t in tables if await owner_of(http, lb.base, t.code) == gone]
            victim = next(n for n in nodes if node_name(n) == gone)
            lost_at = time.monotonic()
            victim.kill()
            await resume_elsewhere(moved, gone, lost_at, http, lb, everyone)
        records = await finish(tables, http, lb)
        for t, record in zip(tables, records, strict=True):
            seats_kept(t)
            await check_the_log(pg_schema, t, record)
        assert_scan(tables, records)
    finally:
        await http.aclose()


async def test_a_paused_owner_wakes_up_fenced_and_drops_its_room(
    nodes: list[ServerProcess], lb: Nginx, api: Api, pg_schema: tuple[str, str]
) -> None:
    """The owner of the busy table is frozen (SIGSTOP: a stopped VM, a long pause) past its
    lease; another node takes the room. When it wakes (SIGCONT) it still believes it owns
    the room, with whatever its people sent meanwhile to apply: nothing of it gets into the
    log (the renewal finds the lease taken, or the store's fence refuses the write), it
    drops the room, and its people come back through nginx to the new owner. The sockets
    relayed through the nodes that answer move on while the owner is still frozen (its
    connections stay open: without watching its leases a relay would wait for the WebSocket
    keepalive, 20 to 40 s), on the same socket, with the new owner's snapshot."""
    http = httpx.AsyncClient(timeout=10)
    try:
        tables = [await open_table(lb, nodes, api, http, spec) for spec in BOTH]
        everyone = [cl for t in tables for cl in t.everyone]
        busy = tables[0]
        await until(lambda: sum(len(cl.acked) for cl in busy.people) >= 6, 120, everyone)
        assert not any(cl.status == "finished" for cl in busy.people), "over too soon"
        sleeper = next(n for n in nodes if node_name(n) == busy.owner)
        awake = next(n for n in nodes if n is not sleeper)
        assert sleeper.proc is not None and busy.relayed
        seen = {id(cl): len(cl.snapshots()) for cl in busy.relayed}
        sleeper.proc.send_signal(signal.SIGSTOP)
        frozen_at = time.monotonic()
        try:
            # asked of a node that answers (nginx would wait on the frozen one)
            async def taken() -> bool:
                return await owner_of(http, awake.base, busy.code) not in (None, busy.owner)

            await until(taken, 60, everyone)

            def relays_moved() -> bool:
                return all(len(cl.snapshots()) > seen[id(cl)] for cl in busy.relayed)

            # the takeover's promise (10 s) and a margin for the loaded machine: a hang
            # guard, well short of the keepalive the relays would otherwise wait for
            left = MOVE_LIMIT + 5 - (time.monotonic() - frozen_at)
            await until(relays_moved, max(left, 0.1), everyone)
            assert all(not cl.close_codes for cl in busy.relayed)  # their sockets stayed open
        finally:
            sleeper.proc.send_signal(signal.SIGCONT)
        new_owner = await owner_of(http, awake.base, busy.code)

        async def let_go() -> bool:  # the woken node says who owns the room now
            return await owner_of(http, sleeper.base, busy.code) == new_owner

        await until(let_go, 60, everyone)
        records = await finish(tables, http, lb)
        for t, record in zip(tables, records, strict=True):
            seats_kept(t)
            await check_the_log(pg_schema, t, record)
        for cl in busy.people:
            if cl.server is sleeper:  # straight on the frozen owner: told to reconnect
                assert cl.close_codes[0] == 1012 and cl.sockets[1] is lb, cl.close_codes
        log = sleeper.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        assert any(
            f"room {busy.room_id}: " in line and ("lease lost" in line or "fenced" in line)
            for line in log
        ), "the woken node did not say it dropped the room"
    finally:
        await http.aclose()


async def test_nothing_hidden_reaches_a_relayed_or_direct_socket(
    nodes: list[ServerProcess], lb: Nginx, api: Api, pg_schema: tuple[str, str]
) -> None:
    """test_e2e's scan, both games played to the end over the cluster: seed, deck, others'
    hands and tax cards never reach a socket that should not see them, relayed or not."""
    http = httpx.AsyncClient(timeout=10)
    try:
        tables = [await open_table(lb, nodes, api, http, spec) for spec in BOTH]
        for t in tables:
            assert t.watcher in t.relayed and any(cl in t.relayed for cl in t.people)
        records = await finish(tables, http, lb)
        assert_scan(tables, records)
        for t, record in zip(tables, records, strict=True):
            await check_the_log(pg_schema, t, record)
            for cl in t.relayed:  # relayed the whole game: one socket, never moved
                assert len(cl.sockets) == 1 and len(cl.snapshots()) == 1
    finally:
        await http.aclose()


async def test_the_whole_cluster_killed_and_started_again_loses_no_acknowledged_action(
    nodes: list[ServerProcess], lb: Nginx, api: Api, pg_schema: tuple[str, str]
) -> None:
    """test_crash.py for the cluster: every node kill -9'd mid-game, then started again on
    the same PostgreSQL and Redis; the clients come back through nginx with their tokens."""
    http = httpx.AsyncClient(timeout=10)
    try:
        specs = [("race", 2, 0, {"turnSeconds": 30}), *BOTH]
        tables = [await open_table(lb, nodes, api, http, s, watcher=False) for s in specs]
        everyone = [cl for t in tables for cl in t.everyone]
        longest = [cl for t in tables[1:] for cl in t.people]
        await until(lambda: sum(len(cl.acked) for cl in longest) >= 3, 120, everyone)
        assert any(cl.status == "playing" for cl in longest)
        for node in nodes:
            node.kill()
        acked = {cl.token: list(cl.acked) for cl in everyone}
        assert any(acked.values()), "nothing was played before the crash"
        for node in nodes:
            await asyncio.to_thread(node.start)

        records = await finish(tables, http, lb)
        # a table over before the crash is "finished" at once: wait for its people's new
        # sockets' snapshots, which the checks below read
        people = [cl for t in tables for cl in t.people]
        await until(lambda: all(cl.snapshot_on_this_socket for cl in people), 120, everyone)
        for t, record in zip(tables, records, strict=True):
            seats_kept(t)
            await check_the_log(pg_schema, t, record)
            for cl in t.people:
                assert len(cl.sockets) >= 2  # its node died: it came back through nginx
                after = cl.snapshots()[1:]
                mine = max((seq for seq, _ in acked[cl.token]), default=0)
                assert after and after[0]["lastClientSeq"] >= mine
                theirs = [
                    s["action"]
                    for s in record["steps"]
                    if s["actor"] == cl.player_id and not s["auto"]
                ]
                before = [action for _, action in acked[cl.token]]
                assert theirs[: len(before)] == before
    finally:
        await http.aclose()
