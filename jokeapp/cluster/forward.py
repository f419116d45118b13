"""Requests for a room another node owns: an HTTP request is sent on to the owner and its
answer returned as is; a WebSocket is relayed frame by frame to the owner's socket."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

FORWARDED = "x-joke-forwarded"  # set on a forwarded request: the owner never forwards it again
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "content-encoding",
    }
)
# The owner's close codes that mean "this room is not here (any more)": look it up again.
RELOCATE = frozenset({1001, 1006, 1011, 1012, 1013})


CLIENT_GONE = (WebSocketDisconnect, RuntimeError, OSError)


async def _first(task: asyncio.Future[Any], gone: asyncio.Event | None) -> bool:
    """Waits for ``task``, or for ``gone`` (then cancels the task): True if the task ended.
    Cancelled itself (the client left), it cancels the task too."""
    watching = asyncio.ensure_future(gone.wait()) if gone is not None else None
    try:
        await asyncio.wait(
            {task} if watching is None else {task, watching},
            return_when=asyncio.FIRST_COMPLETED,
        )
    finally:
        for pending in (task, watching):
            if pending is not None and not pending.done():
                pending.cancel()
    return task.done() and not task.cancelled()


def _ended(task: asyncio.Future[None]) -> BaseException | None | bool:
    """How a finished task ended: None (returned), its exception; False if cancelled."""
    if task.cancelled() or not task.done():
        return False
    return task.exception()


class Forwarder:
    def __init__(self, node: str, *, max_frame: int, timeout: float = 10.0) -> None:
        self.node = node
        self.max_frame = max_frame
        self.http = httpx.AsyncClient(timeout=timeout)

    async def close(self) -> None:
        await self.http.aclose()

    async def forward(
        self, request: Request, base: str, gone: asyncio.Event | None = None
    ) -> Response | None:
        """The owner's answer to the request; None if the owner could not be reached, or
        ``gone`` was set first (the owner stopped renewing its leases: frozen or dead)."""
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        headers[FORWARDED] = self.node
        asking = asyncio.ensure_future(
            self.http.request(
                request.method,
                base + request.url.path,
                params=list(request.query_params.multi_items()),
                content=await request.body(),
                headers=headers,
            )
        )
        if not await _first(asking, gone):
            return None
        try:
            answer = asking.result()
        except httpx.HTTPError:
            return None
        kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_BY_HOP}
        return Response(answer.content, answer.status_code, headers=kept)

    async def gather(self, urls: list[str], path: str, key: str) -> list[Any]:
        """The lists ``key`` of the JSON answers of ``GET url+path`` (other nodes' own
        share of something, asked for with FORWARDED so they answer for themselves only);
        a node that does not answer is left out."""

        async def one(url: str) -> list[Any]:
            try:
                answer = await self.http.get(url + path, headers={FORWARDED: self.node})
                found = answer.json().get(key) if answer.status_code == 200 else None
            except (httpx.HTTPError, ValueError):
                return []
            return list(found) if isinstance(found, list) else []

        parts = await asyncio.gather(*(one(url) for url in urls))
        return [item for part in parts for item in part]

    async def relay(
        self,
        client: WebSocket,
        base: str,
        pending: list[Any],
        opening: tuple[str, ...] = (),
        gone: asyncio.Event | None = None,
    ) -> bool:
        """Pipes the accepted ``client`` socket to the owner's until one side ends. True: the
        client is gone or was closed by the owner for good; False: the owner's side went away
        (it died, let the room go, or ``gone`` was set: it stopped renewing its leases) and
        the client is still open: find the room again. ``opening``: frames every new owner's
        socket gets first (an authentication read from the client once); ``pending``: the
        client's frames not yet sent anywhere, next."""
        url = "ws" + base.removeprefix("http") + client.url.path
        if client.url.query:
            url += "?" + client.url.query
        try:
            upstream = await connect(
                url,
                additional_headers={FORWARDED: self.node},
                max_size=self.max_frame,
                open_timeout=3,
                compression=None,
            )
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError):
            return False
        async with upstream:
            try:
                for frame in (*opening, *pending):
                    await upstream.send(frame)
            except ConnectionClosed:
                return False  # gone already: the pending frames wait for the next owner
            pending.clear()
            return await self._pipe(client, upstream, pending, gone)

    async def _pipe(
        self,
        client: WebSocket,
        upstream: ClientConnection,
        pending: list[Any],
        gone: asyncio.Event | None,
    ) -> bool:
        async def up() -> None:
            while True:
                message = await client.receive()
                if message["type"] == "websocket.disconnect":
                    return
                frame = message.get("text")
                frame = frame if frame is not None else message.get("bytes") or b""
                try:
                    await upstream.send(frame)
                except ConnectionClosed:
                    pending.append(frame)  # the owner went away meanwhile: the next one gets it
                    raise

        async def down() -> None:
            async for frame in upstream:
                if isinstance(frame, str):
                    await client.send_text(frame)
                else:
                    await client.send_bytes(frame)

        sending = asyncio.ensure_future(up())
        receiving = asyncio.ensure_future(down())
        watching = asyncio.ensure_future(gone.wait() if gone is not None else asyncio.Future())
        await asyncio.wait({sending, receiving, watching}, return_when=asyncio.FIRST_COMPLETED)
        owner_gone = watching.done() and not (sending.done() or receiving.done())
        if owner_gone:
            upstream.transport.abort()  # a frozen owner would never answer a close frame
        for task in (sending, receiving, watching):
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if owner_gone:
            return False
        if _ended(sending) is None or isinstance(_ended(receiving), CLIENT_GONE):
            return True  # the client left
        code = upstream.close_code
        if code is None or code in RELOCATE:
            return False
        with contextlib.suppress(Exception):
            await client.close(code)  # the owner's verdict (left, kicked, replaced, bad token)
        return True
