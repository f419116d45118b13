"""Crash safety: SIGKILL the server mid-game, start it again on the same database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jokeapp.core.record import verify_record
from jokeapp.rooms.manager import installed_games
from tests.rooms.fakegame import GAME as RACE
from tests.server.harness import (
    Api,
    Client,
    ServerProcess,
    dalmuti_policy,
    marble_policy,
    race_policy,
)

GAMES = {"race": RACE, **installed_games()}
POLICIES = {"race": race_policy, "marble": marble_policy, "dalmuti": dalmuti_policy}
TABLES = [
    ("race", 2, 0, {"turnSeconds": 30}),
    ("marble", 2, 2, {"maxRounds": 15}),
    ("dalmuti", 1, 3, {"rounds": 1}),
]


async def open_table(
    server: ServerProcess, api: Api, game: str, humans: int, bots: int, options: dict[str, Any]
) -> tuple[str, list[Client]]:
    created = await api.create(game, "h1", options)
    code = created["code"]
    seats = [(created["token"], created["playerId"])]
    for i in range(2, humans + 1):
        joined = await api.join(code, f"h{i}")
        seats.append((joined["token"], joined["playerId"]))
    for _ in range(bots):
        await api.host("POST", f"/api/rooms/{code}/bots", created["token"], {"policy": "heuristic"})
    clients = [Client(server, created["roomId"], t, pid, POLICIES[game]) for t, pid in seats]
    for client in clients:
        await client.connect()
    r = await api.host("POST", f"/api/rooms/{code}/start", created["token"])
    assert r.status_code == 200, r.text
    return code, clients


@pytest.mark.skipif(not {"marble", "dalmuti"} <= set(GAMES), reason="engines not installed yet")
async def test_sigkill_mid_game_loses_no_acknowledged_action(tmp_path: Path) -> None:
    server = ServerProcess(str(tmp_path / "crash.sqlite3"), bot_delay=0.05)
    server.start()
    api = Api(server)
    try:
        tables = [await open_table(server, api, *spec) for spec in TABLES]
        # Crash once some actions are acknowledged (what the test checks), not after a fixed
        # sleep that a loaded machine may not fill.
        longest = [c for _, clients in tables[1:] for c in clients]
        await longest[0].wait_until(lambda: sum(len(c.acked) for c in longest) >= 3, timeout=60)
        playing = [c.status for _, clients in tables for c in clients]
        server.kill()
        assert "playing" in playing, "every game ended before the crash: nothing to recover"
        await api.close()
        acked = {(code, c.player_id): list(c.acked) for code, clients in tables for c in clients}
        assert any(acked.values()), "nothing was played before the crash"
        for _, clients in tables:
            for client in clients:
                await client.close()

        server.start()
        api = Api(server)
        after: list[tuple[str, list[Client]]] = []
        for code, clients in tables:
            again = [Client(server, c.room_id, c.token, c.player_id, c.policy) for c in clients]
            for client in again:
                await client.connect()
            after.append((code, again))
        for code, clients in after:
            for client in clients:
                await client.wait_until(lambda c=client: bool(c.messages))
                snap = client.messages[0]
                assert snap["type"] == "snapshot"
                mine = acked[(code, client.player_id)]
                assert snap["lastClientSeq"] >= max((seq for seq, _ in mine), default=0)
                await client._maybe_play()
        for code, clients in after:
            await clients[0].wait_until(lambda c=clients[0]: c.status == "finished", timeout=240)
            record = (await api.http.get(f"/api/rooms/{code}/record")).json()
            game = GAMES[record["game"]]
            assert verify_record(game, record) == []
            for client in clients:
                theirs = [
                    s["action"]
                    for s in record["steps"]
                    if s["actor"] == client.player_id and not s["auto"]
                ]
                acknowledged = [action for _, action in acked[(code, client.player_id)]]
                assert theirs[: len(acknowledged)] == acknowledged
            for client in clients:
                await client.close()
    finally:
        await api.close()
        server.stop()
