"""The revolution check (spec 4.4, 8.2): everyone confirms; the holder of both jesters may
declare a revolution, which takes effect when the last player has confirmed."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.dalmuti.actions import reject
from jokeapp.games.dalmuti.data import JESTERS
from jokeapp.games.dalmuti.state import (
    GREAT_REVOLUTION,
    REVOLUTION,
    DalmutiState,
    Playing,
    RevolutionCheck,
    Trick,
)
from jokeapp.games.dalmuti.tax import collect_tax


def holds_both_jesters(hand: list[int]) -> bool:
    return JESTERS[0] in hand and JESTERS[1] in hand


def can_declare(state: DalmutiState, player: str) -> bool:
    phase = state.phase
    return (
        isinstance(phase, RevolutionCheck)
        and phase.confirmed.get(player) is False
        and holds_both_jesters(state.hands[player])
    )


def has_declared(state: DalmutiState, player: str) -> bool:
    """``player`` declared a revolution that waits for the others' confirmations."""
    phase = state.phase
    return isinstance(phase, RevolutionCheck) and phase.declared_by == player


def check_confirm(state: DalmutiState, actor: str, declare: bool) -> None:
    phase = state.phase
    assert isinstance(phase, RevolutionCheck)
    done = phase.confirmed.get(actor)
    if done is None:
        reject("not_a_player")
    if done:
        reject("already_confirmed")
    if declare and not holds_both_jesters(state.hands[actor]):
        reject("no_two_jesters")


def confirm_hand(state: DalmutiState, actor: str, declare: bool) -> list[Event]:
    """Records the confirmation (and a declaration, unseen by the others); once everyone has
    confirmed, the declared revolution takes effect, or the tax moves."""
    phase = state.phase
    assert isinstance(phase, RevolutionCheck)
    phase.confirmed[actor] = True
    if declare:
        phase.declared_by = actor
    if not all(phase.confirmed.values()):
        return []
    if phase.declared_by is not None:
        return start_revolution(state, phase.declared_by)
    return collect_tax(state)


def start_revolution(state: DalmutiState, player: str) -> list[Event]:
    """No tax this round. From the last rank it is a great revolution: every rank, seat and
    turn is turned around, and the new top rank leads."""
    kind = REVOLUTION
    if player == state.order[-1]:
        kind = GREAT_REVOLUTION
        state.order = state.order[::-1]  # a new list: never the stored order of a past round
    state.revolution = kind
    state.revolution_by = player
    state.phase = Playing()
    state.current = state.order[0]
    state.trick = Trick(leader=state.order[0])
    return [{"type": "revolution", "player": player, "kind": kind}]
