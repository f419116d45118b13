"""GET /api/rooms/{ref}/replay: a finished match frame by frame as one viewer saw it, built by
the server from the log (the client re-implements no rule). In-process: a fake clock, the
memory store, the real routes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest
from starlette.applications import Starlette

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager, installed_games
from jokeapp.server import http_api
from jokeapp.store.memory import MemoryStore
from jokeapp.wire.protocol import ReplayResponse
from tests.rooms.conftest import FakeConn, run_until_over

GAMES = installed_games()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def manager(clock: FakeClock) -> AsyncIterator[RoomManager]:
    mgr = RoomManager(MemoryStore(), clock, bot_delay=1.0, games=lambda: GAMES)
    yield mgr
    await mgr.close()


@pytest.fixture
async def http(manager: RoomManager) -> AsyncIterator[httpx.AsyncClient]:
    app = Starlette(routes=http_api.ROUTES)
    app.state.manager = manager
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://t"
    ) as client:
        yield client


class Table:
    """A room of one person (p1, played by the clock) and bots, watched by a spectator."""

    def __init__(self, manager: RoomManager, clock: FakeClock) -> None:
        self.manager = manager
        self.clock = clock

    async def start(self, game: str, options: dict[str, Any], bots: int) -> None:
        self.room, host, _ = await self.manager.create(game, options, "수진")
        for _ in range(bots):
            await self.room.call(cmd.AddBot(host, "heuristic"))
        watch, _ = await self.room.call(cmd.Join("", "spectator"))
        self.p1, self.watcher = FakeConn(), FakeConn()
        await self.room.call(cmd.Connect(self.p1, host))
        await self.room.call(cmd.Connect(self.watcher, watch))
        await self.room.call(cmd.Start(host))

    async def finish(self) -> None:
        await run_until_over(self.manager, self.clock, self.room)


def live_frames(conn: FakeConn) -> list[dict[str, Any]]:
    """What a connection was sent for the match: the start update, then one update per step."""
    updates = conn.of_type("update")
    start = next(i for i, u in enumerate(updates) if (u["room"] or {}).get("status") == "playing")
    steps = [u for u in updates[start + 1 :] if u["actor"] is not None]
    return [
        {"actor": u["actor"], "auto": u["auto"], "events": u["events"], "view": u["view"]}
        for u in [updates[start], *steps]
    ]


async def replay(http: httpx.AsyncClient, code: str, **params: Any) -> dict[str, Any]:
    r = await http.get(f"/api/rooms/{code}/replay", params=params)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    msgspec.convert(body, ReplayResponse)  # the wire type the client's types come from
    return body


@pytest.mark.parametrize(
    ("game", "options", "bots"), [("dalmuti", {"rounds": 1}, 3), ("marble", {"maxRounds": 15}, 1)]
)
async def test_a_viewers_replay_is_what_that_viewer_was_sent_live_step_by_step(
    manager: RoomManager,
    clock: FakeClock,
    http: httpx.AsyncClient,
    game: str,
    options: dict[str, Any],
    bots: int,
) -> None:
    table = Table(manager, clock)
    await table.start(game, options, bots)
    await table.finish()
    for conn, viewer in ((table.p1, "p1"), (table.watcher, "spectator")):
        body = await replay(http, table.room.code, viewer=viewer, match=1)
        assert (
            body["viewer"] == viewer and body["game"] == game and body["nicknames"]["p1"] == "수진"
        )
        live = live_frames(conn)
        assert len(body["frames"]) == len(live) > 1
        for index, (frame, sent) in enumerate(zip(body["frames"], live, strict=True)):
            assert frame == sent, (viewer, index)
    assert body["frames"][0]["actor"] is None
    assert body["frames"][-1]["view"]["result"] == body["result"] is not None


async def test_replays_are_refused_while_the_match_is_playing(
    manager: RoomManager, clock: FakeClock, http: httpx.AsyncClient
) -> None:
    table = Table(manager, clock)
    await table.start("dalmuti", {"rounds": 1}, 3)
    for viewer in ("all", "p1", "spectator"):
        r = await http.get(f"/api/rooms/{table.room.code}/replay", params={"viewer": viewer})
        assert r.status_code == 409 and r.json()["error"]["code"] == "record_not_ready", r.text
    r = await http.get(f"/api/rooms/{table.room.code}/replay", params={"viewer": "all", "match": 1})
    assert r.status_code == 409, r.text


async def test_a_finished_card_game_hides_the_others_hands_except_in_the_all_replay(
    manager: RoomManager, clock: FakeClock, http: httpx.AsyncClient
) -> None:
    table = Table(manager, clock)
    await table.start("dalmuti", {"rounds": 1}, 3)
    await table.finish()
    code = table.room.code
    spectator = await replay(http, code)  # the spectator's by default
    assert spectator["viewer"] == "spectator"
    mine = await replay(http, code, viewer="p1")
    everyone = await replay(http, code, viewer="all")
    for frame in spectator["frames"]:
        assert frame["view"]["hand"] is None and "seatViews" not in frame and "action" not in frame
        for event in frame["events"]:
            assert "cardIds" not in event or event["type"] not in ("taxPaid", "taxReturned"), event
    for frame in mine["frames"]:
        for event in frame["events"]:
            if event["type"] in ("taxPaid", "taxReturned") and "p1" not in (
                event["from"],
                event["to"],
            ):
                assert "cardIds" not in event, event
    assert any(frame["view"]["hand"] for frame in mine["frames"])
    players = everyone["players"]
    per_seat = {p: (await replay(http, code, viewer=p))["frames"] for p in players}
    for index, frame in enumerate(everyone["frames"]):
        assert frame["view"] == spectator["frames"][index]["view"]
        assert frame["action"] == (None if index == 0 else frame["action"])
        for p in players:
            # each seat's own view is the spectator's with that seat's differences
            assert {**frame["view"], **frame["seatViews"][p]} == per_seat[p][index]["view"], (
                index,
                p,
            )
    hands = [{c["id"] for c in everyone["frames"][1]["seatViews"][p]["hand"]} for p in players]
    assert sum(len(h) for h in hands) == len(set().union(*hands)) > 0


async def test_an_unknown_viewer_or_a_bad_match_number_is_refused(
    manager: RoomManager, clock: FakeClock, http: httpx.AsyncClient
) -> None:
    table = Table(manager, clock)
    await table.start("dalmuti", {"rounds": 1}, 3)
    await table.finish()
    code = table.room.code
    r = await http.get(f"/api/rooms/{code}/replay", params={"viewer": "p7"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "seat_not_found"
    r = await http.get(f"/api/rooms/{code}/replay", params={"match": "x"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_body"
    r = await http.get(f"/api/rooms/{code}/replay", params={"match": 2})
    assert r.status_code == 409 and r.json()["error"]["code"] == "record_not_ready"
    r = await http.get("/api/rooms/NOROOM/replay")
    assert r.status_code == 404 and r.json()["error"]["code"] == "room_not_found"


async def test_the_replay_is_gzipped_for_a_client_that_takes_it(
    manager: RoomManager, clock: FakeClock, http: httpx.AsyncClient
) -> None:
    table = Table(manager, clock)
    await table.start("dalmuti", {"rounds": 1}, 3)
    await table.finish()
    path = f"/api/rooms/{table.room.code}/replay?viewer=all"
    zipped = await http.get(path, headers={"Accept-Encoding": "gzip"})
    plain = await http.get(path, headers={"Accept-Encoding": "identity"})
    assert zipped.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert zipped.json() == plain.json()  # httpx unzips
    assert int(zipped.headers["content-length"]) * 5 < int(plain.headers["content-length"])
