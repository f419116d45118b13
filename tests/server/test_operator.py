"""The operator's side of a real server process: flags, /metrics, /api/health and /api/ready,
the WebSocket's auth message, and the JSON log lines it writes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.frames import Frame, Opcode

from jokeapp.bench.loopback import free_port
from tests.server.harness import Api, Client, ServerProcess, race_policy, scrape

NODE = "node-test-1"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server that logs at INFO (JSON lines in its log file) and wants auth within 0.5 s."""
    extra = ("--log-level", "info", "--node", NODE, "--auth-seconds", "0.5")
    with ServerProcess(str(tmp_path / "joke.sqlite3"), extra=extra) as proc:
        yield proc


def log_lines(server: ServerProcess) -> list[dict[str, Any]]:
    """The server's log, every whole line a JSON object (uvicorn's own lines included); a last
    line still being written is left out."""
    text = server.log_path.read_text(encoding="utf-8")
    lines = text.splitlines() if text.endswith("\n") else text.splitlines()[:-1]
    return [json.loads(line) for line in lines if line.strip()]


async def logged(
    server: ServerProcess, condition: Callable[[list[dict[str, Any]]], bool]
) -> list[dict[str, Any]]:
    """The log once it holds what ``condition`` looks for: a line is written after its answer
    has gone out (an access line after the response), so reading at once can race it."""
    async with asyncio.timeout(60):  # a hang guard only
        while not condition(lines := log_lines(server)):
            await asyncio.sleep(0.05)
    return lines


async def play_a_race(server: ServerProcess, api: Api) -> tuple[dict[str, Any], dict[str, Any]]:
    created = await api.create("race", "a", {"turnSeconds": 30})
    joined = await api.join(created["code"], "b")
    one = Client(server, created["roomId"], created["token"], "p1", race_policy)
    two = Client(server, created["roomId"], joined["token"], "p2", race_policy)
    await one.connect()
    await two.connect()
    r = await api.host("POST", f"/api/rooms/{created['code']}/start", created["token"])
    assert r.status_code == 200, r.text
    await one.wait_until(lambda: one.status == "finished")
    await two.wait_until(lambda: two.status == "finished")
    # one refused action: the game is over
    await one.act({"type": "step", "n": 1})
    await one.wait_until(lambda: any(m.get("code") == "game_over" for m in one.messages))
    await one.close()
    await two.close()
    return created, joined


async def test_metrics_count_real_actions_refusals_latency_rooms_and_connections(
    server: ServerProcess, api: Api
) -> None:
    before = await scrape(api.http)
    assert before.get(("joke_actions_accepted_total", (("game", "race"),)), 0) == 0
    created = await api.create("race", "a", {"turnSeconds": 30})
    joined = await api.join(created["code"], "b")
    one = Client(server, created["roomId"], created["token"], "p1", race_policy)
    two = Client(server, created["roomId"], joined["token"], "p2", race_policy)
    await one.connect()
    await two.connect()
    await one.wait_until(lambda: bool(one.messages))
    await two.wait_until(lambda: bool(two.messages))
    lobby = await scrape(api.http)
    assert lobby[("joke_rooms", (("game", "race"), ("status", "lobby")))] == 1
    assert lobby[("joke_connections", ())] == 2
    r = await api.host("POST", f"/api/rooms/{created['code']}/start", created["token"])
    assert r.status_code == 200, r.text
    await one.wait_until(lambda: one.status == "finished")
    await two.wait_until(lambda: two.status == "finished")
    await one.act({"type": "step", "n": 1})
    await one.wait_until(lambda: any(m.get("code") == "game_over" for m in one.messages))
    applied = sum(1 for c in (one, two) for m in c.messages if m.get("ack") is not None)

    after = await scrape(api.http)
    accepted = after[("joke_actions_accepted_total", (("game", "race"),))]
    assert accepted >= applied > 0
    assert after[("joke_actions_refused_total", (("code", "game_over"), ("game", "race")))] == 1
    # every client action that was applied took its arrival-to-update time
    assert after[("joke_action_update_seconds_count", (("game", "race"),))] == applied
    assert after[("joke_store_write_seconds_count", (("op", "append"),))] >= accepted
    assert after[("joke_rooms", (("game", "race"), ("status", "finished")))] == 1
    assert ("joke_rooms", (("game", "race"), ("status", "lobby"))) not in after
    assert ("joke_leases_held", ()) in after  # defined for the cluster, 0 on a single process
    # the stored actions cost the store requests (batched: fewer than one each, maybe); no
    # Redis on a single process
    trips = ("joke_store_round_trips_total", ())
    assert after[trips] > before[trips]
    assert ("joke_redis_requests_total", ()) not in after
    await one.close()
    await two.close()
    # a frame refused before any room saw it
    async with websockets.connect(f"{server.ws_base}/ws/{created['roomId']}") as ws:
        await ws.send(json.dumps({"type": "auth", "token": created["token"]}))
        assert json.loads(await ws.recv())["type"] == "snapshot"
        await ws.send("{not json")
        assert json.loads(await ws.recv())["code"] == "bad_json"
    final = await scrape(api.http)
    assert final[("joke_ws_frames_refused_total", (("code", "bad_json"),))] == 1


