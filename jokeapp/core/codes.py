"""Every refusal's code, its Korean message and its HTTP status: the one table of them.

Games, rooms and the server raise errors by code (``IllegalAction("no_money")``) and never
write a message themselves; a message that needs a value names it as ``{field}`` and the
raise site passes ``detail={"field": value}`` (the detail also goes on the wire, so a client
can read the value without parsing Korean). Messages never put a particle right after a
value (은/는, 이/가 depend on the value's last sound): the value comes after a colon or in
parentheses instead. docs/protocol.md's table is generated from this one (``joke codes``).

WebSocket close codes live here too (``CLOSES``): each names the error code sent just before.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Code:
    code: str
    message: str  # Korean, friendly, short; ``{name}`` for a value from the detail
    status: int  # the HTTP status (over the WebSocket only code and message are sent)

    def fields(self) -> frozenset[str]:
        """The names of the values the message needs."""
        return frozenset(name for _, name, _, _ in string.Formatter().parse(self.message) if name)


@dataclass(frozen=True)
class Close:
    close: int  # the WebSocket close code
    code: str | None  # the error sent just before closing (None: none is sent)
    meaning: str


CODES: tuple[Code, ...] = (
    # --- WebSocket frames
    Code("bad_json", "메시지를 읽을 수 없어요.", 400),
    Code("invalid_message", "메시지 형식이 맞지 않아요.", 400),
    Code("unknown_type", "알 수 없는 메시지 종류예요.", 400),
    Code("too_large", "메시지가 너무 커요.", 413),
    Code("rate_limited", "너무 빨리 보내고 있어요. 잠시 후에 다시 해 주세요.", 429),
    Code("spectator", "관전 중에는 할 수 없어요.", 403),
    Code("not_started", "아직 게임이 시작되지 않았어요.", 409),
    Code("duplicate", "이미 처리된 요청이에요.", 409),
    Code("client_seq_gap", "요청 순서가 어긋났어요. 다시 해 주세요.", 409),
    Code("replaced", "다른 곳에서 같은 자리로 접속해서 이 연결을 닫았어요.", 409),
    Code("kicked", "방장이 방에서 내보냈어요.", 403),
    Code("auth_required", "입장 정보를 먼저 보내 주세요.", 401),
    # --- HTTP requests
    Code("bad_token", "입장 정보가 올바르지 않아요. 다시 들어와 주세요.", 401),
    Code("invalid_body", "요청 형식이 맞지 않아요.", 400),
    Code("unsupported_media_type", "요청은 JSON(application/json)으로 보내 주세요.", 415),
    Code("not_found", "찾는 주소가 없어요.", 404),
    Code("http_error", "요청을 처리할 수 없어요.", 405),
    Code("internal", "서버에 문제가 생겼어요. 잠시 후 다시 해 주세요.", 500),
    Code("room_moving", "방을 다른 서버로 옮기는 중이에요. 잠시 후 다시 해 주세요.", 503),
    # --- rooms
    Code("invalid_nickname", "닉네임은 1~12자, 보이는 글자로만 적어 주세요.", 400),
    Code("nickname_taken", "같은 닉네임이 이미 있어요.", 409),
    Code("unknown_game", "그런 게임은 없어요.", 400),
    Code("room_not_found", "방을 찾을 수 없어요.", 404),
    Code("room_full", "자리가 다 찼어요. 관전으로 들어와 주세요.", 409),
    Code("no_free_seat", "빈 자리가 없어요.", 409),
    Code("already_started", "이미 게임이 시작됐어요. 관전으로 들어와 주세요.", 409),
    Code("not_host", "방장만 할 수 있어요.", 403),
    Code("wrong_status", "지금은 할 수 없어요.", 409),
    Code("match_in_progress", "게임이 이미 진행 중이에요.", 409),
    Code("not_enough_players", "인원이 맞지 않아요 ({min}~{max}명).", 409),
    Code("unknown_bot", "그런 봇은 없어요.", 400),
    Code("seat_not_found", "그 자리를 찾을 수 없어요.", 404),
    Code("cannot_kick_self", "자기 자신은 내보낼 수 없어요.", 409),
    Code("no_afk_offer", "그 사람에 대한 선택지가 없어요.", 409),
    Code("record_not_ready", "게임이 끝난 뒤에 볼 수 있어요.", 409),
    # --- options and players of a game's setup
    Code("unknown_option", "알 수 없는 옵션이에요: {key} (가능한 옵션: {known})", 400),
    Code(
        "invalid_option_value",
        "쓸 수 없는 옵션 값이에요: {key} = {value} (가능한 값: {choices})",
        400,
    ),
    Code("invalid_player_count", "이 게임은 {min}~{max}명이 함께해요 (지금 {count}명).", 400),
    Code("invalid_players", "참가자 이름이 비어 있거나 겹쳐요.", 400),
    Code("reserved_player_id", "bank, fund는 참가자 이름으로 쓸 수 없어요.", 400),
    # --- actions, both games
    Code("malformed_action", "행동의 형식이 맞지 않아요.", 400),
    Code("unknown_action", "알 수 없는 행동이에요.", 400),
    Code("not_a_player", "이 게임의 참가자가 아니에요.", 403),
    Code("game_over", "게임이 이미 끝났어요.", 409),
    Code("not_your_turn", "지금은 내 차례가 아니에요.", 409),
    Code("not_pending", "지금 기다리는 결정이 없어요.", 409),
    Code("wrong_phase", "지금은 할 수 없는 행동이에요.", 409),
    Code("no_money", "돈이 부족해요.", 409),
    # --- marble
    Code("bad_pos", "판에 없는 칸이에요.", 400),
    Code("out_of_game", "이미 파산해서 구경 중이에요.", 409),
    Code("space_pending", "우주여행 차례예요. 갈 곳을 골라 주세요.", 409),
    Code("not_space_travel", "우주여행 차례가 아니에요.", 409),
    Code("bad_dest", "우주여행 칸으로는 갈 수 없어요.", 409),
    Code("cannot_buy", "살 수 없는 땅이에요.", 409),
    Code("cannot_build", "지금은 여기에 지을 수 없어요.", 409),
    Code("no_landmark", "랜드마크는 이 방에서 쓰지 않아요.", 409),
    Code("wrong_level", "건물은 한 번에 한 단계씩 올려요.", 409),
    Code("takeover_off", "인수는 이 방에서 쓰지 않아요.", 409),
    Code("cannot_takeover", "여기는 인수할 수 없어요.", 409),
    Code("not_on_island", "무인도에 있지 않아요.", 409),
    Code("no_escape_card", "무인도 탈출권이 없어요.", 409),
    Code("no_island_fee", "탈출비로 나갈 수 없는 방이에요.", 409),
    Code("not_in_debt", "지금은 팔 필요가 없어요.", 409),
    Code("not_your_land", "내 땅이 아니에요.", 409),
    Code("no_building", "팔 건물이 없어요.", 409),
    Code("trade_off", "교환은 이 방에서 쓰지 않아요.", 409),
    Code("trade_limit", "교환 제안은 한 차례에 두 번까지예요.", 409),
    Code("bad_trade_partner", "그 사람에게는 제안할 수 없어요.", 409),
    Code("empty_trade", "빈 제안은 보낼 수 없어요.", 409),
    Code("not_their_land", "상대 땅이 아닌 곳이 있어요.", 409),
    Code("not_asked", "나에게 온 제안이 없어요.", 409),
    # --- dalmuti
    Code("unknown_card", "없는 카드예요.", 400),
    Code("duplicate_card", "같은 카드를 두 번 고를 수 없어요.", 400),
    Code("not_in_hand", "손에 없는 카드예요.", 409),
    Code("already_confirmed", "이미 손패를 확인했어요.", 409),
    Code("no_two_jesters", "광대 2장이 있어야 혁명할 수 있어요.", 409),
    Code("nothing_owed", "돌려줄 카드가 없어요.", 409),
    Code("already_returned", "이미 카드를 돌려줬어요.", 409),
    Code("wrong_return_count", "돌려줄 카드 {count}장을 골라 주세요.", 409),
    Code("empty_play", "카드를 1장 이상 내야 해요.", 409),
    Code("locked_out", "이번 트릭에서는 이미 패스했어요.", 409),
    Code("mixed_numbers", "같은 숫자끼리만 낼 수 있어요.", 409),
    Code("wrong_count", "앞사람과 같은 장수({count}장)로 내야 해요.", 409),
    Code("not_lower", "더 낮은 숫자만 낼 수 있어요.", 409),
    Code("cannot_pass_lead", "새로 시작할 때는 패스할 수 없어요.", 409),
)

BY_CODE: dict[str, Code] = {row.code: row for row in CODES}

CLOSES: tuple[Close, ...] = (
    Close(1000, None, "normal: the token left the room (leave)"),
    Close(1009, None, "a frame above 64 KiB (the WebSocket layer)"),
    Close(1011, "internal", "the room failed on this connection (logged on the server); reconnect"),
    Close(1012, "room_moving", "the room moved to another node, or this one stops: reconnect"),
    Close(
        4400, "auth_required", "the first message was not `auth`, or it did not come in time (5 s)"
    ),
    Close(4401, "bad_token", "unknown token or room"),
    Close(4403, "kicked", "the host kicked this person"),
    Close(4408, None, "this client stopped reading (2000 messages queued); reconnect"),
    Close(4409, "replaced", "a newer connection with the same token took the seat"),
)

CLOSE_BY_CODE: dict[str, int] = {row.code: row.close for row in CLOSES if row.code is not None}
CLOSE_NORMAL = 1000
CLOSE_SLOW = 4408
CLOSE_INTERNAL = 1011
CLOSE_RECONNECT = CLOSE_BY_CODE["room_moving"]


def lookup(code: str) -> Code:
    try:
        return BY_CODE[code]
    except KeyError:
        raise KeyError(f"error code {code!r} is not in jokeapp.core.codes.CODES") from None


def show(value: Any) -> str:
    """A value as a message shows it: JSON's spelling, lists joined by commas."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(show(v) for v in value)
    return str(value)


def message(code: str, detail: Mapping[str, Any] | None = None) -> str:
    """The Korean message of ``code`` with the detail's values filled in."""
    row = lookup(code)
    values = detail or {}
    missing = row.fields().difference(values)  # a frozenset (``- keys()`` makes a set)
    if missing:
        raise KeyError(f"error code {code!r} needs {', '.join(sorted(missing))}")
    return row.message.format_map({name: show(values[name]) for name in row.fields()})
