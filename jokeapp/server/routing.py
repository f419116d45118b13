"""In a cluster, a request for a room is served where the room runs: an ASGI layer in front
of the routes takes the room's reference from the path, asks the cluster where the room is
(taking it if nobody owns it), and forwards the request to its owner when that is another
node. Without a cluster it passes everything through untouched."""

from __future__ import annotations

import asyncio
import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from jokeapp.cluster.forward import FORWARDED, Forwarder
from jokeapp.cluster.node import ClusterNode, Remote
from jokeapp.core.errors import CodedError
from jokeapp.server.responses import error_response

ROOM_PATH = re.compile(r"^/api/rooms/([^/]+)")
MOVE_TRIES = 5  # looks for a room's owner while it moves (about 1.5 s in all)


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
        forwarder: Forwarder = scope["app"].state.forwarder
        answer: Response | None = None
        for attempt in range(MOVE_TRIES):
            if attempt:
                await asyncio.sleep(0.05 * 2**attempt)
            try:
                where = await cluster.locate(found.group(1))
            except CodedError as exc:
                await error_response(exc)(scope, receive, send)
                return
            if not isinstance(where, Remote):
                await self.app(scope, receive, send)
                return
            answer = await forwarder.forward(request, where.url)
            # The owner it asked had just let the room go (a hand-over, a stop) and refused
            # before doing anything: ask whoever owns it now.
            if answer is not None and not _moving(answer):
                break
        await (answer or error_response("room_moving"))(scope, receive, send)


def _moving(answer: Response) -> bool:
    return answer.status_code == 503 and b'"room_moving"' in answer.body
