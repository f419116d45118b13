"""Refusals an outside client must be able to act on: which frame was dropped, which clientSeq
comes next, which room refs and bodies are accepted (docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any

from tests.server.harness import Api, Client, ServerProcess


async def started_race(api: Api) -> tuple[dict[str, Any], dict[str, Any]]:
    created = await api.create("race", "a")
    joined = await api.join(created["code"], "b")
    r = await api.host("POST", f"/api/rooms/{created['code']}/start", created["token"])
    assert r.status_code == 200, r.text
    return created, joined


def errors(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.messages if m["type"] == "error"]


async def test_a_client_seq_jump_is_refused_and_cannot_lock_the_seat(
    server: ServerProcess, api: Api
) -> None:
    created, _ = await started_race(api)
    client = Client(server, created["roomId"], created["token"], "p1")
    await client.connect()
    await client.wait_until(lambda: bool(client.messages))
    client.client_seq = 2**31 - 2  # the next action carries the highest number there is
    await client.act({"type": "confirm"})
    await client.wait_until(lambda: bool(errors(client)))
    gap = errors(client)[0]
    assert (
        gap["code"] == "client_seq_gap"
        and gap["clientSeq"] == 2**31 - 1
        and gap["detail"] == {"expected": 1}
    )
    assert client.client_seq == 0  # the harness takes the expected number, as a client should
    assert await client.act({"type": "confirm"}) == 1
    await client.wait_until(lambda: any(m.get("ack") == 1 for m in client.messages))
    await client.send({"type": "action", "clientSeq": 1, "action": {"type": "confirm"}})
    await client.wait_until(lambda: len(errors(client)) == 2)
    assert errors(client)[1]["code"] == "duplicate" and errors(client)[1]["clientSeq"] == 1
    again = Client(server, created["roomId"], created["token"], "p1")
    await again.connect()
    await again.wait_until(lambda: bool(again.messages))
    assert again.messages[0]["lastClientSeq"] == 1
    await client.close()
    await again.close()


async def test_dropped_frames_echo_their_client_seq(tmp_path: Any) -> None:
    server = ServerProcess(str(tmp_path / "echo.sqlite3"), extra=("--rate", "5"))
    server.start()
    api = Api(server)
    try:
        created = await api.create("race", "a")
        client = Client(server, created["roomId"], created["token"], "p1")
        await client.connect()
        await client.wait_until(lambda: bool(client.messages))
        frames = [
            {"type": "action", "clientSeq": 0, "action": {}},  # out of range
            {"type": "action", "clientSeq": 2**31, "action": {}},  # out of range
            {"type": "action", "clientSeq": 3, "action": "BUY"},  # not an object
            {
                "type": "action",
                "clientSeq": 4,
                "action": {"type": "x", "pad": "x" * 17000},
            },  # too large
        ]
        for frame in frames:
            await client.send(frame)
        await client.wait_until(lambda: len(errors(client)) == 4)
        assert [(e["code"], e["clientSeq"]) for e in errors(client)] == [
            ("invalid_message", 0),
            ("invalid_message", 2**31),
            ("invalid_message", 3),
            ("too_large", 4),
        ]
        for n in range(100, 140):  # far beyond 5 per second: most are dropped
            await client.send({"type": "action", "clientSeq": n, "action": {"type": "confirm"}})
        await client.wait_until(lambda: len(errors(client)) >= 4 + 40 - 10)
        limited = [e for e in errors(client)[4:] if e["code"] == "rate_limited"]
        assert limited and all(100 <= e["clientSeq"] < 140 for e in limited)
        assert len({e["clientSeq"] for e in limited}) == len(limited)  # each names its own frame
    finally:
        await api.close()
        server.stop()


async def test_the_socket_takes_the_join_code_as_well_as_the_room_id(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a")
    for ref in (created["code"], created["code"].lower(), created["roomId"]):
        client = Client(server, ref, created["token"], "p1")
        await client.connect()
        await client.wait_until(lambda c=client: bool(c.messages))
        assert (
            client.messages[0]["type"] == "snapshot"
            and client.messages[0]["room"]["roomId"] == created["roomId"]
        )
        await client.close()


async def test_bodies_must_be_json_with_known_fields(server: ServerProcess, api: Api) -> None:
    body = json.dumps({"game": "race", "nickname": "수진"}).encode()
    r = await api.http.post("/api/rooms", content=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
    r = await api.http.post("/api/rooms", content=body)  # no Content-Type at all
    assert r.status_code == 415
    r = await api.http.post(
        "/api/rooms", content=body, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert r.status_code == 201, r.text
    r = await api.http.post(
        "/api/rooms", json={"game": "race", "nickname": "민호", "colour": "red"}
    )
    error = r.json()["error"]
    assert (
        r.status_code == 400
        and error["code"] == "invalid_body"
        and error["detail"] == {"field": "colour"}
    )
    assert (
        len((await api.http.get("/api/rooms")).json()["rooms"]) == 1
    )  # the refused ones made nothing


async def test_a_host_kicking_themselves_gets_its_own_code(server: ServerProcess, api: Api) -> None:
    created = await api.create("race", "a")
    r = await api.host(
        "POST", f"/api/rooms/{created['code']}/kick", created["token"], {"playerId": "p1"}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_kick_self"
    r = await api.host(
        "POST", f"/api/rooms/{created['code']}/kick", created["token"], {"playerId": "p7"}
    )
    assert r.status_code == 404 and r.json()["error"]["code"] == "seat_not_found"


async def test_a_wrong_method_is_http_error_405(server: ServerProcess, api: Api) -> None:
    r = await api.http.delete("/api/rooms")
    assert r.status_code == 405 and r.json()["error"]["code"] == "http_error"
