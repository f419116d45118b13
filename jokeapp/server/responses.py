"""JSON responses and the error body every refusal shares."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.responses import Response

from jokeapp.rooms.errors import RoomError

_encoder = msgspec.json.Encoder()


def json_response(body: Any, status: int = 200) -> Response:
    return Response(_encoder.encode(body), status_code=status, media_type="application/json")


def error_response(code: str, message: str, status: int) -> Response:
    return json_response({"error": {"code": code, "message": message}}, status)


def room_error(exc: RoomError) -> Response:
    return error_response(exc.code, exc.message, exc.status)


INVALID_BODY = ("invalid_body", "요청 형식이 맞지 않아요.", 400)
TOO_LARGE = ("too_large", "메시지가 너무 커요.", 413)
NOT_FOUND = ("not_found", "찾는 주소가 없어요.", 404)
INTERNAL = ("internal", "서버에 문제가 생겼어요. 잠시 후 다시 해 주세요.", 500)
UNAUTHORIZED = ("bad_token", "입장 정보가 올바르지 않아요. 다시 들어와 주세요.", 401)
