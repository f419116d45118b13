"""Bots: ``(state, player, rng) -> action``. They read only their own hand and public facts.

random: a uniformly random legal move (tax returns: a uniformly random set of cards).
heuristic: sheds the worst sets first, saves low cards and jesters to win back the lead,
gives back the worst cards as tax, and revolts whenever that spares it or lifts it.
"""

from __future__ import annotations

from typing import Final

from jokeapp.core.contract import Action, BotPolicy
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, JESTER
from jokeapp.games.dalmuti.legal import (
    Choice,
    choice_cards,
    might_beat,
    number_counts,
    play_choices,
)
from jokeapp.games.dalmuti.revolution import can_declare
from jokeapp.games.dalmuti.state import DalmutiState, Play, RevolutionCheck, TaxReturn
from jokeapp.games.dalmuti.tax import worst_cards
from jokeapp.games.dalmuti.timeouts import on_timeout

LOW_NUMBER: Final = 3  # numbers this good are kept back while the hand is still long
SHORT_HAND: Final = 4  # cards left after a play at which keeping anything back stops paying


def random_bot(state: DalmutiState, player: str, rng: Rng) -> Action:
    phase = state.phase
    hand = state.hands[player]
    if phase.kind == "playing":
        top = state.trick.top
        if top is not None and not might_beat(hand, top):
            return {"type": "pass"}  # the only legal move; skips the enumeration
        choices = play_choices(number_counts(hand), top)
        pick = rng.below(len(choices) + (top is not None))
        if pick == len(choices):
            return {"type": "pass"}
        return {"type": "play", "cardIds": choice_cards(hand, choices[pick])}
    if isinstance(phase, RevolutionCheck):
        declare = can_declare(state, player) and rng.below(2) == 1
        return {"type": "confirmHand", "declareRevolution": declare}
    if isinstance(phase, TaxReturn):
        pool = list(hand)
        picked = [pool.pop(rng.below(len(pool))) for _ in range(phase.owed[player].count)]
        return {"type": "returnTax", "cardIds": [CARD_IDS[card] for card in picked]}
    return on_timeout(state, player)


def heuristic_lead(counts: list[int]) -> Choice:
    """Everything at once if one set empties the hand, else the worst whole number."""
    numbers = [number for number in range(1, JESTER) if counts[number]]
    jesters = counts[JESTER]
    if not numbers:
        return (JESTER, 0, jesters)
    worst = numbers[-1]
    return (worst, counts[worst], jesters if len(numbers) == 1 else 0)


def heuristic_follow(counts: list[int], top: Play, hand_size: int) -> Choice | None:
    """The worst set that still beats ``top``: whole numbers before split ones, jesters and
    low numbers only when the hand is nearly gone."""
    choices = play_choices(counts, top)
    if not choices:
        return None

    def preference(choice: Choice) -> tuple[bool, bool, int]:
        number, used, wild = choice
        return (wild == 0, used == counts[number], number)

    best = max(choices, key=preference)
    number, _, wild = best
    closing = hand_size - top.count <= SHORT_HAND
    if (wild or number <= LOW_NUMBER) and not closing:
        return None
    return best


def heuristic_bot(state: DalmutiState, player: str, rng: Rng) -> Action:
    phase = state.phase
    hand = state.hands[player]
    if phase.kind == "playing":
        counts = number_counts(hand)
        top = state.trick.top
        choice = heuristic_lead(counts) if top is None else heuristic_follow(counts, top, len(hand))
        if choice is None:
            return {"type": "pass"}
        return {"type": "play", "cardIds": choice_cards(hand, choice)}
    if isinstance(phase, RevolutionCheck):
        # The top two ranks would lose their tax; everyone else gains from calling it off.
        declare = can_declare(state, player) and state.order.index(player) >= 2
        return {"type": "confirmHand", "declareRevolution": declare}
    if isinstance(phase, TaxReturn):
        cards = worst_cards(hand, phase.owed[player].count)
        return {"type": "returnTax", "cardIds": [CARD_IDS[card] for card in cards]}
    return on_timeout(state, player)


BOTS: Final[dict[str, BotPolicy]] = {"random": random_bot, "heuristic": heuristic_bot}
