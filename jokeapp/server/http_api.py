"""The HTTP API (docs/protocol.md): catalogue, rooms, joining, host commands, records."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.server import protocol as p
from jokeapp.server import replay_api
from jokeapp.server.responses import (
    INVALID_BODY,
    TOO_LARGE,
    UNAUTHORIZED,
    error_response,
    json_response,
    room_error,
)

T = TypeVar("T")
Handler = Callable[[Request], Awaitable[Response]]


def _manager(request: Request) -> RoomManager:
    manager: RoomManager = request.app.state.manager
    return manager


async def _body(request: Request, kind: type[T]) -> T:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > p.MAX_MESSAGE_BYTES:
        raise RoomError(*TOO_LARGE)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > p.MAX_MESSAGE_BYTES:
            raise RoomError(*TOO_LARGE)
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise RoomError(*INVALID_BODY) from exc


def _token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RoomError(*UNAUTHORIZED)
    return token.strip()


def guarded(handler: Handler) -> Handler:
    """Turns every refusal into the shared error body; nothing escapes as a bare 500."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except RoomError as exc:
            return room_error(exc)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


async def _room_call(request: Request, command: cmd.Command) -> Any:
    room = await _manager(request).get(request.path_params["ref"])
    return await room.call(command)


@guarded
async def health(request: Request) -> Response:
    return json_response(p.HealthResponse(ok=True, rooms=len(_manager(request).rooms)))


@guarded
async def games(request: Request) -> Response:
    return json_response({"games": _manager(request).catalogue()})


@guarded
async def create_room(request: Request) -> Response:
    body = await _body(request, p.CreateRoomRequest)
    room, token, player_id = await _manager(request).create(body.game, body.options, body.nickname)
    return json_response(p.CreateRoomResponse(room.room_id, room.code, token, player_id), 201)


@guarded
async def list_rooms(request: Request) -> Response:
    return json_response({"rooms": _manager(request).open_rooms()})


@guarded
async def get_room(request: Request) -> Response:
    return json_response(await _room_call(request, cmd.Info()))


@guarded
async def join_room(request: Request) -> Response:
    body = await _body(request, p.JoinRequest)
    room = await _manager(request).get(request.path_params["ref"])
    token, player_id = await room.call(cmd.Join(body.nickname, body.role))
    return json_response(p.JoinResponse(room.room_id, room.code, token, player_id))


@guarded
async def leave_room(request: Request) -> Response:
    await _room_call(request, cmd.Leave(_token(request)))
    return json_response(p.OkResponse())


@guarded
async def start(request: Request) -> Response:
    return json_response(await _room_call(request, cmd.Start(_token(request))))


@guarded
async def add_bot(request: Request) -> Response:
    token = _token(request)
    body = await _body(request, p.AddBotRequest)
    player_id = await _room_call(request, cmd.AddBot(token, body.policy))
    return json_response(p.AddBotResponse(player_id))


@guarded
async def remove_bot(request: Request) -> Response:
    command = cmd.RemoveBot(_token(request), request.path_params["player_id"])
    return json_response(await _room_call(request, command))


@guarded
async def kick(request: Request) -> Response:
    token = _token(request)
    body = await _body(request, p.KickRequest)
    return json_response(await _room_call(request, cmd.Kick(token, body.player_id)))


@guarded
async def set_options(request: Request) -> Response:
    token = _token(request)
    body = await _body(request, p.OptionsRequest)
    return json_response(await _room_call(request, cmd.SetOptions(token, body.options)))


@guarded
async def rematch(request: Request) -> Response:
    return json_response(await _room_call(request, cmd.Rematch(_token(request))))


@guarded
async def afk(request: Request) -> Response:
    token = _token(request)
    body = await _body(request, p.AfkRequest)
    return json_response(await _room_call(request, cmd.AfkAnswer(token, body.player_id, body.choice)))


@guarded
async def record(request: Request) -> Response:
    raw = request.query_params.get("match")
    if raw is not None and not (raw.isdigit() and len(raw) < 9):
        return error_response(*INVALID_BODY)
    match = int(raw) if raw is not None else None
    return json_response(await _manager(request).record(request.path_params["ref"], match))


ROUTES = [
    Route("/api/health", health, methods=["GET"]),
    Route("/api/games", games, methods=["GET"]),
    Route("/api/rooms", create_room, methods=["POST"]),
    Route("/api/rooms", list_rooms, methods=["GET"]),
    Route("/api/rooms/{ref}", get_room, methods=["GET"]),
    Route("/api/rooms/{ref}/join", join_room, methods=["POST"]),
    Route("/api/rooms/{ref}/leave", leave_room, methods=["POST"]),
    Route("/api/rooms/{ref}/start", start, methods=["POST"]),
    Route("/api/rooms/{ref}/bots", add_bot, methods=["POST"]),
    Route("/api/rooms/{ref}/bots/{player_id}", remove_bot, methods=["DELETE"]),
    Route("/api/rooms/{ref}/kick", kick, methods=["POST"]),
    Route("/api/rooms/{ref}/options", set_options, methods=["PUT"]),
    Route("/api/rooms/{ref}/rematch", rematch, methods=["POST"]),
    Route("/api/rooms/{ref}/afk", afk, methods=["POST"]),
    Route("/api/rooms/{ref}/record", record, methods=["GET"]),
    replay_api.ROUTE,
]
