"""Reading actions off the wire (spec 8.2): shape checks and card ids, before any change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from jokeapp.core.errors import IllegalAction
from jokeapp.games.dalmuti.data import CARD_INDEX

# The fields each action may carry.
FIELDS: dict[str, frozenset[str]] = {
    "confirmHand": frozenset({"type", "declareRevolution"}),
    "returnTax": frozenset({"type", "cardIds"}),
    "play": frozenset({"type", "cardIds"}),
    "pass": frozenset({"type"}),
}


def reject(code: str, detail: Mapping[str, Any] | None = None) -> NoReturn:
    """Raises the refusal ``code`` (its message comes from jokeapp.core.codes)."""
    raise IllegalAction(code, detail)


def action_type(action: Any) -> str:
    """The action's type, once its shape is known to be right."""
    if not isinstance(action, dict):
        reject("malformed_action")
    kind = action.get("type")
    allowed = FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        reject("unknown_action")
    if not allowed.issuperset(action):
        reject("malformed_action")
    return str(kind)


def declared(action: dict[str, Any]) -> bool:
    value = action.get("declareRevolution", False)
    if not isinstance(value, bool):
        reject("malformed_action")
    return value


def cards_from_hand(action: dict[str, Any], hand: list[int]) -> tuple[int, ...]:
    """The action's ``cardIds`` as card ints; each must be in ``hand``, once."""
    raw = action.get("cardIds")
    if not isinstance(raw, list):
        reject("malformed_action")
    cards: list[int] = []
    for card_id in raw:
        card = CARD_INDEX.get(card_id) if isinstance(card_id, str) else None
        if card is None:
            reject("unknown_card")
        if card in cards:
            reject("duplicate_card")
        if card not in hand:
            reject("not_in_hand")
        cards.append(card)
    return tuple(cards)
