"""Who must act now, with the rules' time budget, and what happens if they do not (spec 8.5)."""

from __future__ import annotations

from jokeapp.core.contract import AbsencePolicy, Action, Pending
from jokeapp.games.dalmuti.actions import reject
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_NUMBERS, JESTER
from jokeapp.games.dalmuti.state import (
    CONFIRM_HAND,
    PLAY,
    RETURN_TAX,
    REVOLUTION_CHECK_SECONDS,
    TAX_RETURN_SECONDS,
    DalmutiState,
    RevolutionCheck,
    TaxReturn,
)
from jokeapp.games.dalmuti.tax import worst_cards

__all__ = [
    "ABSENCE",
    "REVOLUTION_CHECK_SECONDS",
    "TAX_RETURN_SECONDS",
    "on_timeout",
    "pending",
    "pending_player",
    "timeout_lead",
]

# Spec 8.5: nobody is ever removed; after three timeouts in a row a player's deadline is 5 s.
ABSENCE = AbsencePolicy(short_after=3, short_seconds=5.0)


def pending(state: DalmutiState) -> list[Pending]:
    """Who must act now (the game's ``pending``): in play, the current player alone."""
    phase = state.phase
    if phase.kind == "playing":  # asked before every move: the prebuilt Pending, read inline
        return [state.pendings[PLAY][state.current]]
    if isinstance(phase, RevolutionCheck):
        return [
            state.pending(player, CONFIRM_HAND)
            for player in state.order
            if not phase.confirmed[player]
        ]
    if isinstance(phase, TaxReturn):
        return [
            state.pending(player, RETURN_TAX)
            for player, owed in phase.owed.items()
            if not owed.done
        ]
    return []


def pending_player(state: DalmutiState) -> str | None:
    """The first of ``pending``, None when no one is: in play, the current player, without
    the list."""
    phase = state.phase
    if phase.kind == "playing":
        return state.current
    if isinstance(phase, RevolutionCheck):
        return next((player for player in state.order if not phase.confirmed[player]), None)
    if isinstance(phase, TaxReturn):
        return next((player for player, owed in phase.owed.items() if not owed.done), None)
    return None


def timeout_lead(hand: list[int]) -> list[int]:
    """All cards of the highest number, jesters left out; all jesters if nothing else is left."""
    numbers = [card for card in hand if CARD_NUMBERS[card] != JESTER]
    if not numbers:
        return list(hand)
    highest = CARD_NUMBERS[numbers[-1]]
    return [card for card in numbers if CARD_NUMBERS[card] == highest]


def on_timeout(state: DalmutiState, player: str) -> Action:
    """The spec's automatic action; never a revolution."""
    if not any(entry.player == player for entry in pending(state)):
        reject("not_pending")
    phase = state.phase
    hand = state.hands[player]
    if isinstance(phase, RevolutionCheck):
        return {"type": "confirmHand", "declareRevolution": False}
    if isinstance(phase, TaxReturn):
        cards = worst_cards(hand, phase.owed[player].count)
        return {"type": "returnTax", "cardIds": [CARD_IDS[card] for card in cards]}
    if state.trick.top is None:
        return {"type": "play", "cardIds": [CARD_IDS[card] for card in timeout_lead(hand)]}
    return {"type": "pass"}
