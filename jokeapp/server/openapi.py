"""The OpenAPI 3.1 document of the HTTP API, built from the protocol's message classes."""

from __future__ import annotations

from typing import Any

from jokeapp.server.protocol import PROTOCOL_VERSION, schema_components


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(name: str) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": _ref(name)}}}


def _op(summary: str, answer: str, *, body: str | None = None, auth: bool = False, status: str = "200",
        params: tuple[str, ...] = ("ref",)) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary,
        "responses": {
            status: {"description": "ok", **_json(answer)},
            "4XX": {"description": "refused; see docs/protocol.md for the codes", **_json("ErrorResponse")},
        },
    }
    parameters = [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}} for n in params]
    if parameters:
        op["parameters"] = parameters
    if body is not None:
        op["requestBody"] = {"required": True, **_json(body)}
    if auth:
        op["security"] = [{"token": []}]
    return op


def document() -> dict[str, Any]:
    _, components = schema_components()
    none: tuple[str, ...] = ()
    paths = {
        "/api/health": {"get": _op("health", "HealthResponse", params=none)},
        "/api/games": {"get": _op("the game catalogue", "GamesResponse", params=none)},
        "/api/rooms": {
            "get": _op("open rooms", "RoomListResponse", params=none),
            "post": _op("create a room", "CreateRoomResponse", body="CreateRoomRequest", status="201", params=none),
        },
        "/api/rooms/{ref}": {"get": _op("one room (by code or id)", "RoomInfo")},
        "/api/rooms/{ref}/join": {"post": _op("join as player or spectator", "JoinResponse", body="JoinRequest")},
        "/api/rooms/{ref}/leave": {"post": _op("leave", "OkResponse", auth=True)},
        "/api/rooms/{ref}/start": {"post": _op("start (host)", "RoomInfo", auth=True)},
        "/api/rooms/{ref}/bots": {"post": _op("add a bot (host)", "AddBotResponse", body="AddBotRequest", auth=True)},
        "/api/rooms/{ref}/bots/{player_id}": {
            "delete": _op("remove a bot (host)", "RoomInfo", auth=True, params=("ref", "player_id"))
        },
        "/api/rooms/{ref}/kick": {"post": _op("kick (host)", "RoomInfo", body="KickRequest", auth=True)},
        "/api/rooms/{ref}/options": {"put": _op("change options (host)", "RoomInfo", body="OptionsRequest", auth=True)},
        "/api/rooms/{ref}/rematch": {"post": _op("rematch (host)", "RoomInfo", auth=True)},
        "/api/rooms/{ref}/afk": {"post": _op("answer an AFK offer (host)", "RoomInfo", body="AfkRequest", auth=True)},
        "/api/rooms/{ref}/record": {
            "get": {
                **_op("the record of a finished match", "OkResponse"),
                "responses": {
                    "200": {"description": "the DESIGN.md game record",
                            "content": {"application/json": {"schema": {"type": "object"}}}},
                    "4XX": {"description": "refused", **_json("ErrorResponse")},
                },
            }
        },
    }
    paths["/api/rooms/{ref}/replay"] = {"get": _op("a finished match frame by frame, as one viewer saw it", "ReplayResponse")}
    paths["/api/rooms/{ref}/replay"]["get"]["parameters"] += [
        {"name": "match", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1}},
        {"name": "viewer", "in": "query", "required": False, "schema": {"type": "string", "default": "spectator"},
         "description": "a seat id (p1…), spectator, or all (every seat's view)"},
    ]
    paths["/api/rooms/{ref}/record"]["get"]["parameters"].append(
        {"name": "match", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1}}
    )
    return {
        "openapi": "3.1.0",
        "info": {"title": "joke-app room server", "version": str(PROTOCOL_VERSION)},
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
    }
