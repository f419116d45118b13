"""Drawing a lucky card and its money effects (spec 3.5).

Moves are returned to landing.py, which owns arrivals; a card's payments are returned as
Payment lists so that debts and bankruptcies follow the one path of payments.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from jokeapp.core.contract import Event
from jokeapp.games.marble.data import (
    BANK_GIFTS,
    BIRTHDAY_GIFT,
    FUND_DONATIONS,
    FUND_RECEIVE_POS,
    HOSPITAL_BILL,
    KEPT_CARDS,
    PROPERTY_TAX_PER_LAND,
    REPAIR_BY_LEVEL,
    SEOUL_POS,
    SPACE_POS,
    START_POS,
    TRAVEL_EXPENSE,
    nearest_tour_ahead,
)
from jokeapp.games.marble.state import BANK, FUND, MarbleState, Payment

BACK_STEPS = 3


@dataclass(frozen=True, slots=True)
class CardOutcome:
    """What the arrival logic still has to do once the card is read."""

    kind: str  # done | pay | forward | back | island
    payments: tuple[Payment, ...] = ()
    dest: int = 0


DONE = CardOutcome("done")
ISLAND = CardOutcome("island")
BACK = CardOutcome("back")

FORWARD_TARGETS = {"L13": START_POS, "L14": SPACE_POS, "L15": SEOUL_POS, "L17": FUND_RECEIVE_POS}


def others_in_seat_order(state: MarbleState, player: str) -> list[str]:
    """The other survivors, going round the table from the one after ``player``."""
    order = state.order
    start = order.index(player)
    return [p for p in order[start + 1 :] + order[:start] if state.players[p].alive]


def repair_bill(state: MarbleState, player: str) -> int:
    return sum(REPAIR_BY_LEVEL[d.level] for d in state.owners.values() if d.owner == player)


def property_tax(state: MarbleState, player: str) -> int:
    return PROPERTY_TAX_PER_LAND * sum(1 for d in state.owners.values() if d.owner == player)


def _pay(player: str, amount: int, to: str, card: str) -> CardOutcome:
    return CardOutcome("pay", (Payment(player, amount, to, card),))


def draw_card(state: MarbleState, events: list[Event], player: str) -> CardOutcome:
    card = state.deck.pop(0)
    state.cards_this_turn += 1
    events.append({"type": "cardDrawn", "player": player, "cardId": card})
    if card in KEPT_CARDS:
        state.players[player].held_cards.append(card)
        return DONE
    state.deck.append(card)
    return _effect(state, events, player, card)


def _effect(state: MarbleState, events: list[Event], player: str, card: str) -> CardOutcome:
    gift = BANK_GIFTS.get(card)
    if gift is not None:
        state.players[player].cash += gift
        events.append(
            {"type": "transfer", "from": BANK, "to": player, "amount": gift, "reason": card}
        )
        return DONE
    donation = FUND_DONATIONS.get(card)
    if donation is not None:
        return _pay(player, donation, FUND, card)
    target = FORWARD_TARGETS.get(card)
    if target is not None:
        return CardOutcome("forward", dest=target)
    if card == "L18":
        return CardOutcome("forward", dest=nearest_tour_ahead(state.players[player].pos))
    if card == "L16":
        return BACK
    if card == "L10":
        return ISLAND
    if card == "L07":
        return _pay(player, HOSPITAL_BILL, BANK, card)
    if card == "L09":
        return _pay(player, repair_bill(state, player), BANK, card)
    if card == "L20":
        return _pay(player, property_tax(state, player), BANK, card)
    others = others_in_seat_order(state, player)
    if card == "L04":
        return CardOutcome("pay", tuple(Payment(o, BIRTHDAY_GIFT, player, card) for o in others))
    if card == "L19":
        return CardOutcome("pay", tuple(Payment(player, TRAVEL_EXPENSE, o, card) for o in others))
    raise AssertionError(f"unknown card {card}")
