"""The HTTP API (docs/protocol.md): catalogue, rooms, joining, host commands, records.

Each route is described once, in ``ENDPOINTS``: method, path, summary, request body, answer,
whether it needs the Bearer token. The Starlette routes and the OpenAPI document
(openapi.py) are both built from it, and the wrapper enforces what it declares: a route
with a ``body`` gets that Struct decoded (JSON only, no unknown field), one with ``auth``
gets the token.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from jokeapp.cluster.forward import FORWARDED, Forwarder
from jokeapp.cluster.node import ClusterNode
from jokeapp.core.errors import CodedError
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import OPEN_ROOMS_LIMIT, RoomManager
from jokeapp.server import replay_api
from jokeapp.server.responses import error_response, json_response
from jokeapp.wire import protocol as p

# handler(request, body decoded to the endpoint's ``body`` Struct or None, token or "")
Handler = Callable[[Request, Any, str], Awaitable[Response]]


@dataclass(frozen=True)
class QueryParam:
    name: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    handler: Handler
    summary: str
    answer: type | None  # the 2xx body's Struct; None: a free-form JSON object
    answer_text: str = "ok"
    body: type | None = None
    auth: bool = False
    status: int = 200
    query: tuple[QueryParam, ...] = ()
    # other answers than the 2xx and the 4XX refusals: (status, what it means), same ``answer``
    also: tuple[tuple[int, str], ...] = ()


def _manager(request: Request) -> RoomManager:
    manager: RoomManager = request.app.state.manager
    return manager


def _is_json(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


async def _body(request: Request, kind: type[Any]) -> Any:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > p.MAX_MESSAGE_BYTES:
        raise RoomError("too_large")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > p.MAX_MESSAGE_BYTES:
            raise RoomError("too_large")
    if not raw:
        raw = b"{}"  # no body at all: every field takes its default
    elif not _is_json(request.headers.get("content-type", "")):
        raise RoomError("unsupported_media_type")
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise RoomError("invalid_body") from exc
    if isinstance(data, dict):
        known = set(kind.__struct_encode_fields__)
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise RoomError("invalid_body", {"field": unknown[0]})
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as exc:
        raise RoomError("invalid_body") from exc


def _token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RoomError("bad_token")
    return token.strip()


def _route(endpoint: Endpoint) -> Route:
    """The Starlette route; every refusal becomes the shared error body, never a bare 500."""

    async def run(request: Request) -> Response:
        try:
            token = _token(request) if endpoint.auth else ""
            body = await _body(request, endpoint.body) if endpoint.body is not None else None
            return await endpoint.handler(request, body, token)
        except CodedError as exc:
            return error_response(exc)

    run.__name__ = endpoint.handler.__name__
    return Route(endpoint.path, run, methods=[endpoint.method])


async def _room_call(request: Request, command: cmd.Command) -> Any:
    room = await _manager(request).get(request.path_params["ref"])
    return await room.call(command)


async def health(request: Request, body: None, token: str) -> Response:
    node = request.app.state.settings.node
    return json_response(p.HealthResponse(ok=True, rooms=len(_manager(request).rooms), node=node))


async def ready(request: Request, body: None, token: str) -> Response:
    ok, checks = await request.app.state.readiness.check()
    node = request.app.state.settings.node
    return json_response(p.ReadyResponse(ok=ok, node=node, checks=checks), 200 if ok else 503)


async def games(request: Request, body: None, token: str) -> Response:
    return json_response(p.GamesResponse(games=_manager(request).catalogue()))


async def create_room(request: Request, body: p.CreateRoomRequest, token: str) -> Response:
    room, new_token, player_id = await _manager(request).create(
        body.game, body.options, body.nickname
    )
    return json_response(p.CreateRoomResponse(room.room_id, room.code, new_token, player_id), 201)


async def list_rooms(request: Request, body: None, token: str) -> Response:
    rooms = _manager(request).open_rooms()
    cluster: ClusterNode | None = request.app.state.cluster
    if cluster is not None and FORWARDED not in request.headers:
        others = [
            url for name, url in (await cluster.leases.nodes()).items() if name != cluster.name
        ]
        forwarder: Forwarder = request.app.state.forwarder
        rooms += await forwarder.gather(others, "/api/rooms", "rooms")
    return json_response(p.RoomListResponse(rooms=rooms[:OPEN_ROOMS_LIMIT]))


async def get_room(request: Request, body: None, token: str) -> Response:
    info: p.RoomInfo = await _room_call(request, cmd.Info())
    cluster = request.app.state.cluster  # the owner answers (a cluster forwards to it)
    if cluster is not None:
        info = msgspec.structs.replace(info, node=cluster.name)
    return json_response(info)


async def join_room(request: Request, body: p.JoinRequest, token: str) -> Response:
    room = await _manager(request).get(request.path_params["ref"])
    new_token, player_id = await room.call(cmd.Join(body.nickname, body.role))
    return json_response(p.JoinResponse(room.room_id, room.code, new_token, player_id))


async def leave_room(request: Request, body: None, token: str) -> Response:
    await _room_call(request, cmd.Leave(token))
    return json_response(p.OkResponse())


async def start(request: Request, body: None, token: str) -> Response:
    return json_response(await _room_call(request, cmd.Start(token)))


async def add_bot(request: Request, body: p.AddBotRequest, token: str) -> Response:
    player_id = await _room_call(request, cmd.AddBot(token, body.policy))
    return json_response(p.AddBotResponse(player_id))


async def remove_bot(request: Request, body: None, token: str) -> Response:
    return json_response(
        await _room_call(request, cmd.RemoveBot(token, request.path_params["player_id"]))
    )


async def kick(request: Request, body: p.KickRequest, token: str) -> Response:
    return json_response(await _room_call(request, cmd.Kick(token, body.player_id)))


async def set_options(request: Request, body: p.OptionsRequest, token: str) -> Response:
    return json_response(await _room_call(request, cmd.SetOptions(token, body.options)))


async def rematch(request: Request, body: None, token: str) -> Response:
    return json_response(await _room_call(request, cmd.Rematch(token)))


async def afk(request: Request, body: p.AfkRequest, token: str) -> Response:
    return json_response(
        await _room_call(request, cmd.AfkAnswer(token, body.player_id, body.choice))
    )


async def record(request: Request, body: None, token: str) -> Response:
    raw = request.query_params.get("match")
    if raw is not None and not (raw.isdigit() and len(raw) < 9):
        return error_response("invalid_body")
    match = int(raw) if raw is not None else None
    return json_response(await _manager(request).record(request.path_params["ref"], match))


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", "/api/health", health, "liveness: the process serves", p.HealthResponse),
    Endpoint(
        "GET",
        "/api/ready",
        ready,
        "readiness: the database (and Redis, in a cluster) answer",
        p.ReadyResponse,
        answer_text="ready",
        also=((503, "not ready: a dependency did not answer (see checks)"),),
    ),
    Endpoint("GET", "/api/games", games, "the game catalogue", p.GamesResponse),
    Endpoint(
        "POST",
        "/api/rooms",
        create_room,
        "create a room",
        p.CreateRoomResponse,
        body=p.CreateRoomRequest,
        status=201,
    ),
    Endpoint("GET", "/api/rooms", list_rooms, "open rooms", p.RoomListResponse),
    Endpoint("GET", "/api/rooms/{ref}", get_room, "one room (by code or id)", p.RoomInfo),
    Endpoint(
        "POST",
        "/api/rooms/{ref}/join",
        join_room,
        "join as player or spectator",
        p.JoinResponse,
        body=p.JoinRequest,
    ),
    Endpoint("POST", "/api/rooms/{ref}/leave", leave_room, "leave", p.OkResponse, auth=True),
    Endpoint("POST", "/api/rooms/{ref}/start", start, "start (host)", p.RoomInfo, auth=True),
    Endpoint(
        "POST",
        "/api/rooms/{ref}/bots",
        add_bot,
        "add a bot (host)",
        p.AddBotResponse,
        body=p.AddBotRequest,
        auth=True,
    ),
    Endpoint(
        "DELETE",
        "/api/rooms/{ref}/bots/{player_id}",
        remove_bot,
        "remove a bot (host)",
        p.RoomInfo,
        auth=True,
    ),
    Endpoint(
        "POST",
        "/api/rooms/{ref}/kick",
        kick,
        "kick (host)",
        p.RoomInfo,
        body=p.KickRequest,
        auth=True,
    ),
    Endpoint(
        "PUT",
        "/api/rooms/{ref}/options",
        set_options,
        "change options (host)",
        p.RoomInfo,
        body=p.OptionsRequest,
        auth=True,
    ),
    Endpoint("POST", "/api/rooms/{ref}/rematch", rematch, "rematch (host)", p.RoomInfo, auth=True),
    Endpoint(
        "POST",
        "/api/rooms/{ref}/afk",
        afk,
        "answer an AFK offer (host)",
        p.RoomInfo,
        body=p.AfkRequest,
        auth=True,
    ),
    Endpoint(
        "GET",
        "/api/rooms/{ref}/record",
        record,
        "the record of a finished match",
        None,
        answer_text="the DESIGN.md game record",
        query=(QueryParam("match", {"type": "integer", "minimum": 1}),),
    ),
    Endpoint(
        "GET",
        "/api/rooms/{ref}/replay",
        replay_api.replay,
        "a finished match frame by frame, as one viewer saw it",
        p.ReplayResponse,
        query=(
            QueryParam("match", {"type": "integer", "minimum": 1}),
            QueryParam(
                "viewer",
                {
                    "type": "string",
                    "default": "spectator",
                    "description": "a seat id (p1…), spectator, or all (every seat's view)",
                },
            ),
        ),
    ),
)

ROUTES = [_route(endpoint) for endpoint in ENDPOINTS]
