"""Refusals of the room layer: a stable code, the player's Korean message, an HTTP status."""

from __future__ import annotations


class RoomError(Exception):
    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


def room_not_found() -> RoomError:
    return RoomError("room_not_found", "방을 찾을 수 없어요.", 404)


def not_host() -> RoomError:
    return RoomError("not_host", "방장만 할 수 있어요.", 403)


def bad_token() -> RoomError:
    return RoomError("bad_token", "입장 정보가 올바르지 않아요. 다시 들어와 주세요.", 401)


def wrong_status() -> RoomError:
    return RoomError("wrong_status", "지금은 할 수 없어요.", 409)
