"""The options table of spec section 2, and the players a table may seat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jokeapp.core.contract import OptionSpec
from jokeapp.core.errors import InvalidOptions
from jokeapp.core.options import options_class
from jokeapp.games.marble.data import BANK, FUND

MIN_PLAYERS = 2
MAX_PLAYERS = 4

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("startMoney", (200, 300, 500), 300, "시작 자금(만)"),
    OptionSpec("salary", (10, 20, 30), 20, "출발 칸 월급(만)"),
    OptionSpec("maxRounds", (0, 15, 20, 30), 20, "라운드 제한(0 = 파산으로만 끝)"),
    OptionSpec("buildOnPurchase", (True, False), False, "땅을 산 날 별장까지 바로 짓기"),
    OptionSpec("islandTurns", (1, 2, 3), 3, "무인도에서 쉬는 차례 수"),
    OptionSpec("islandFee", (0, 10, 20), 0, "무인도 탈출비(만, 0 = 탈출비 없음)"),
    OptionSpec("takeover", (True, False), False, "인수: 통행료를 낸 뒤 2배 값에 사들이기"),
    OptionSpec("landmark", (True, False), False, "호텔 다음 단계 랜드마크"),
    OptionSpec("monopolyWin", (True, False), False, "독점하면 바로 승리(트리플·라인·관광지)"),
    OptionSpec("trade", (True, False), False, "플레이어끼리 땅·돈 교환"),
    OptionSpec("turnSeconds", (15, 30, 60, None), 30, "결정 1회당 제한 시간(초)"),
)


@options_class(OPTIONS)
@dataclass(frozen=True, slots=True)
class MarbleOptions:
    """The options of one game, typed; a field per row of ``OPTIONS`` (checked at import)."""

    start_money: int
    salary: int
    max_rounds: int
    build_on_purchase: bool
    island_turns: int
    island_fee: int
    takeover: bool
    landmark: bool
    monopoly_win: bool
    trade: bool
    turn_seconds: int | None


RESERVED_IDS = (BANK, FUND)


def check_players(players: Sequence[str]) -> list[str]:
    """2 to 4 distinct ids; ``bank`` and ``fund`` name creditors, so no player may use them."""
    ids = list(players)
    if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
        detail = {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(ids)}
        raise InvalidOptions("invalid_player_count", detail)
    if len(set(ids)) != len(ids) or any(type(p) is not str or not p for p in ids):
        raise InvalidOptions("invalid_players")
    if any(p in RESERVED_IDS for p in ids):
        raise InvalidOptions("reserved_player_id")
    return ids
