"""What a seat knows of the deck's order from the cards it saw drawn (spec 3.5, 8.3).

The deck is never reshuffled: a drawn card goes to the bottom (a kept one, L11 or L12, when it
is used or its holder drops out). So the deck is always the cards never drawn, in an order
nobody knows, above the cards that went back, in the order they went. A seat that saw every
event since the game began knows that bottom part exactly; once every card has been drawn,
it knows the whole deck. ``known_deck`` replays the seat's events into that picture and checks
it against the view. A match restored from a snapshot has only the events since: the cards
drawn before count as never drawn (less known, nothing false), and a draw the picture cannot
explain gives None, when the caller falls back to the unseen cards in any order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from jokeapp.core.contract import Event
from jokeapp.games.marble.data import CARD_IDS, ESCAPE_CARD, KEPT_CARDS, TOLL_WAIVER
from jokeapp.games.marble.view_legal import unseen_cards


class KnownDeck(NamedTuple):
    unknown: list[str]  # the cards never drawn: on top, in an order nobody knows (card order)
    bottom: list[str]  # below them, in this order


def known_deck(view: Mapping[str, Any], events: Sequence[Event]) -> KnownDeck | None:
    """The deck as the seat's events tell it, or None when they do not add up to the view."""
    unknown = set(CARD_IDS)
    bottom: list[str] = []
    held: dict[str, list[str]] = {}
    for event in events:
        kind = event["type"]
        if kind == "cardDrawn":
            card = event["cardId"]
            if unknown:
                if card not in unknown:
                    return None
                unknown.discard(card)
            elif not bottom or bottom.pop(0) != card:
                return None
            if card in KEPT_CARDS:
                held.setdefault(event["player"], []).append(card)
            else:
                bottom.append(card)
        elif kind == "escaped" and event["how"] == "card":
            _give_back(held, unknown, bottom, event["player"], ESCAPE_CARD)
        elif kind == "tollPaid" and event["waived"]:
            _give_back(held, unknown, bottom, event["from"], TOLL_WAIVER)
        elif kind == "bankrupt":
            bottom.extend(held.pop(event["player"], []))
    in_deck = unseen_cards(view)  # all but the cards the players hold now
    top = [card for card in in_deck if card in unknown]
    if sorted(top + bottom) != sorted(in_deck) or len(in_deck) != view["deckCount"]:
        return None
    return KnownDeck(top, bottom)


def _give_back(
    held: dict[str, list[str]], unknown: set[str], bottom: list[str], player: str, card: str
) -> None:
    """A kept card goes back under the deck (drawn before the events began, if not held)."""
    cards = held.get(player, [])
    if card in cards:
        cards.remove(card)
    unknown.discard(card)
    bottom.append(card)
