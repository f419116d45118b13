"""``GET /api/rooms/{ref}/replay?match=N&viewer=...``: a finished match, frame by frame, as
one viewer saw it (docs/protocol.md, "Replay"; built by jokeapp/rooms/replay.py)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.replay import SPECTATOR, match_replay
from jokeapp.server.responses import INVALID_BODY, json_response, room_error


async def replay(request: Request) -> Response:
    manager: RoomManager = request.app.state.manager
    raw = request.query_params.get("match")
    if raw is not None and not (raw.isdigit() and len(raw) < 9):
        return room_error(RoomError(*INVALID_BODY))
    viewer = request.query_params.get("viewer", SPECTATOR)
    try:
        # the record is refused (409 record_not_ready) until the match is over
        record = await manager.record(
            request.path_params["ref"], int(raw) if raw is not None else None
        )
        return json_response(match_replay(manager.games()[record["game"]], record, viewer))
    except RoomError as exc:
        return room_error(exc)


ROUTE = Route("/api/rooms/{ref}/replay", replay, methods=["GET"])
