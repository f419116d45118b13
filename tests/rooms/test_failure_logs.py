"""A room's failure is logged once, as JSON with its traceback, its room, seat and request id,
and never with a token; whoever waited gets `internal`."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from jokeapp.rooms import commands as cmd
from jokeapp.rooms import starting
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.manager import RoomManager
from jokeapp.telemetry import logs


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """The process's log lines as the server writes them (JSON), restored afterwards."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    stream = io.StringIO()
    logs.configure("info", "node-x", stream=stream)
    yield stream
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in saved[0]:
        root.addHandler(handler)
    root.setLevel(saved[1])


async def test_a_failing_command_is_logged_once_with_its_context_and_no_token(
    manager: RoomManager, captured: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, token, _ = await manager.create("race", {}, "수진")

    async def broken(room_: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(starting, "start", broken)
    logs.REQUEST_ID.set("req-7")
    with pytest.raises(RoomError) as refused:
        await room.call(cmd.Start(token))
    assert refused.value.code == "internal"
    logs.REQUEST_ID.set(None)
    await room.call(cmd.Info())  # the room lives on
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    errors = [line for line in lines if line["level"] == "error"]
    assert len(errors) == 1
    (error,) = errors
    assert error["event"] == "room command Start failed"
    assert "ZeroDivisionError: a bug" in error["exception"]
    assert error["room_id"] == room.room_id
    assert error["seat"] == "p1"
    assert error["request_id"] == "req-7"
    assert error["node"] == "node-x"
    assert token not in captured.getvalue()
    assert token not in repr(cmd.Start(token)) and token not in repr(cmd.Connect(None, token))  # type: ignore[arg-type]
    failures = manager.metrics.registry.get_sample_value("joke_room_failures_total")
    assert failures == 1
