"""What a player or a spectator sees (spec 8.3).

Everything on the table is public; the deck's order and the rng never appear (only
``deckCount``). The decision maker also gets ``choices`` with cost previews, the debtor
``saleCandidates``, ``shortfall`` and ``raisable``, the space traveller ``spaceTravel``.
"""

from __future__ import annotations

from typing import Any

from jokeapp.core.contract import ViewParts
from jokeapp.games.marble.data import (
    BOARD_SIZE,
    BUILD_COST,
    CITY,
    KIND,
    LAND_PRICE,
    SPACE_FEE,
    SPACE_POS,
    TOUR,
)
from jokeapp.games.marble.landing import toll_of
from jokeapp.games.marble.payments import raisable, sale_value
from jokeapp.games.marble.serial import to_json
from jokeapp.games.marble.space import space_fee_to
from jokeapp.games.marble.state import DEBT, DECIDE, TURN_START, MarbleState

HIDDEN = ("deck", "rng")  # left out too: turnSeq and current, see serial.to_json


def decision_choices(state: MarbleState, player: str) -> list[dict[str, Any]]:
    decision = state.decision
    if decision is None:
        return []
    cash = state.players[player].cash
    pos = decision.pos
    choices: list[dict[str, Any]] = []

    def offer(kind: str, cost: int, **extra: Any) -> None:
        choices.append(
            {
                "type": kind,
                **extra,
                "cost": cost,
                "cashAfter": cash - cost,
                "affordable": cost <= cash,
            }
        )

    if decision.can_buy:
        offer("BUY", LAND_PRICE[pos])
    if decision.can_build is not None:
        offer("BUILD", BUILD_COST[pos][decision.can_build], level=decision.can_build)
    if decision.can_takeover is not None:
        offer("TAKEOVER", decision.can_takeover)
    choices.append({"type": "PASS", "cost": 0, "cashAfter": cash, "affordable": True})
    return choices


def sale_candidates(state: MarbleState, player: str) -> list[dict[str, Any]]:
    candidates: list[dict[str, Any]] = []
    for pos in sorted(p for p, d in state.owners.items() if d.owner == player):
        if state.owners[pos].level > 0:
            candidates.append({"pos": pos, "what": "top", "amount": sale_value(state, pos, "top")})
        candidates.append({"pos": pos, "what": "all", "amount": sale_value(state, pos, "all")})
    return candidates


def space_preview(state: MarbleState, player: str) -> dict[str, Any]:
    """For the traveller: the fare, and per destination the salary and the toll waiting there
    ("여기로 가면: 월급 받음/통행료 ○○")."""
    owner = space_fee_to(state, player)
    destinations: list[dict[str, Any]] = []
    for dest in range(BOARD_SIZE):
        if dest == SPACE_POS:
            continue
        deed = state.owners.get(dest)
        toll = 0
        if deed is not None and deed.owner != player and KIND[dest] in (CITY, TOUR):
            toll = toll_of(state, dest, deed)
        destinations.append({"dest": dest, "salary": dest < SPACE_POS, "toll": toll})
    return {"fee": SPACE_FEE if owner else 0, "to": owner, "destinations": destinations}


def public_view(state: MarbleState) -> dict[str, Any]:
    """What everyone sees alike: the spectator's view without ``viewer``."""
    seen = to_json(state, hidden=False)  # all but HIDDEN
    seen["deckCount"] = len(state.deck)
    seen["currentPlayer"] = state.order[state.current]
    return seen


def view(state: MarbleState, viewer: str | None) -> dict[str, Any]:
    return {**public_view(state), **own_view(state, viewer)}


def view_parts(state: MarbleState, viewers: list[str | None]) -> ViewParts:
    """Each viewer's view as the public part, built once, and its own keys (core.contract)."""
    return ViewParts(public_view(state), {viewer: own_view(state, viewer) for viewer in viewers})


def own_view(state: MarbleState, viewer: str | None) -> dict[str, Any]:
    """The keys of ``viewer``'s view beyond ``public_view``: who it is, and what the one who
    decides may choose from."""
    seen: dict[str, Any] = {"viewer": viewer}
    if viewer is None:
        return seen
    current = state.order[state.current]
    if state.phase == DECIDE and viewer == current:
        seen["choices"] = decision_choices(state, viewer)
    if state.phase == TURN_START and viewer == current and state.players[viewer].space_pending:
        seen["spaceTravel"] = space_preview(state, viewer)
    debt = state.debt
    if state.phase == DEBT and debt is not None and debt.payment.player == viewer:
        seen["saleCandidates"] = sale_candidates(state, viewer)
        seen["shortfall"] = debt.payment.amount - state.players[viewer].cash
        seen["raisable"] = raisable(state, viewer)
    return seen
