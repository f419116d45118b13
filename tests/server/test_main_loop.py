"""`joke serve`'s uvicorn main loop (jokeapp/server/cli.py, ``NodeServer``): it looks once a
second instead of every 0.1 s (each look was a wake-up of an idle server), and at once when
it is told to stop."""

from __future__ import annotations

import asyncio
import signal

import pytest
import uvicorn
from starlette.applications import Starlette

from jokeapp.server import cli as server_cli
from jokeapp.server.cli import NodeServer

HANG_GUARD = 30.0


def _server(monkeypatch: pytest.MonkeyPatch) -> tuple[NodeServer, list[int]]:
    monkeypatch.setattr(server_cli, "MAIN_TICK", 3600.0)  # no look but the ones asked for
    app = Starlette()
    server = NodeServer(uvicorn.Config(app), app)
    looks: list[int] = []

    async def on_tick(counter: int) -> bool:
        looks.append(counter)
        return server.should_exit

    server.on_tick = on_tick  # type: ignore[method-assign]
    return server, looks


async def test_the_main_loop_looks_only_when_told_to_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    server, looks = _server(monkeypatch)
    task = asyncio.ensure_future(server.main_loop())
    asyncio.get_running_loop().call_later(0.3, setattr, server, "should_exit", True)
    await asyncio.wait_for(task, HANG_GUARD)
    # the first look, then the one the stop woke; uvicorn's own would have looked every 0.1 s
    assert looks == [0, 0]


async def test_a_signal_stops_the_main_loop_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    server, looks = _server(monkeypatch)
    task = asyncio.ensure_future(server.main_loop())
    await asyncio.sleep(0)  # the loop is waiting
    server.handle_exit(signal.SIGTERM, None)  # what uvicorn's signal handler calls
    await asyncio.wait_for(task, HANG_GUARD)
    assert looks == [0, 0] and server.should_exit
