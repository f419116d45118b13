"""What a seat can read off its own view: its hand, the top set, and its legal actions.

``legal_actions_from_view(view(state, p), p) == legal_actions(state, p)`` for every state and
player (tests/dalmuti/test_view_legal.py); bots use it so that they never need the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jokeapp.core.contract import Action
from jokeapp.games.dalmuti.data import CARD_INDEX
from jokeapp.games.dalmuti.legal import choice_cards, number_counts, play_choices, return_choices
from jokeapp.games.dalmuti.revolution import holds_both_jesters
from jokeapp.games.dalmuti.state import Play


def view_hand(view: Mapping[str, Any]) -> list[int]:
    """The viewer's hand as sorted card ints (empty for a spectator)."""
    return sorted(CARD_INDEX[card["id"]] for card in view.get("hand") or ())


def view_play(shown: Mapping[str, Any] | None) -> Play | None:
    if shown is None:
        return None
    cards = tuple(CARD_INDEX[card] for card in shown["cardIds"])
    return Play(cards, int(shown["count"]), int(shown["rank"]), str(shown["by"]))


def view_top(view: Mapping[str, Any]) -> Play | None:
    return view_play(view["trick"]["top"])


def legal_actions_from_view(view: Mapping[str, Any], player: str) -> list[Action]:
    if view.get("viewer") != player or view.get("hand") is None:
        return []
    hand = view_hand(view)
    phase = view["phase"]
    kind = phase["kind"]
    if kind == "revolutionCheck":
        if phase["confirmed"].get(player) is not False:
            return []
        actions: list[Action] = [{"type": "confirmHand", "declareRevolution": False}]
        if holds_both_jesters(hand):
            actions.append({"type": "confirmHand", "declareRevolution": True})
        return actions
    if kind == "taxReturn":
        owed = phase["owed"].get(player)
        if owed is None or owed["done"]:
            return []
        return [
            {"type": "returnTax", "cardIds": ids}
            for ids in return_choices(hand, int(owed["count"]))
        ]
    if kind != "playing" or view.get("current") != player:
        return []
    top = view_top(view)
    plays: list[Action] = [
        {"type": "play", "cardIds": choice_cards(hand, choice)}
        for choice in play_choices(number_counts(hand), top)
    ]
    if top is not None:
        plays.append({"type": "pass"})
    return plays
