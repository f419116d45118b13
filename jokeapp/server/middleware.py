"""The request id and the access line of every HTTP request and WebSocket (pure ASGI).

The id is nginx's ``X-Request-ID`` when it sends one (``proxy_set_header X-Request-ID
$request_id``, deploy/nginx.conf), else a fresh one; it is echoed in the response's
``X-Request-ID`` and is in every log line the request causes, in the rooms too. The access
line names the method, the path (never the query string), the status and the time taken.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jokeapp.telemetry import logs

log = logging.getLogger("jokeapp.access")

# The server's own ``send`` of a WebSocket, in its scope: a session writes its data frames
# straight to it (jokeapp.server.ws), past the layers that act only on the accept, the close
# and HTTP responses (this one's access status, Starlette's exception handlers).
RAW_SEND = "jokeapp.raw_send"

_VALID_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def _incoming_id(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = value.decode("latin-1")
            return text if _VALID_ID.fullmatch(text) else None
    return None


class RequestContext:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        request_id = _incoming_id(scope) or secrets.token_hex(8)
        reset = logs.REQUEST_ID.set(request_id)
        began = time.perf_counter()
        status: dict[str, Any] = {"status": None}

        async def send_with_id(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                status["status"] = message["status"]
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            elif kind == "websocket.accept":
                status["status"] = 101
            elif kind == "websocket.close" and status["status"] is None:
                status["status"] = 403  # refused before accepting
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if log.isEnabledFor(logging.INFO):
                log.info(
                    "request",
                    extra={
                        "method": scope.get("method", "WS"),
                        "path": scope["path"],
                        "status": status["status"],
                        "ms": round((time.perf_counter() - began) * 1000, 1),
                    },
                )
            logs.REQUEST_ID.reset(reset)
