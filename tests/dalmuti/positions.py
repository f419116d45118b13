"""Positions of the checklist tests, built through from_json, and the refusal check."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.core.errors import IllegalAction
from jokeapp.games.dalmuti.state import DalmutiState
from tests.dalmuti.helpers import FIVE, GAME, J1, J2, card, cards, position, top


def rejected(
    state: DalmutiState, actor: str, action: Any, code: str | None = None
) -> IllegalAction:
    """Asserts the action is refused and changes nothing; returns the error."""
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, actor, action)
    assert GAME.to_json(state) == before
    if code is not None:
        assert err.value.code == code
    return err.value


def tax_position(last_hand: list[str], jester_taxable: bool) -> DalmutiState:
    hands = {
        "a": cards(12, 12),
        "b": cards(11),
        "c": cards(10),
        "d": cards(9, 8),
        "e": last_hand,
    }
    return position(
        hands,
        options={"jesterTaxable": jester_taxable},
        phase={"kind": "revolutionCheck", "confirmed": {p: p != "e" for p in FIVE}},
    )


def return_position() -> DalmutiState:
    state = tax_position([J1, *cards(1, 3, 7)], jester_taxable=False)
    GAME.apply(state, "e", {"type": "confirmHand", "declareRevolution": False})
    return state  # a got 1 and 3 from e; b got 8 from d


def revolution_position(holder: str) -> DalmutiState:
    hands = {p: cards(4 + i, 4 + i) for i, p in enumerate(FIVE)}
    hands[holder] = [*hands[holder], J1, J2]
    return position(
        hands, phase={"kind": "revolutionCheck", "confirmed": dict.fromkeys(FIVE, False)}
    )


def follow_position(*ids: str, rank: int, hand: list[str]) -> DalmutiState:
    hands = {"a": cards(12, 12), "b": hand, "c": cards(11), "d": cards(10), "e": cards(9, 9)}
    return position(hands, trick=top("a", *ids, rank=rank), current="b")


NINE_THREE = (card(9, 1), card(9, 2), card(9, 3))


def declare_then_all_confirm(state: DalmutiState, declarer: str) -> list[dict[str, Any]]:
    """``declarer`` declares, then everyone else confirms; the events of the last
    confirmation, which is when the revolution takes effect (spec 8.2)."""
    assert GAME.apply(state, declarer, {"type": "confirmHand", "declareRevolution": True}) == []
    confirmed = GAME.to_json(state)["phase"]["confirmed"]
    events: list[dict[str, Any]] = []
    for player in [p for p in state.order if not confirmed[p]]:
        events = GAME.apply(state, player, {"type": "confirmHand"})
    return events
