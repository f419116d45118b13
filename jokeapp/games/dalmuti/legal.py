"""Enumerating legal moves, for bots, the UI's hints and timeouts.

A set is described by a choice ``(number, number_cards, jesters)``: ``number_cards`` cards of
``number`` plus ``jesters`` jesters (``number`` is 13 for jesters alone). Cards of the same
number are interchangeable, so each choice stands for one concrete set: the lowest card ids.
That keeps the list bounded (at most a few hundred sets) while covering every distinct play.
"""

from __future__ import annotations

from itertools import combinations

from jokeapp.core.contract import Action
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_NUMBERS, JESTER
from jokeapp.games.dalmuti.revolution import holds_both_jesters
from jokeapp.games.dalmuti.state import DalmutiState, Play, RevolutionCheck, TaxReturn

Choice = tuple[int, int, int]


def hand_groups(hand: list[int]) -> tuple[dict[int, list[int]], list[int]]:
    """Number cards by number (in id order) and the jesters of a sorted hand."""
    groups: dict[int, list[int]] = {}
    jesters: list[int] = []
    for card in hand:
        number = CARD_NUMBERS[card]
        if number == JESTER:
            jesters.append(card)
        else:
            groups.setdefault(number, []).append(card)
    return groups, jesters


def play_choices(groups: dict[int, list[int]], jesters: int, top: Play | None) -> list[Choice]:
    """Every distinct legal set: any count on a lead, else top's count with a lower number."""
    choices: list[Choice] = []
    if top is None:
        for number, cards in groups.items():
            for used in range(1, len(cards) + 1):
                for wild in range(jesters + 1):
                    choices.append((number, used, wild))
        for wild in range(1, jesters + 1):
            choices.append((JESTER, 0, wild))
        return choices
    need = top.count
    for number, cards in groups.items():
        if number >= top.rank:
            continue
        for wild in range(min(jesters, need - 1) + 1):
            if need - wild <= len(cards):
                choices.append((number, need - wild, wild))
    return choices


def choice_cards(groups: dict[int, list[int]], jesters: list[int], choice: Choice) -> list[str]:
    number, used, wild = choice
    cards = groups[number][:used] if used else []
    return [CARD_IDS[card] for card in (*cards, *jesters[:wild])]


def return_choices(hand: list[int], count: int) -> list[list[str]]:
    """One set of ``count`` cards per distinct multiset of numbers."""
    seen: set[tuple[int, ...]] = set()
    choices: list[list[str]] = []
    for cards in combinations(hand, count):
        numbers = tuple(CARD_NUMBERS[card] for card in cards)
        if numbers not in seen:
            seen.add(numbers)
            choices.append([CARD_IDS[card] for card in cards])
    return choices


def legal_actions(state: DalmutiState, player: str) -> list[Action]:
    phase = state.phase
    hand = state.hands.get(player)
    if hand is None:
        return []
    if isinstance(phase, RevolutionCheck):
        if phase.confirmed.get(player) is not False:
            return []
        actions: list[Action] = [{"type": "confirmHand", "declareRevolution": False}]
        if holds_both_jesters(hand):
            actions.append({"type": "confirmHand", "declareRevolution": True})
        return actions
    if isinstance(phase, TaxReturn):
        owed = phase.owed.get(player)
        if owed is None or owed.done:
            return []
        return [{"type": "returnTax", "cardIds": ids} for ids in return_choices(hand, owed.count)]
    if phase.kind != "playing" or player != state.current:
        return []
    groups, jesters = hand_groups(hand)
    top = state.trick.top
    plays: list[Action] = [
        {"type": "play", "cardIds": choice_cards(groups, jesters, choice)}
        for choice in play_choices(groups, len(jesters), top)
    ]
    if top is not None:
        plays.append({"type": "pass"})
    return plays
