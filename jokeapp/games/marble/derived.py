"""The project's fields beyond the spec's State (8.1), derived when a state written in the
spec's shape leaves them out (DESIGN.md: ``from_json`` accepts any such state).

- ``eliminated`` (the order of bankruptcies) from ``alive`` and ``bankruptAtRound``.
- a debt's ``player`` (who owes), ``reason`` (what for) and ``pos`` from whose turn it is,
  where that player stands and who is owed; a queued payment's payer likewise.

A card's payment is told by the deck: a card goes to the bottom the moment it is drawn, so the
bottom card is the one being paid for.
"""

from __future__ import annotations

from collections.abc import Sequence

from jokeapp.games.marble.cards import others_in_seat_order
from jokeapp.games.marble.data import (
    CITY,
    FUND_DONATIONS,
    FUND_PAY_POS,
    HOSPITAL_BILL,
    KIND,
    SPACEPORT_POS,
    TOUR,
)
from jokeapp.games.marble.state import BANK, FUND, MarbleState

BIRTHDAY = "L04"  # the others pay the drawer
TRAVEL_EXPENSE = "L19"  # the drawer pays the others
BANK_CARDS = ("L07", "L09", "L20")  # hospital bill, repairs, property tax: paid to the bank


def eliminated_order(state: MarbleState, given: Sequence[str] | None) -> list[str]:
    """The players out of the game, first out first. Written by hand, it must name exactly the
    players who are not alive; derived, it goes by ``bankruptAtRound`` (unknown counts as
    earliest), and within one round by seat order, the order that round's turns went in."""
    out = [p for p in state.order if not state.players[p].alive]
    if given is not None:
        if sorted(given) != sorted(out):
            raise ValueError(
                f"eliminated {list(given)} must list exactly the players not alive: {out}"
            )
        return list(given)
    return sorted(out, key=lambda p: state.players[p].bankrupt_at_round or 0)


def debtor(state: MarbleState, to: str, queued: int) -> str:
    """Whoever's turn it is owes, except under 생일 축하 (L04), when the drawer is owed: the
    others pay in seat order after the drawer, so the debtor is the one just before the
    ``queued`` payers still to come."""
    current = state.current_player
    if to != current:
        return current
    payers = others_in_seat_order(state, current)
    if len(payers) <= queued:
        raise ValueError(f"a debt to {current} with {queued} queued: not that many other players")
    return payers[-(queued + 1)]


def reason(state: MarbleState, player: str, to: str, amount: int) -> str:
    """What the debt is for: a toll, the fund square, the space fare or a card (its id)."""
    current = state.current_player
    if player != current:
        return BIRTHDAY
    piece = state.players[current]
    bottom = state.deck[-1] if state.deck else None
    if to == FUND:
        if piece.pos == FUND_PAY_POS:
            return "fund"
        if bottom in FUND_DONATIONS:
            return bottom
        card = next((c for c, gift in FUND_DONATIONS.items() if gift == amount), None)
        if card is None:
            raise ValueError(f"a debt of {amount} to the fund off square 38 matches no card")
        return card
    if to == BANK:
        if bottom in BANK_CARDS:
            return bottom
        return "L07" if amount == HOSPITAL_BILL else "L09"
    deed = state.owners.get(piece.pos)
    if KIND[piece.pos] in (CITY, TOUR) and deed is not None and deed.owner == to:
        return "toll"
    spaceport = state.owners.get(SPACEPORT_POS)
    if piece.space_pending and spaceport is not None and spaceport.owner == to:
        return "spaceFee"
    return TRAVEL_EXPENSE


def pos_for(state: MarbleState, player: str, why: str) -> int | None:
    """The square a payment is about: the land of a toll, 38 for the fund. A space fare's
    destination is nowhere in the spec's shape, so such a debt must say it (``pos``)."""
    if why == "toll":
        return state.players[player].pos
    if why == "fund":
        return FUND_PAY_POS
    if why == "spaceFee":
        raise ValueError("a space-fare debt needs debt.pos, the destination of the trip")
    return None


def queued_payer(state: MarbleState, why: str, index: int, queued: int) -> str:
    """Payer of the ``index``-th queued payment: under L04 the last ``queued`` others in seat
    order after the drawer, otherwise the player whose turn it is (L19)."""
    current = state.current_player
    if why != BIRTHDAY:
        return current
    payers = others_in_seat_order(state, current)
    return payers[len(payers) - queued + index]
