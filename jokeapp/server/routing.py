"""In a cluster, a request for a room is served where the room runs: an ASGI layer in front
of the routes takes the room's reference from the path, asks the cluster where the room is
(taking it if nobody owns it), and forwards the request to its owner when that is another
node. Without a cluster it passes everything through untouched."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from jokeapp.cluster.forward import FORWARDED, Forwarder
from jokeapp.cluster.node import ClusterNode, Remote
from jokeapp.core.errors import CodedError
from jokeapp.server.responses import error_response

ROOM_PATH = re.compile(r"^/api/rooms/([^/]+)")


class ClusterRouting:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster: ClusterNode | None = getattr(scope["app"].state, "cluster", None)
        found = ROOM_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
        if cluster is None or found is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        if FORWARDED in request.headers:
            await self.app(scope, receive, send)  # sent here as the owner: answer, never again
            return
        try:
            where = await cluster.locate(found.group(1))
        except CodedError as exc:
            await error_response(exc)(scope, receive, send)
            return
        if not isinstance(where, Remote):
            await self.app(scope, receive, send)
            return
        forwarder: Forwarder = scope["app"].state.forwarder
        answer = await forwarder.forward(request, where.url)
        await (answer or error_response("room_moving"))(scope, receive, send)
