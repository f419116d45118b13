"""In a cluster, a request for a room is served where the room runs: an ASGI layer in front
of the routes takes the room's reference from the path, asks the cluster where the room is
(taking it if nobody owns it), and forwards the request to its owner when that is another
node. Without a cluster it passes everything through untouched."""

from __future__ import annotations

import asyncio
import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
        body = await request.body()
        answer: Response | list[Message] | None = None
        for attempt in range(MOVE_TRIES):
            if attempt:
                await asyncio.sleep(0.05 * 2**attempt)
            try:
                where = await cluster.locate(found.group(1))
            except CodedError as exc:
                await error_response(exc)(scope, receive, send)
                return
            if isinstance(where, Remote):
                with cluster.watching(where.node) as gone:  # a frozen owner: ask again
                    answer = await forwarder.forward(request, where.url, gone)
                moving = answer is None or _moving(answer.status_code, bytes(answer.body))
            else:
                answer = await self._here(scope, receive, body)
                moving = _moving(*_status_and_body(answer))
            # The owner (another node, or this one) had just let the room go (a hand-over, a
            # stop) and refused before doing anything: ask whoever owns it now.
            if not moving:
                break
        if isinstance(answer, list):
            for message in answer:
                await send(message)
            return
        await (answer or error_response("room_moving"))(scope, receive, send)

    async def _here(self, scope: Scope, receive: Receive, body: bytes) -> list[Message]:
        """The routes' answer on this node, kept (not sent yet): a ``room_moving`` one is
        asked again of the room's next owner, as a forwarded one is."""
        sent: list[Message] = []
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the client's disconnect, if it comes

        async def keep(message: Message) -> None:
            sent.append(message)

        await self.app(scope, replay, keep)
        return sent


def _status_and_body(messages: list[Message]) -> tuple[int, bytes]:
    status = next((m["status"] for m in messages if m["type"] == "http.response.start"), 0)
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return int(status), body


def _moving(status: int, body: bytes) -> bool:
    return status == 503 and b'"room_moving"' in body