async def test_a_timeout_is_counted(tmp_path: Path) -> None:
    proc = ServerProcess(str(tmp_path / "joke.sqlite3"))
    proc.start()
    api = Api(proc)
    try:
        created = await api.create("race", "a", {"turnSeconds": 10})
        await api.host("POST", f"/api/rooms/{created['code']}/bots", created["token"], {})
        one = Client(proc, created["roomId"], created["token"], "p1")  # never acts
        await one.connect()
        r = await api.host("POST", f"/api/rooms/{created['code']}/start", created["token"])
        assert r.status_code == 200, r.text
        # the confirm phase (20 s) times out for p1: the timeout rule confirms for them
        await one.wait_until(lambda: any(m.get("auto") for m in one.messages), timeout=40)
        counted = await scrape(api.http)
        assert counted[("joke_timeouts_total", (("game", "race"),))] >= 1
        await one.close()
    finally:
        await api.close()
        proc.stop()


async def test_health_and_ready_answer_with_the_node(server: ServerProcess, api: Api) -> None:
    health = await api.http.get("/api/health")
    assert health.status_code == 200
    assert health.json() == {"ok": True, "rooms": 0, "version": 1, "node": NODE}
    ready = await api.http.get("/api/ready")
    assert ready.status_code == 200
    assert ready.json() == {"ok": True, "node": NODE, "checks": {"db": "ok"}}
    document = (await api.http.get("/openapi.json")).json()
    assert set(document["paths"]["/api/ready"]["get"]["responses"]) >= {"200", "503"}


async def test_ready_is_503_when_the_redis_it_was_given_does_not_answer(tmp_path: Path) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    proc = ServerProcess(str(tmp_path / "joke.sqlite3"), extra=("--redis", dead))
    proc.start()
    try:
        async with httpx.AsyncClient(base_url=proc.base, timeout=10) as http:
            assert (await http.get("/api/health")).status_code == 200  # alive, not ready
            ready = await http.get("/api/ready")
        assert ready.status_code == 503
        body = ready.json()
        assert body["ok"] is False and body["checks"]["db"] == "ok"
        assert body["checks"]["redis"] != "ok"
    finally:
        proc.stop()


async def test_the_websocket_wants_auth_first_and_within_its_time(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a")
    url = f"{server.ws_base}/ws/{created['roomId']}"
    # a token in the URL authenticates nothing: no message comes, the server closes at 0.5 s
    async with websockets.connect(f"{url}?token={created['token']}") as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "error" and first["code"] == "auth_required"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    # another message first: refused at once
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await ws.recv())["code"] == "auth_required"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    # a wrong token: bad_token as before
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "auth", "token": "nope"}))
        assert json.loads(await ws.recv())["code"] == "bad_token"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    # the right one: the snapshot; a second auth is refused and the socket stays
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "auth", "token": created["token"]}))
        assert json.loads(await ws.recv())["type"] == "snapshot"
        await ws.send(json.dumps({"type": "auth", "token": created["token"]}))
        assert json.loads(await ws.recv())["code"] == "invalid_message"
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await ws.recv())["type"] == "pong"


async def test_logs_are_json_with_node_and_request_id_and_never_a_token(
    server: ServerProcess, api: Api
) -> None:
    created, joined = await play_a_race(server, api)
    r = await api.http.get("/api/games", headers={"X-Request-ID": "from-nginx-42"})
    assert r.headers["x-request-id"] == "from-nginx-42"
    generated = (await api.http.get("/api/games")).headers["x-request-id"]
    wanted = {"from-nginx-42", generated}
    lines = await logged(
        server,
        lambda lines: (
            wanted <= {line.get("request_id") for line in lines}
            and any(str(line.get("path", "")).startswith("/ws/") for line in lines)
        ),
    )
    assert lines and all(line["node"] == NODE for line in lines)
    access = [line for line in lines if line["event"] == "request"]
    assert {"path": "/api/games", "request_id": "from-nginx-42", "status": 200}.items() <= next(
        line for line in access if line.get("request_id") == "from-nginx-42"
    ).items()
    assert any(line.get("request_id") == generated for line in access)
    sockets = [line for line in access if line["path"].startswith("/ws/")]
    assert sockets and all(line["status"] == 101 for line in sockets)
    text = server.log_path.read_text(encoding="utf-8")
    assert created["token"] not in text and joined["token"] not in text


async def test_an_invalid_utf8_frame_is_one_info_line_without_a_traceback(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a")
    for _ in range(2):
        async with websockets.connect(f"{server.ws_base}/ws/{created['roomId']}") as ws:
            await ws.send(json.dumps({"type": "auth", "token": created["token"]}))
            assert json.loads(await ws.recv())["type"] == "snapshot"
            # a text frame whose bytes are not UTF-8 (the library checks only what it builds)
            ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe{"))
            ws.send_data()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    await api.http.get("/api/health")  # the server is fine
    lines = await logged(server, lambda lines: sum("UTF-8" in line["event"] for line in lines) >= 2)
    faults = [line for line in lines if "UTF-8" in line["event"]]
    assert len(faults) == 2
    assert all(line["level"] == "info" and "exception" not in line for line in faults)
    assert not [line for line in lines if line["level"] in ("error", "critical")]
    assert "Traceback" not in server.log_path.read_text(encoding="utf-8")


def test_each_app_has_its_own_registry_and_the_global_one_has_none_of_ours() -> None:
    from prometheus_client import REGISTRY

    from jokeapp.server.app import create_app
    from jokeapp.server.settings import Settings

    one, two = create_app(Settings()), create_app(Settings())
    first, second = one.state.metrics, two.state.metrics
    first.actions_accepted.labels("race").inc()
    assert first.registry.get_sample_value("joke_actions_accepted_total", {"game": "race"}) == 1
    assert second.registry.get_sample_value("joke_actions_accepted_total", {"game": "race"}) is None
    assert not [name for name in REGISTRY._names_to_collectors if name.startswith("joke_")]
