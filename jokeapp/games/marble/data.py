"""The board, price tables, fixed amounts and lucky cards of spec section 3.

Every derived table is computed once at import from the spec's factors, rounding HALF UP
(the spec's 반올림; Python's round() rounds halves to even, which would make 뉴욕's villa 17).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

# The two creditors that are not players (state.py): a player id may be neither.
BANK = "bank"
FUND = "fund"

START: Final = "start"
CITY: Final = "city"
TOUR: Final = "tour"
CARD: Final = "card"
ISLAND: Final = "island"
FUND_RECEIVE: Final = "fundReceive"
SPACE: Final = "space"
FUND_PAY: Final = "fundPay"

BOARD_SIZE: Final = 40
START_POS: Final = 0
ISLAND_POS: Final = 10
FUND_RECEIVE_POS: Final = 20
SPACEPORT_POS: Final = 25
SPACE_POS: Final = 30
FUND_PAY_POS: Final = 38
SEOUL_POS: Final = 39

FUND_PAYMENT: Final = 15
SPACE_FEE: Final = 20
MAX_CARDS_PER_TURN: Final = 5
MAX_TRADES_PER_TURN: Final = 2
TRADE_ANSWER_SECONDS: Final = 20
MAX_DOUBLES: Final = 3

VILLA, BUILDING, HOTEL, LANDMARK = 1, 2, 3, 4
LEVEL_NAMES: Final = ("땅", "별장", "빌딩", "호텔", "랜드마크")


@dataclass(frozen=True, slots=True)
class Tile:
    pos: int
    name: str
    kind: str
    group: str | None = None  # city group A..H


def _city(pos: int, name: str, group: str) -> Tile:
    return Tile(pos, name, CITY, group)


BOARD: Final[tuple[Tile, ...]] = (
    Tile(0, "출발", START),
    _city(1, "타이베이", "A"),
    Tile(2, "행운카드", CARD),
    _city(3, "마닐라", "A"),
    _city(4, "하노이", "A"),
    Tile(5, "제주도", TOUR),
    _city(6, "방콕", "B"),
    Tile(7, "행운카드", CARD),
    _city(8, "싱가포르", "B"),
    _city(9, "카이로", "B"),
    Tile(10, "무인도", ISLAND),
    _city(11, "이스탄불", "C"),
    Tile(12, "행운카드", CARD),
    _city(13, "아테네", "C"),
    _city(14, "로마", "C"),
    Tile(15, "경주", TOUR),
    _city(16, "코펜하겐", "D"),
    Tile(17, "행운카드", CARD),
    _city(18, "스톡홀름", "D"),
    _city(19, "베를린", "D"),
    Tile(20, "사회복지기금 받는 곳", FUND_RECEIVE),
    _city(21, "부에노스아이레스", "E"),
    Tile(22, "행운카드", CARD),
    _city(23, "상파울루", "E"),
    _city(24, "시드니", "E"),
    Tile(25, "우주센터", TOUR),
    _city(26, "리스본", "F"),
    _city(27, "마드리드", "F"),
    Tile(28, "행운카드", CARD),
    _city(29, "파리", "F"),
    Tile(30, "우주여행", SPACE),
    _city(31, "런던", "G"),
    _city(32, "밴쿠버", "G"),
    Tile(33, "행운카드", CARD),
    _city(34, "샌프란시스코", "G"),
    Tile(35, "부산", TOUR),
    _city(36, "뉴욕", "H"),
    _city(37, "도쿄", "H"),
    Tile(38, "사회복지기금 내는 곳", FUND_PAY),
    _city(39, "서울", "H"),
)

KIND: Final[tuple[str, ...]] = tuple(tile.kind for tile in BOARD)

LAND_PRICE: Final[dict[int, int]] = {
    1: 6,
    3: 6,
    4: 8,
    6: 10,
    8: 10,
    9: 12,
    11: 14,
    13: 14,
    14: 16,
    16: 18,
    18: 18,
    19: 20,
    21: 22,
    23: 22,
    24: 24,
    26: 26,
    27: 26,
    29: 28,
    31: 30,
    32: 30,
    34: 32,
    36: 35,
    37: 35,
    39: 40,
    5: 20,
    15: 20,
    25: 30,
    35: 25,
}
# 관광지 통행료 are the table's own numbers (부산 12 is not a formula of its price 25).
TOUR_TOLL: Final[dict[int, int]] = {5: 10, 15: 10, 25: 15, 35: 12}

CITIES: Final[tuple[int, ...]] = tuple(t.pos for t in BOARD if t.kind == CITY)
TOURS: Final[tuple[int, ...]] = tuple(t.pos for t in BOARD if t.kind == TOUR)
LANDS: Final[frozenset[int]] = frozenset(CITIES + TOURS)
GROUPS: Final[dict[str, tuple[int, ...]]] = {
    g: tuple(t.pos for t in BOARD if t.group == g) for g in "ABCDEFGH"
}
GROUP_OF: Final[dict[int, str]] = {t.pos: t.group for t in BOARD if t.group is not None}
LINES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(p for p in CITIES if start < p < start + 10) for start in (0, 10, 20, 30)
)

_BUILD_FACTORS = (Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2))
_TOLL_FACTORS = (Fraction(1, 5), Fraction(3, 5), Fraction(3, 2), Fraction(5, 2), Fraction(4))


def half_up(value: Fraction) -> int:
    """The spec's 반올림 for non-negative amounts: .5 goes up."""
    return int((value * 2 + 1) // 2)


def _build_costs(price: int) -> tuple[int, ...]:
    # Index = level; level 0 (the bare land) costs nothing to "build".
    return (0, *(half_up(price * f) for f in _BUILD_FACTORS))


def _city_tolls(price: int) -> tuple[int, ...]:
    tolls = [half_up(price * f) for f in _TOLL_FACTORS]
    tolls[0] = max(1, tolls[0])
    return tuple(tolls)


BUILD_COST: Final[dict[int, tuple[int, ...]]] = {p: _build_costs(LAND_PRICE[p]) for p in CITIES}
CITY_TOLL: Final[dict[int, tuple[int, ...]]] = {p: _city_tolls(LAND_PRICE[p]) for p in CITIES}

# What a deed at each level is worth: paid in (total assets, takeover) and resale (debts).
INVESTED: Final[dict[int, tuple[int, ...]]] = {}
SALE_ALL: Final[dict[int, tuple[int, ...]]] = {}
SALE_TOP: Final[dict[int, tuple[int, ...]]] = {}
for _pos in CITIES:
    _costs = BUILD_COST[_pos]
    _price = LAND_PRICE[_pos]
    INVESTED[_pos] = tuple(_price + sum(_costs[: lv + 1]) for lv in range(5))
    SALE_ALL[_pos] = tuple(_price // 2 + sum(c // 2 for c in _costs[: lv + 1]) for lv in range(5))
    SALE_TOP[_pos] = tuple(c // 2 for c in _costs)
for _pos in TOURS:
    INVESTED[_pos] = (LAND_PRICE[_pos],)
    SALE_ALL[_pos] = (LAND_PRICE[_pos] // 2,)
    SALE_TOP[_pos] = (0,)

# L09 건물 수리비: per city, the sum over its built levels (호텔 = 3 + 6 + 10 = 19).
REPAIR_PER_LEVEL: Final = (0, 3, 6, 10, 15)
REPAIR_BY_LEVEL: Final[tuple[int, ...]] = tuple(sum(REPAIR_PER_LEVEL[: lv + 1]) for lv in range(5))
PROPERTY_TAX_PER_LAND: Final = 2


@dataclass(frozen=True, slots=True)
class LuckyCard:
    id: str
    name: str
    text: str


CARDS: Final[tuple[LuckyCard, ...]] = (
    LuckyCard("L01", "복권 당첨", "은행에서 20 받기"),
    LuckyCard("L02", "장학금", "은행에서 10 받기"),
    LuckyCard("L03", "주식 배당", "은행에서 15 받기"),
    LuckyCard("L04", "생일 축하", "다른 플레이어 모두에게서 각 5 받기"),
    LuckyCard("L05", "예금 이자", "은행에서 10 받기"),
    LuckyCard("L06", "과속 벌금", "5를 사회복지기금에 적립"),
    LuckyCard("L07", "병원비", "은행에 10 내기"),
    LuckyCard("L08", "이웃 돕기 성금", "10을 사회복지기금에 적립"),
    LuckyCard(
        "L09", "건물 수리비", "내 건물마다 별장 3, 빌딩 6, 호텔 10, 랜드마크 15를 은행에 내기"
    ),
    LuckyCard("L10", "폭풍 경보", "무인도로 바로 이동(월급 없음)"),
    LuckyCard("L11", "무인도 탈출권", "보관. 무인도에서 사용하면 즉시 탈출"),
    LuckyCard("L12", "통행료 면제권", "보관. 다음 통행료를 낼 때 자동 사용(1회)"),
    LuckyCard("L13", "출발지로", "출발로 이동, 월급 받기"),
    LuckyCard("L14", "우주 초대장", "우주여행 칸으로 앞으로 이동"),
    LuckyCard("L15", "서울 관광", "서울로 앞으로 이동"),
    LuckyCard("L16", "뒤로 3칸", "뒤로 3칸 이동(월급 없음)"),
    LuckyCard("L17", "기부 천사", "사회복지기금 받는 곳으로 앞으로 이동, 적립금 받기"),
    LuckyCard("L18", "관광 안내", "앞으로 가장 가까운 관광지로 이동"),
    LuckyCard("L19", "여행 경비", "다른 플레이어 모두에게 각 5 주기"),
    LuckyCard("L20", "재산세", "내 땅 1곳당 2를 은행에 내기"),
)
CARD_IDS: Final[tuple[str, ...]] = tuple(card.id for card in CARDS)
ESCAPE_CARD: Final = "L11"
TOLL_WAIVER: Final = "L12"
KEPT_CARDS: Final = (ESCAPE_CARD, TOLL_WAIVER)

BANK_GIFTS: Final[dict[str, int]] = {"L01": 20, "L02": 10, "L03": 15, "L05": 10}
FUND_DONATIONS: Final[dict[str, int]] = {"L06": 5, "L08": 10}
HOSPITAL_BILL: Final = 10
BIRTHDAY_GIFT: Final = 5
TRAVEL_EXPENSE: Final = 5


def nearest_tour_ahead(pos: int) -> int:
    """L18: the first 관광지 strictly ahead, going clockwise."""
    for step in range(1, BOARD_SIZE + 1):
        target = (pos + step) % BOARD_SIZE
        if KIND[target] == TOUR:
            return target
    raise AssertionError("the board has tourist spots")
