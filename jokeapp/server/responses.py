"""JSON responses and the error body every refusal shares."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.responses import Response

from jokeapp.core.errors import CodedError
from jokeapp.wire import protocol as p

_encoder = msgspec.json.Encoder()


def json_response(body: Any, status: int = 200) -> Response:
    return Response(_encoder.encode(body), status_code=status, media_type="application/json")


def error_response(error: CodedError | str, status: int | None = None) -> Response:
    """``{"error": {code, message, detail?}}`` with the code's status (or ``status``)."""
    if isinstance(error, str):
        error = CodedError(error)
    return json_response(p.ErrorResponse(error=p.error_detail(error)), status or error.status)
