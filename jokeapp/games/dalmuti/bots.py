"""Bots: ``(state, player, rng) -> action``. They read only their own hand and public facts.

random: in play, each of ``legal_actions`` with equal chances (pass included when allowed);
in the revolution check, each legal confirmation with equal chances; a tax return is a
uniformly random set of cards of the right size (every subset of the hand equally likely, so
numbers held in several copies come up more often than the one-per-multiset list of
``legal_actions``).
heuristic: sheds the worst sets first, saves low cards and jesters to win back the lead,
gives back the worst cards as tax, and revolts whenever that spares it or lifts it.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

from jokeapp.core.contract import Action, BotPolicy
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, FIRST_CARD, JESTER
from jokeapp.games.dalmuti.legal import (
    Choice,
    choice_cards,
    lead_cards,
    lead_count,
    multi_follows,
    number_counts,
    play_choices,
    single_follows,
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
        return random_play(hand, state.trick.top, rng)
    if isinstance(phase, RevolutionCheck):
        declare = can_declare(state, player) and rng.below(2) == 1
        return {"type": "confirmHand", "declareRevolution": declare}
    if isinstance(phase, TaxReturn):
        pool = list(hand)
        picked = [pool.pop(rng.below(len(pool))) for _ in range(phase.owed[player].count)]
        return {"type": "returnTax", "cardIds": [CARD_IDS[card] for card in picked]}
    return on_timeout(state, player)


def random_play(hand: list[int], top: Play | None, rng: Rng) -> Action:
    """One of ``legal_actions`` with equal chances, found by counting instead of listing."""
    if top is None:
        return {"type": "play", "cardIds": lead_cards(hand, rng.below(lead_count(hand)))}
    below_top = bisect_left(hand, FIRST_CARD[top.rank])
    if not below_top:
        return {"type": "pass"}  # nothing in hand beats top: the only legal move
    if top.count == 1:
        singles = single_follows(hand, below_top)
        pick = rng.below(len(singles) + 1)
        if pick == len(singles):
            return {"type": "pass"}
        return {"type": "play", "cardIds": [CARD_IDS[singles[pick]]]}
    sets = multi_follows(hand, below_top, top.count)
    pick = rng.below(len(sets) + 1)
    if pick == len(sets):
        return {"type": "pass"}
    start, used = sets[pick]
    cards = hand[start : start + used]
    if used < top.count:
        cards += hand[used - top.count :]  # jesters sort last
    return {"type": "play", "cardIds": [CARD_IDS[card] for card in cards]}


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
