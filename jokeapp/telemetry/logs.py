"""Structured JSON logs (structlog): one JSON object per line, on stderr.

Every line carries the node and, when known, the request id, the room and the seat: the HTTP
and WebSocket middleware sets the request id (or takes nginx's ``X-Request-ID``), a room's task
sets its room and, per command, the request id of whoever sent it and the seat it concerns.
The standard library's loggers (the rooms', uvicorn's) go through the same formatter, so a
module keeps ``logging.getLogger(__name__)``.

Secrets never reach a line: tokens are not in any command's repr (commands.py), the WebSocket
takes its token in its first message rather than the URL, and the access line names the path
only (no query string).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, MutableMapping
from contextvars import ContextVar
from typing import Any

import structlog

REQUEST_ID: ContextVar[str | None] = ContextVar("joke_request_id", default=None)
ROOM_ID: ContextVar[str | None] = ContextVar("joke_room_id", default=None)
# the seat a room's current command concerns: resolved only when a line is written
SEAT: ContextVar[Callable[[], str | None] | None] = ContextVar("joke_seat", default=None)

_node: dict[str, str] = {"node": ""}

# Frames a client may send that a server library reports with a traceback (an invalid UTF-8
# text frame: uvicorn logs the UnicodeDecodeError and closes 1007). A client's bad input is
# one INFO line, never a traceback.
CLIENT_FAULTS: tuple[type[BaseException], ...] = (UnicodeDecodeError,)


def _context(logger: Any, name: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    event.setdefault("node", _node["node"])
    request_id = REQUEST_ID.get()
    if request_id is not None:
        event.setdefault("request_id", request_id)
    room_id = ROOM_ID.get()
    if room_id is not None:
        event.setdefault("room_id", room_id)
    seat = SEAT.get()
    if seat is not None and "seat" not in event:
        who = seat()
        if who is not None:
            event["seat"] = who
    return event


class ClientFaultFilter(logging.Filter):
    """Turns a library's traceback for a client's bad frame into one INFO line (dropped when
    the level is above INFO)."""

    def __init__(self, level: int = logging.NOTSET) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, CLIENT_FAULTS):
            record.msg = f"{record.getMessage()} (client fault: {type(exc).__name__}; closed)"
            record.args = None
            record.exc_info = None
            record.exc_text = None
            record.levelno = logging.INFO
            record.levelname = "INFO"
        return record.levelno >= self.level


def _pre_chain() -> list[Any]:
    return [
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _context,
    ]


def configure(level: str = "warning", node: str = "", stream: Any = None) -> None:
    """JSON lines for every logger of the process, at ``level`` (debug … critical)."""
    _node["node"] = node
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        raise ValueError(f"unknown log level: {level}")
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_pre_chain(),
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(ensure_ascii=False),
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    handler.setLevel(numeric)
    handler.addFilter(ClientFaultFilter(numeric))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(numeric)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        lib = logging.getLogger(name)
        lib.handlers.clear()
        lib.propagate = True
        lib.setLevel(numeric)
        for old_filter in list(lib.filters):
            if isinstance(old_filter, ClientFaultFilter):
                lib.removeFilter(old_filter)
        lib.addFilter(ClientFaultFilter(numeric))  # before the level check of the handler
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *_pre_chain(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def get_logger(name: str) -> Any:
    return structlog.stdlib.get_logger(name)
