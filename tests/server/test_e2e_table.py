"""End to end, the table around the game: the opening, who is connected, the host's AFK
choices, options before a rematch and nameless spectators (a real server, real sockets)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest

from jokeapp.rooms.manager import installed_games
from tests.server.harness import (
    Api,
    Client,
    ServerProcess,
    marble_policy,
    masked_text_frame,
    race_policy,
)

GAMES = installed_games()


def seat_of(message: dict[str, Any], player: str) -> dict[str, Any] | None:
    room = message.get("room") or {}
    return next((s for s in room.get("seats", []) if s["playerId"] == player), None)


async def test_the_opening_setup_events_reach_every_client(server: ServerProcess, api: Api) -> None:
    created = await api.create("race", "a")
    joined = await api.join(created["code"], "b")
    one = Client(server, created["roomId"], created["token"], "p1")
    await one.connect()
    await one.wait_until(lambda: bool(one.messages))
    r = await api.host("POST", f"/api/rooms/{created['code']}/start", created["token"])
    assert r.status_code == 200
    await one.wait_until(lambda: any(m["type"] == "update" and m["events"] for m in one.messages))
    first = next(
        m
        for m in one.messages
        if m["type"] == "update" and (m.get("room") or {}).get("status") == "playing"
    )
    assert first["events"] == [{"type": "dealt", "counts": {"p1": 1, "p2": 1}}]
    late = Client(server, created["roomId"], joined["token"], "p2")
    await late.connect()
    await late.wait_until(lambda: bool(late.messages))
    assert (
        late.messages[0]["type"] == "snapshot"
        and late.messages[0]["setupEvents"] == first["events"]
    )
    await one.close()
    await late.close()


async def _silent_socket(server: ServerProcess, room_id: str, token: str) -> asyncio.StreamWriter:
    """A WebSocket whose page died: it shook hands, then never reads or answers a ping."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(
        f"GET /ws/{room_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101")
    writer.write(masked_text_frame(json.dumps({"type": "auth", "token": token})))
    await writer.drain()
    return writer


async def test_a_page_that_dies_without_closing_shows_disconnected_within_8_seconds(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a", {"turnSeconds": 30})
    joined = await api.join(created["code"], "b")
    host = Client(server, created["roomId"], created["token"], "p1")
    await host.connect()
    silent = await _silent_socket(server, created["roomId"], joined["token"])
    try:
        await host.wait_until(
            lambda: any((seat_of(m, "p2") or {}).get("connected") for m in host.messages)
        )
        since = time.monotonic()
        await host.wait_until(
            lambda: (
                (
                    seat_of(next(m for m in reversed(host.messages) if m.get("room")), "p2") or {}
                ).get("connected")
                is False
            ),
            timeout=12,
        )
        assert time.monotonic() - since < 8
    finally:
        silent.close()
        with contextlib.suppress(Exception):
            await silent.wait_closed()
        await host.close()


@pytest.mark.skipif("marble" not in GAMES, reason="marble engine not installed yet")
async def test_the_host_answers_the_afk_offer_keep_then_kick_over_http(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("marble", "방장", {"maxRounds": 0, "turnSeconds": 15})
    code, host_token = created["code"], created["token"]
    joined = await api.join(code, "친구")
    host = Client(server, created["roomId"], host_token, "p1", marble_policy)
    friend = Client(server, created["roomId"], joined["token"], "p2")
    await host.connect()
    await friend.connect()
    await api.host("POST", f"/api/rooms/{code}/start", host_token)
    await friend.close()

    def offers() -> list[dict[str, Any]]:
        rooms = [m["room"] for m in host.messages if m.get("room")]
        return list(rooms[-1]["afkOffers"]) if rooms else []

    await host.wait_until(lambda: offers() != [] or host.status == "finished", timeout=90)
    assert offers() == [{"playerId": "p2", "rounds": 2}], host.status
    friend_seat = seat_of(next(m for m in reversed(host.messages) if m.get("room")), "p2")
    assert (
        friend_seat is not None
        and friend_seat["connected"] is False
        and friend_seat["away"] is True
    )
    r = await api.host(
        "POST", f"/api/rooms/{code}/afk", host_token, {"playerId": "p2", "choice": "keep"}
    )
    assert r.status_code == 200 and r.json()["afkOffers"] == [], r.text
    await host.wait_until(lambda: offers() != [] or host.status == "finished", timeout=90)
    assert offers() == [{"playerId": "p2", "rounds": 2}], host.status
    r = await api.host(
        "POST", f"/api/rooms/{code}/afk", host_token, {"playerId": "p2", "choice": "kick"}
    )
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    r = await api.host(
        "POST", f"/api/rooms/{code}/afk", host_token, {"playerId": "p2", "choice": "kick"}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_afk_offer"
    await host.close()


async def test_options_change_after_a_match_and_the_rematch_uses_them(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a", {"turnSeconds": 10})
    code, token = created["code"], created["token"]
    await api.host("POST", f"/api/rooms/{code}/bots", token, {"policy": "heuristic"})
    host = Client(server, created["roomId"], token, "p1", race_policy)
    await host.connect()
    await api.host("POST", f"/api/rooms/{code}/start", token)
    r = await api.host("PUT", f"/api/rooms/{code}/options", token, {"options": {"turnSeconds": 30}})
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"
    await host.wait_until(lambda: host.status == "finished", timeout=30)
    r = await api.host("PUT", f"/api/rooms/{code}/options", token, {"options": {"turnSeconds": 30}})
    assert r.status_code == 200 and r.json()["options"]["turnSeconds"] == 30, r.text
    r = await api.host("POST", f"/api/rooms/{code}/rematch", token)
    assert (
        r.status_code == 200 and r.json()["match"] == 2 and r.json()["options"]["turnSeconds"] == 30
    )
    await host.wait_until(lambda: host.status == "finished", timeout=30)
    record = (await api.http.get(f"/api/rooms/{code}/record?match=2")).json()
    assert record["options"]["turnSeconds"] == 30
    await host.close()


async def test_a_spectator_may_join_without_a_nickname_a_player_may_not(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a")
    code = created["code"]
    r = await api.http.post(f"/api/rooms/{code}/join", json={"role": "spectator"})
    assert r.status_code == 200 and r.json()["playerId"] is None, r.text
    watcher = Client(server, created["roomId"], r.json()["token"], None)
    await watcher.connect()
    await watcher.wait_until(lambda: bool(watcher.messages))
    assert watcher.messages[0]["you"]["nickname"] == "관전자 1"
    r = await api.http.post(f"/api/rooms/{code}/join", json={"nickname": "", "role": "player"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_nickname"
    await watcher.close()
