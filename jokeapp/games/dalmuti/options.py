"""The options table (spec section 2), with Korean labels for the room screen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from jokeapp.core.contract import OptionSpec
from jokeapp.core.options import options_class

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("rounds", (1, 3, 5, 7), 3, "라운드 수"),
    OptionSpec(
        "scoring",
        ("rank-points", "last-round"),
        "rank-points",
        "최종 순위 방식 (라운드 순위 점수 합 / 마지막 라운드 순위)",
    ),
    OptionSpec(
        "firstRanking", ("draw", "random"), "draw", "첫 라운드 신분 정하기 (카드 뽑기 / 무작위)"
    ),
    OptionSpec("revolution", (True, False), True, "혁명 규칙 사용"),
    OptionSpec("jesterTaxable", (True, False), False, "세금 낼 때 광대도 좋은 카드로 내기"),
    OptionSpec("passLocksOut", (True, False), False, "한 번 패스하면 그 트릭에서 다시 못 내기"),
    OptionSpec("removeHighCards", (True, False), False, "9~12 카드 빼고 하기"),
    OptionSpec("turnSeconds", (15, 20, 30, 45), 20, "턴 제한 시간(초)"),
)


@options_class(OPTIONS)
@dataclass(frozen=True, slots=True)
class DalmutiOptions:
    """The options of one game, typed; a field per row of ``OPTIONS`` (checked at import)."""

    rounds: int
    scoring: str
    first_ranking: str
    revolution: bool
    jester_taxable: bool
    pass_locks_out: bool
    remove_high_cards: bool
    turn_seconds: int
