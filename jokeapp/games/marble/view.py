"""What a player or a spectator sees (spec 8.3).

Everything on the table is public; the deck's order and the rng never appear (only
``deckCount``). The decision maker also gets ``choices`` with cost previews, the debtor
``saleCandidates`` and ``shortfall``.
"""

from __future__ import annotations

from typing import Any

from jokeapp.games.marble.data import BUILD_COST, LAND_PRICE
from jokeapp.games.marble.payments import raisable, sale_value
from jokeapp.games.marble.serial import to_json
from jokeapp.games.marble.state import DEBT, DECIDE, MarbleState

HIDDEN = ("deck", "rng")


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


def view(state: MarbleState, viewer: str | None) -> dict[str, Any]:
    seen = to_json(state)
    for key in HIDDEN:
        del seen[key]
    seen["deckCount"] = len(state.deck)
    seen["currentPlayer"] = state.order[state.current]
    seen["viewer"] = viewer
    if viewer is None:
        return seen
    if state.phase == DECIDE and viewer == state.order[state.current]:
        seen["choices"] = decision_choices(state, viewer)
    debt = state.debt
    if state.phase == DEBT and debt is not None and debt.payment.player == viewer:
        seen["saleCandidates"] = sale_candidates(state, viewer)
        seen["shortfall"] = debt.payment.amount - state.players[viewer].cash
        seen["raisable"] = raisable(state, viewer)
    return seen
