"""End to end: a real uvicorn process, real WebSocket clients, full games of both games."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from jokeapp.core.record import verify_record
from jokeapp.games import get_game
from jokeapp.rooms.manager import installed_games
from tests.server.harness import (
    Api,
    Client,
    ServerProcess,
    dalmuti_policy,
    marble_policy,
    race_policy,
)

GAMES = installed_games()


def keys_in(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(key)
            found |= keys_in(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= keys_in(inner)
    return found


async def play_full_game(
    server: ServerProcess,
    api: Api,
    game: str,
    humans: int,
    bots: int,
    options: dict[str, Any],
    policy: Any,
) -> tuple[dict[str, Any], list[Client], Client, dict[str, Any]]:
    created = await api.create(game, "사람1", options)
    code, room_id, host = created["code"], created["roomId"], created["token"]
    seats = [(created["token"], created["playerId"])]
    for i in range(2, humans + 1):
        joined = await api.join(code, f"사람{i}")
        seats.append((joined["token"], joined["playerId"]))
    for i in range(bots):
        r = await api.host(
            "POST", f"/api/rooms/{code}/bots", host, {"policy": "heuristic" if i % 2 else "random"}
        )
        assert r.status_code == 200, r.text
    watcher_seat = await api.join(code, "구경꾼", "spectator")
    assert watcher_seat["playerId"] is None
    clients = [Client(server, room_id, token, pid, policy) for token, pid in seats]
    watcher = Client(server, room_id, watcher_seat["token"], None)
    for client in [*clients, watcher]:
        await client.connect()
    r = await api.host("POST", f"/api/rooms/{code}/start", host)
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    seed_hash = r.json()["seedHash"]
    await watcher.wait_until(lambda: watcher.status == "finished", timeout=240)
    r = await api.http.get(f"/api/rooms/{code}/record")
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["seedHash"] == seed_hash
    for client in [*clients, watcher]:
        await client.close()
    return record, clients, watcher, {"code": code, "host": host}


def assert_nothing_hidden_leaks(
    record: dict[str, Any], clients: list[Client], watcher: Client
) -> None:
    seed = str(record["seed"])
    for client in [*clients, watcher]:
        before_end = [
            t
            for t, m in zip(client.raw, client.messages, strict=True)
            if (m.get("room") or {}).get("status") != "finished"
        ]
        assert not any(seed in text for text in before_end), "seed sent before the end"
        for message in client.messages:
            keys = keys_in(message)
            assert not keys & {"rng", "deck", "seed", "hands"}, keys & {
                "rng",
                "deck",
                "seed",
                "hands",
            }
            for event in message.get("events", []):
                if event["type"] in ("taxPaid", "taxReturned") and client.player_id not in (
                    event["from"],
                    event["to"],
                ):
                    assert "cardIds" not in event, event
    # Each viewer's hand is theirs alone: every hand a viewer was sent is one its own seat held
    # at some point of the game (after setup or a step of the record), judged against the
    # record; and no update number names two moments (numbers_never_repeat).
    held: dict[str, set[frozenset[str]]] | None = None
    for client in [*clients, watcher]:
        for message in client.messages:
            view = message.get("view") or {}
            if "hand" in view and view["hand"]:
                if client.player_id is None:
                    raise AssertionError("a spectator was sent a hand")
                held = held if held is not None else hands_held(record)
                hand = frozenset(c["id"] for c in view["hand"])
                assert hand in held[client.player_id], (client.player_id, sorted(hand))
    assert_numbers_never_repeat([*clients, watcher])


def assert_numbers_never_repeat(clients: list[Client]) -> None:
    """Every client saw update numbers only rise, over all its sockets: a room restored from
    its log (a restart, another node taking it over) goes on above every number it sent."""
    for client in clients:
        numbers = [m["seq"] for m in client.messages if m["type"] == "update"]
        falls = [(a, b) for a, b in zip(numbers, numbers[1:], strict=False) if a >= b]
        assert not falls, (client.player_id, falls)


def hands_held(record: dict[str, Any]) -> dict[str, set[frozenset[str]]]:
    """Every hand each player held, as the game's own view shows it: after setup and after
    each step of the record."""
    game = get_game(record["game"])
    players = list(record["players"])
    state, _ = game.start(record["options"], players, int(record["seed"]))
    held: dict[str, set[frozenset[str]]] = {player: set() for player in players}

    def note() -> None:
        for player in players:
            hand = game.view(state, player).get("hand") or []
            held[player].add(frozenset(card["id"] for card in hand))

    note()
    for step in record.get("steps", []):
        game.apply(state, step["actor"], step["action"])
        note()
    return held


@pytest.mark.skipif("marble" not in GAMES, reason="marble engine not installed yet")
async def test_full_marble_game_between_clients_and_bots_with_a_spectator(
    server: ServerProcess, api: Api
) -> None:
    record, clients, watcher, _ = await play_full_game(
        server, api, "marble", 2, 2, {"maxRounds": 15}, marble_policy
    )
    assert verify_record(GAMES["marble"], record) == []
    assert record["result"]["ranking"] and len(record["players"]) == 4
    assert {s["actor"] for s in record["steps"] if not s["auto"]} >= {"p1", "p2"}
    assert_nothing_hidden_leaks(record, clients, watcher)
    assert (
        watcher.messages[0]["type"] == "snapshot"
        and watcher.messages[0]["you"]["role"] == "spectator"
    )


@pytest.mark.skipif("dalmuti" not in GAMES, reason="dalmuti engine not installed yet")
async def test_full_dalmuti_game_between_clients_and_bots_with_a_spectator(
    server: ServerProcess, api: Api
) -> None:
    record, clients, watcher, _ = await play_full_game(
        server, api, "dalmuti", 2, 3, {"rounds": 3}, dalmuti_policy
    )
    assert verify_record(GAMES["dalmuti"], record) == []
    assert len(record["result"]["ranking"]) == 5
    assert_nothing_hidden_leaks(record, clients, watcher)
    # spec 4.1: the opening draw is shown, so it must reach everyone with the start
    for client in [*clients, watcher]:
        start = next(
            m
            for m in client.messages
            if m["type"] == "update" and (m.get("room") or {}).get("status") == "playing"
        )
        assert [e["type"] for e in start["events"]] == ["firstRankDraw", "dealt"]


async def test_reconnecting_with_the_same_token_mid_game_keeps_the_seat(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a", {"turnSeconds": 30})
    joined = await api.join(created["code"], "b")
    one = Client(server, created["roomId"], created["token"], "p1", race_policy)
    two = Client(server, created["roomId"], joined["token"], "p2", None)
    await one.connect()
    await two.connect()
    await api.host("POST", f"/api/rooms/{created['code']}/start", created["token"])
    await two.act({"type": "confirm"})
    await two.wait_until(lambda: two.view and two.view["phase"] == "race")
    await two.close()
    await one.wait_until(
        lambda: any(
            (m.get("room") or {}).get("seats", [{}, {}])[1].get("connected") is False
            for m in one.messages
        )
    )
    again = Client(server, created["roomId"], joined["token"], "p2", race_policy)
    await again.connect()
    await again.wait_until(lambda: again.messages and again.messages[0]["type"] == "snapshot")
    snap = again.messages[0]
    assert (
        snap["you"]["playerId"] == "p2" and snap["lastClientSeq"] == 1 and snap["view"]["mySecret"]
    )
    await again.wait_until(lambda: again.status == "finished" or again.pending == [], timeout=30)
    await again._maybe_play()
    await one.wait_until(lambda: one.status == "finished", timeout=30)
    await one.close()
    await again.close()


async def test_a_second_connection_with_the_same_token_replaces_the_first(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a")
    first = Client(server, created["roomId"], created["token"], "p1")
    await first.connect()
    await first.wait_until(lambda: bool(first.messages))
    second = Client(server, created["roomId"], created["token"], "p1")
    await second.connect()
    await first.wait_until(lambda: first.task is not None and first.task.done(), timeout=10)
    assert first.messages[-1]["code"] == "replaced" and first.ws.close_code == 4409
    await second.wait_until(lambda: bool(second.messages))
    assert second.messages[0]["type"] == "snapshot"
    await second.close()


async def test_wrong_token_or_room_is_refused(server: ServerProcess, api: Api) -> None:
    created = await api.create("race", "a")
    for room_id, token in [(created["roomId"], "nope"), ("0000000000000000", created["token"])]:
        client = Client(server, room_id, token, None)
        await client.connect()
        await client.wait_until(lambda c=client: c.task is not None and c.task.done(), timeout=10)
        assert client.messages[0]["code"] == "bad_token" and client.ws.close_code == 4401


async def test_bad_websocket_input_gets_errors_and_the_connection_survives(
    server: ServerProcess, api: Api
) -> None:
    created = await api.create("race", "a")
    client = Client(server, created["roomId"], created["token"], "p1")
    await client.connect()
    frames = [
        "{",
        "[]",
        '{"type": "fly"}',
        '{"type": "action"}',
        '{"type": "action", "clientSeq": 0, "action": {}}',
        "x" * 17000,
        '{"type": "action", "clientSeq": 1, "action": {"type": "confirm"}}',
    ]
    for frame in frames:
        await client.ws.send(frame)
    await client.send({"type": "ping"})
    expected = [
        "bad_json",
        "invalid_message",
        "unknown_type",
        "invalid_message",
        "invalid_message",
        "too_large",
        "not_started",
    ]

    def errors() -> list[str]:
        return [m["code"] for m in client.messages if m["type"] == "error"]

    # The pong comes from the socket's reader, the last error from the room's task: either may
    # arrive first, so wait for both rather than for one of them.
    await client.wait_until(
        lambda: (
            len(errors()) >= len(expected) and any(m["type"] == "pong" for m in client.messages)
        ),
        timeout=10,
    )
    assert errors() == expected
    assert all(m["message"] for m in client.messages if m["type"] == "error")
    await client.close()


async def test_http_refusals_use_the_error_body(server: ServerProcess, api: Api) -> None:
    created = await api.create("race", "a")
    code = created["code"]
    cases = [
        ("POST", "/api/rooms", None, b"{", 400, "invalid_body"),
        (
            "POST",
            "/api/rooms",
            None,
            json.dumps({"game": "race", "nickname": ""}).encode(),
            400,
            "invalid_nickname",
        ),
        ("POST", "/api/rooms", None, b"x" * 20000, 413, "too_large"),
        ("GET", "/api/rooms/ZZZZZZ", None, b"", 404, "room_not_found"),
        ("POST", f"/api/rooms/{code}/start", "wrong", b"", 401, "bad_token"),
        ("POST", f"/api/rooms/{code}/start", None, b"", 401, "bad_token"),
        ("GET", f"/api/rooms/{code}/record", None, b"", 409, "record_not_ready"),
        ("GET", "/api/nothing", None, b"", 404, "not_found"),
    ]
    for method, path, token, body, status, error in cases:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body:
            headers["Content-Type"] = "application/json"
        r = await api.http.request(method, path, content=body, headers=headers)
        assert (r.status_code, r.json()["error"]["code"]) == (status, error), (path, r.text)
    joined = await api.join(code, "b")
    r = await api.host("POST", f"/api/rooms/{code}/start", joined["token"])
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    info = (await api.http.get(f"/api/rooms/{code}")).json()
    assert info["status"] == "lobby" and len(info["seats"]) == 2


async def test_catalogue_openapi_and_client_page(server: ServerProcess, api: Api) -> None:
    games = (await api.http.get("/api/games")).json()["games"]
    race = next(g for g in games if g["id"] == "race")
    assert race["minPlayers"] == 2 and race["options"][0]["key"] == "turnSeconds"
    doc = (await api.http.get("/openapi.json")).json()
    assert doc["openapi"].startswith("3.1") and "/api/rooms/{ref}/join" in doc["paths"]
    page = await api.http.get("/")
    assert page.status_code == 200 and "<html" in page.text
    listed = (await api.http.get("/api/rooms")).json()["rooms"]
    assert listed == []
    await api.create("race", "a")
    assert len((await api.http.get("/api/rooms")).json()["rooms"]) == 1
    await asyncio.sleep(0)


async def test_floods_are_rate_limited_and_huge_frames_close_the_socket(tmp_path: Any) -> None:
    server = ServerProcess(str(tmp_path / "rate.sqlite3"), extra=("--rate", "5"))
    server.start()
    api = Api(server)
    try:
        created = await api.create("race", "a")
        client = Client(server, created["roomId"], created["token"], "p1")
        await client.connect()
        for _ in range(40):
            await client.send({"type": "ping"})
        await client.wait_until(
            lambda: sum(m["type"] in ("pong", "error") for m in client.messages) >= 40
        )
        limited = [m for m in client.messages if m["type"] == "error"]
        assert limited and all(m["code"] == "rate_limited" for m in limited)
        assert any(m["type"] == "pong" for m in client.messages)
        await client.ws.send("x" * 100_000)
        await client.wait_until(lambda: client.task is not None and client.task.done(), timeout=10)
        assert client.ws.close_code == 1009
        assert (await api.http.get("/api/health")).status_code == 200
    finally:
        await api.close()
        server.stop()
