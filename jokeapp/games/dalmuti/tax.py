"""Tax (spec 4.5): the low ranks' best cards go up automatically, the high ranks give back."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.dalmuti.actions import reject
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_NUMBERS, JESTER
from jokeapp.games.dalmuti.state import DalmutiState, Owed, Playing, TaxMove, TaxReturn

GREAT_TAX = 2
LESSER_TAX = 1


def best_cards(hand: list[int], count: int, jester_taxable: bool) -> tuple[int, ...]:
    """The ``count`` best cards: lowest numbers, ties by card id (a hand is kept sorted).

    Jesters count as the very best when taxable and are left out otherwise, unless the hand
    has too few number cards to pay with.
    """
    jesters = [card for card in hand if CARD_NUMBERS[card] == JESTER]
    numbers = [card for card in hand if CARD_NUMBERS[card] != JESTER]
    ranked = jesters + numbers if jester_taxable else numbers + jesters
    return tuple(ranked[:count])


def worst_cards(hand: list[int], count: int) -> tuple[int, ...]:
    """The ``count`` worst number cards (highest numbers), jesters only if nothing else."""
    numbers = [card for card in hand if CARD_NUMBERS[card] != JESTER]
    jesters = [card for card in hand if CARD_NUMBERS[card] == JESTER]
    ranked = numbers[::-1] + jesters
    return tuple(ranked[:count])


def tax_pairs(order: list[str]) -> list[tuple[str, str, int]]:
    """(payer, receiver, count): last to first pays 2, second-last to second pays 1."""
    return [(order[-1], order[0], GREAT_TAX), (order[-2], order[1], LESSER_TAX)]


def move_cards(state: DalmutiState, giver: str, receiver: str, cards: tuple[int, ...]) -> None:
    from_hand = state.hands[giver]
    for card in cards:
        from_hand.remove(card)
    to_hand = state.hands[receiver]
    to_hand.extend(cards)
    to_hand.sort()
    state.tax_log.append(TaxMove(giver, receiver, cards))


def collect_tax(state: DalmutiState) -> list[Event]:
    """Moves the tax and opens the return phase."""
    events: list[Event] = []
    owed: dict[str, Owed] = {}
    for payer, receiver, count in tax_pairs(state.order):
        cards = best_cards(state.hands[payer], count, state.options.jester_taxable)
        move_cards(state, payer, receiver, cards)
        owed[receiver] = Owed(to=payer, count=count)
        events.append(
            {
                "type": "taxPaid",
                "from": payer,
                "to": receiver,
                "count": count,
                "cardIds": [CARD_IDS[card] for card in cards],
            }
        )
    state.phase = TaxReturn(owed=owed)
    state.current = state.order[0]
    return events


def owed_by(state: DalmutiState, actor: str) -> Owed:
    """What ``actor`` still has to give back; rejects anyone with nothing left to give."""
    phase = state.phase
    assert isinstance(phase, TaxReturn)
    owed = phase.owed.get(actor)
    if owed is None:
        reject("nothing_owed")
    if owed.done:
        reject("already_returned")
    return owed


def check_return_count(owed: Owed, cards: tuple[int, ...]) -> None:
    if len(cards) != owed.count:
        reject("wrong_return_count", {"count": owed.count})


def return_tax(state: DalmutiState, actor: str, owed: Owed, cards: tuple[int, ...]) -> list[Event]:
    """Gives ``cards`` back (already checked); starts play once both have given back."""
    move_cards(state, actor, owed.to, cards)
    owed.done = True
    events: list[Event] = [
        {
            "type": "taxReturned",
            "from": actor,
            "to": owed.to,
            "count": len(cards),
            "cardIds": [CARD_IDS[card] for card in cards],
        }
    ]
    phase = state.phase
    assert isinstance(phase, TaxReturn)
    if all(entry.done for entry in phase.owed.values()):
        state.phase = Playing()
        state.current = state.order[0]
    return events
