"""우주여행 (spec 5.5): choosing a destination and paying the spaceport's owner."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.actions import board_pos, reject, require_current
from jokeapp.games.marble.data import SPACE_FEE, SPACE_POS, SPACEPORT_POS
from jokeapp.games.marble.landing import fly, run_payments
from jokeapp.games.marble.state import TURN_START, MarbleState, Payment


def space_fee_to(state: MarbleState, player: str) -> str | None:
    """Who the fare goes to: the spaceport's owner, unless that is the traveller or nobody."""
    deed = state.owners.get(SPACEPORT_POS)
    if deed is None or deed.owner == player:
        return None
    return deed.owner


def space_travel(state: MarbleState, events: list[Event], actor: str, dest: int) -> None:
    require_current(state, actor, TURN_START)
    if not state.players[actor].space_pending:
        reject("not_space_travel")
    if board_pos(dest) == SPACE_POS:
        reject("bad_dest")
    owner = space_fee_to(state, actor)
    if owner is None:
        fly(state, events, dest, fee_paid=False)
    else:
        run_payments(state, events, [Payment(actor, SPACE_FEE, owner, "spaceFee", dest)])
