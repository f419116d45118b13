"""The deck (spec section 3): card ids, numbers, display names and rank titles.

Cards are small ints inside the engine (an index into ``CARD_IDS``) and strings at the
boundary. Indices follow the ids' sort order, which is number first, then copy: sorting a
hand of ints sorts it by number and, within a number, by card id (the tax tie rule).
"""

from __future__ import annotations

from typing import Final

JESTER: Final = 13  # a jester played alone counts as 13 (spec 5.1)
HIGHEST_NUMBER: Final = 12
HIGH_CARDS_FROM: Final = 9  # removeHighCards takes out 9..12


def _card_id(number: int, copy: int) -> str:
    return f"{number:02d}-{copy:02d}"


def _build_ids() -> tuple[tuple[str, ...], tuple[int, ...]]:
    ids: list[str] = []
    numbers: list[int] = []
    for number in range(1, HIGHEST_NUMBER + 1):
        for copy in range(1, number + 1):
            ids.append(_card_id(number, copy))
            numbers.append(number)
    for copy in (1, 2):
        ids.append(_card_id(JESTER, copy))
        numbers.append(JESTER)
    return tuple(ids), tuple(numbers)


_IDS_AND_NUMBERS = _build_ids()
CARD_IDS: Final[tuple[str, ...]] = _IDS_AND_NUMBERS[0]
CARD_NUMBERS: Final[tuple[int, ...]] = _IDS_AND_NUMBERS[1]  # the n of each card; 13 for a jester
CARD_INDEX: Final[dict[str, int]] = {card_id: index for index, card_id in enumerate(CARD_IDS)}
# The index of the first card of each number (1..13), by number: a number's cards are
# contiguous. A tuple rather than a dict because the bots look it up on every decision.
FIRST_CARD: Final[tuple[int, ...]] = tuple(
    CARD_NUMBERS.index(number) if number else 0 for number in range(JESTER + 1)
)
JESTERS: Final[tuple[int, int]] = (len(CARD_IDS) - 2, len(CARD_IDS) - 1)

FULL_DECK: Final[tuple[int, ...]] = tuple(range(len(CARD_IDS)))  # 80 cards
SMALL_DECK: Final[tuple[int, ...]] = tuple(
    card
    for card in FULL_DECK
    if CARD_NUMBERS[card] < HIGH_CARDS_FROM or CARD_NUMBERS[card] == JESTER
)  # 38 cards


def deck(remove_high_cards: bool) -> tuple[int, ...]:
    return SMALL_DECK if remove_high_cards else FULL_DECK


# Display names. The spec's names for card 1 and the two top ranks carry a trademark, so the
# screen shows neutral names (docs/rules-decisions.md); the spec's names survive as identifiers.
CARD_NAMES: Final[dict[int, str]] = {
    1: "왕",  # spec: DALMUTI
    2: "대주교",
    3: "시종장",
    4: "남작부인",
    5: "수녀원장",
    6: "기사",
    7: "재봉사",
    8: "석공",
    9: "요리사",
    10: "양치기",
    11: "광부",
    12: "농노",
    JESTER: "광대",
}

GREAT_DALMUTI: Final = "대왕"
LESSER_DALMUTI: Final = "소왕"
MERCHANT: Final = "평민"
LESSER_PEON: Final = "소농노"
GREAT_PEON: Final = "대농노"


def rank_title(place: int, player_count: int) -> str:
    """The title of the player at ``place`` (0 = first) among ``player_count``."""
    if place == 0:
        return GREAT_DALMUTI
    if place == player_count - 1:
        return GREAT_PEON
    if place == 1:
        return LESSER_DALMUTI
    if place == player_count - 2:
        return LESSER_PEON
    return MERCHANT


def card_json(card: int) -> dict[str, object]:
    """A card in the spec's ``DCard`` shape."""
    return {"id": CARD_IDS[card], "n": CARD_NUMBERS[card]}
