"""Refusals of the room layer and the one WebSocket error frame (codes: jokeapp.core.codes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jokeapp.core.errors import CodedError
from jokeapp.wire.protocol import ErrorMessage, error_message


class RoomError(CodedError):
    """A room refused a command: code, Korean message and HTTP status from the code table."""


def error_frame(
    error: CodedError | str, client_seq: int | None = None, detail: Mapping[str, Any] | None = None
) -> ErrorMessage:
    """The ``error`` message of the WebSocket, for a raised error or a code.

    ``clientSeq`` echoes the action's number whenever the refused frame carried one, so a
    client always knows which of its actions was not applied.
    """
    if isinstance(error, str):
        error = CodedError(error, detail)
    return error_message(error, client_seq)
