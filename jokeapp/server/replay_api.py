"""``GET /api/rooms/{ref}/replay?match=N&viewer=...``: a finished match, frame by frame, as
one viewer saw it (docs/protocol.md, "Replay"; built by jokeapp/rooms/replay.py)."""

from __future__ import annotations

import gzip
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from jokeapp.core.contract import Game
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.replay import SPECTATOR, match_replay

# A long card game seen by everyone is a few MB of JSON that repeats itself: gzip makes it
# about 2 % of that (8 players, 7 rounds: 4.4 MB -> 89 kB, 12 ms at level 5).
GZIP_LEVEL = 5
_encoder = msgspec.json.Encoder()


def _body(game: Game[Any], record: dict[str, Any], viewer: str, gzipped: bool) -> bytes:
    raw = _encoder.encode(match_replay(game, record, viewer))
    return gzip.compress(raw, GZIP_LEVEL) if gzipped else raw


async def replay(request: Request, body: None, token: str) -> Response:
    """The route's handler (its entry is in http_api.ENDPOINTS); refusals are RoomErrors."""
    manager: RoomManager = request.app.state.manager
    raw = request.query_params.get("match")
    if raw is not None and not (raw.isdigit() and len(raw) < 9):
        raise RoomError("invalid_body")
    viewer = request.query_params.get("viewer", SPECTATOR)
    gzipped = "gzip" in request.headers.get("accept-encoding", "")
    # the record is refused (409 record_not_ready) until the match is over
    match = int(raw) if raw is not None else None
    record = await manager.record(request.path_params["ref"], match)
    game = manager.games()[record["game"]]
    # Replaying a long game takes up to a few hundred ms of CPU: off the event loop, so the
    # live rooms' messages keep flowing meanwhile.
    content = await run_in_threadpool(_body, game, record, viewer, gzipped)
    headers = {"Vary": "Accept-Encoding"}
    if gzipped:
        headers["Content-Encoding"] = "gzip"
    return Response(content, media_type="application/json", headers=headers)
