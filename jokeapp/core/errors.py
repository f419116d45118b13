"""Errors raised by code: the message and the HTTP status come from ``jokeapp.core.codes``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jokeapp.core import codes


class CodedError(Exception):
    """A refusal with a stable code; ``detail`` holds the values its message names."""

    def __init__(self, code: str, detail: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.detail: dict[str, Any] = dict(detail or {})
        self.message = codes.message(code, self.detail)
        self.status = codes.lookup(code).status
        super().__init__(f"{code}: {self.message}")


class GameError(CodedError):
    """Base of every error a game reports to a player or a tool."""


class IllegalAction(GameError):
    """An action that the rules do not allow now; the state is unchanged."""


class InvalidOptions(GameError):
    """An unknown option key or a value outside that key's choices."""
