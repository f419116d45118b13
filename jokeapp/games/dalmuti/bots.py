"""Bots: ``(knowledge, rng, budget) -> action``, deciding from the seat's view only.

random: each of the seat's legal actions with equal chances (play, confirmation, tax return);
it reads nothing else (core.bots.uniform), so the simulator builds no view for it.
easy: plain play: sheds the worst set that beats the table, spends jesters and low cards
freely, and one move in three plays any legal action; revolts only from the last two ranks.
normal: sheds the worst sets first, saves low cards and jesters to win back the lead, gives
back the worst cards as tax, and revolts whenever that spares it or lifts it.
hard: normal outside play; in play, information-set MCTS (ismcts.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from jokeapp.core.bots import BotLevels, Budget, SeatKnowledge, quick, uniform
from jokeapp.core.contract import Action, pick_uniformly
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, JESTER
from jokeapp.games.dalmuti.ismcts import search
from jokeapp.games.dalmuti.legal import Choice, choice_cards, number_counts, play_choices
from jokeapp.games.dalmuti.state import Play
from jokeapp.games.dalmuti.tax import worst_cards
from jokeapp.games.dalmuti.view_legal import view_hand, view_top

LOW_NUMBER: Final = 3  # numbers this good are kept back while the hand is still long
SHORT_HAND: Final = 4  # cards left after a play at which keeping anything back stops paying
EASY_SLIP: Final = 3  # easy plays any legal action one move in this many


@uniform(draw_single=True)  # a single choice is drawn for too (the records say so)
@quick
def random_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    legal = knowledge.legal
    if not legal:
        return {"type": "pass"}  # asked out of turn: the engine will refuse it
    return pick_uniformly(legal, rng, draw_single=True)


def heuristic_lead(counts: list[int]) -> Choice:
    """Everything at once if one set empties the hand, else the worst whole number."""
    numbers = [number for number in range(1, JESTER) if counts[number]]
    jesters = counts[JESTER]
    if not numbers:
        return (JESTER, 0, jesters)
    worst = numbers[-1]
    return (worst, counts[worst], jesters if len(numbers) == 1 else 0)


def heuristic_follow(
    counts: list[int], top: Play, hand_size: int, hold_back: bool = True
) -> Choice | None:
    """The worst set that still beats ``top``: whole numbers before split ones, jesters and
    low numbers (with ``hold_back``) only when the hand is nearly gone."""
    choices = play_choices(counts, top)
    if not choices:
        return None

    def preference(choice: Choice) -> tuple[bool, bool, int]:
        number, used, wild = choice
        return (wild == 0, used == counts[number], number)

    best = max(choices, key=preference)
    number, _, wild = best
    closing = hand_size - top.count <= SHORT_HAND
    if hold_back and (wild or number <= LOW_NUMBER) and not closing:
        return None
    return best


def _tax_return(view: Mapping[str, Any], player: str) -> Action:
    count = int(view["phase"]["owed"][player]["count"])
    cards = worst_cards(view_hand(view), count)
    return {"type": "returnTax", "cardIds": [CARD_IDS[card] for card in cards]}


def _confirm(view: Mapping[str, Any], player: str, from_rank: int) -> Action:
    """Revolt from rank ``from_rank`` down (0 = top): the top two would lose their tax."""
    declare = bool(view.get("canDeclareRevolution")) and view["order"].index(player) >= from_rank
    return {"type": "confirmHand", "declareRevolution": declare}


def _play(view: Mapping[str, Any], hold_back: bool) -> Action:
    hand = view_hand(view)
    counts = number_counts(hand)
    top = view_top(view)
    choice = (
        heuristic_lead(counts)
        if top is None
        else heuristic_follow(counts, top, len(hand), hold_back)
    )
    if choice is None:
        return {"type": "pass"}
    return {"type": "play", "cardIds": choice_cards(hand, choice)}


def _plain(knowledge: SeatKnowledge, hold_back: bool, revolt_from: int) -> Action:
    view, player = knowledge.view, knowledge.player
    kind = view["phase"]["kind"]
    if kind == "revolutionCheck":
        return _confirm(view, player, revolt_from)
    if kind == "taxReturn":
        return _tax_return(view, player)
    if kind == "playing":
        return _play(view, hold_back)
    return knowledge.legal[0] if knowledge.legal else {"type": "pass"}


@quick
def normal_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    return _plain(knowledge, hold_back=True, revolt_from=2)


@quick
def easy_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    if knowledge.legal and rng.below(EASY_SLIP) == 0:
        return random_bot(knowledge, rng)
    return _plain(knowledge, hold_back=False, revolt_from=len(knowledge.view["order"]) - 2)


def hard_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    view = knowledge.view
    if view["phase"]["kind"] != "playing" or len(knowledge.legal) <= 1:
        return normal_bot(knowledge, rng)
    action = search(knowledge, rng, budget or DEFAULT_BUDGET)
    return action if action in knowledge.legal else normal_bot(knowledge, rng)


DEFAULT_BUDGET: Final = Budget(iterations=300)
BOTS: Final = BotLevels(
    {"random": random_bot, "easy": easy_bot, "normal": normal_bot, "hard": hard_bot}
)
