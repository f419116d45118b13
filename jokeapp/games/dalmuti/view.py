"""What each player or spectator may see (spec 8.3), and the copies of events they get."""

from __future__ import annotations

from typing import Any

from jokeapp.core.contract import Event, ViewParts
from jokeapp.core.options import options_json
from jokeapp.games.dalmuti.data import CARD_IDS, card_json, rank_title
from jokeapp.games.dalmuti.revolution import can_declare, has_declared
from jokeapp.games.dalmuti.rounds import game_result
from jokeapp.games.dalmuti.state import (
    DalmutiState,
    FirstRankDraw,
    Play,
    RevolutionCheck,
    TaxReturn,
)

# Events whose card ids only the giver and the receiver may see.
TAX_EVENTS = frozenset({"taxPaid", "taxReturned"})


def play_json(played: Play) -> dict[str, Any]:
    return {
        "cardIds": [CARD_IDS[card] for card in played.cards],
        "count": played.count,
        "rank": played.rank,
        "by": played.by,
    }


def public_phase(state: DalmutiState) -> dict[str, Any]:
    """The phase as everyone may see it (the spec's shape holds nothing secret)."""
    phase = state.phase
    if isinstance(phase, FirstRankDraw):
        return {"kind": phase.kind, "draws": {p: list(ns) for p, ns in phase.draws.items()}}
    if isinstance(phase, RevolutionCheck):
        return {"kind": phase.kind, "confirmed": dict(phase.confirmed)}
    if isinstance(phase, TaxReturn):
        owed = {p: {"to": o.to, "count": o.count, "done": o.done} for p, o in phase.owed.items()}
        return {"kind": phase.kind, "owed": owed}
    return {"kind": phase.kind}


def trick_json(state: DalmutiState) -> dict[str, Any]:
    trick = state.trick
    return {
        "leader": trick.leader,
        "top": None if trick.top is None else play_json(trick.top),
        "passesSinceTop": list(trick.passes_since_top),
        "lockedOut": list(trick.locked_out),
        "pile": [play_json(played) for played in trick.pile],
    }


def tax_view(state: DalmutiState, viewer: str | None) -> list[dict[str, Any]]:
    """Every tax move of the round; the cards only for the two players concerned."""
    payers = state.order[-2:]
    moves: list[dict[str, Any]] = []
    for move in state.tax_log:
        entry: dict[str, Any] = {
            "kind": "paid" if move.giver in payers else "returned",
            "from": move.giver,
            "to": move.receiver,
            "count": len(move.cards),
        }
        if viewer is not None and viewer in (move.giver, move.receiver):
            entry["cardIds"] = [CARD_IDS[card] for card in move.cards]
        moves.append(entry)
    return moves


def public_view(state: DalmutiState) -> dict[str, Any]:
    """What everyone sees alike, in the view's key order; ``viewer``, ``hand`` and ``tax`` are
    the spectator's (see ``viewer_view``)."""
    seats = len(state.order)
    return {
        "game": "dalmuti",
        "viewer": None,
        "options": options_json(state.options),
        "players": list(state.players),
        "order": list(state.order),
        "titles": {player: rank_title(place, seats) for place, player in enumerate(state.order)},
        "round": state.round,
        "phase": public_phase(state),
        "revolution": state.revolution,
        "revolutionBy": state.revolution_by,
        "handCounts": {player: len(state.hands[player]) for player in state.order},
        "hand": None,
        "trick": trick_json(state),
        "current": state.current if state.phase.kind == "playing" else None,
        "finishOrder": list(state.finish_order),
        "roundResults": [
            {"order": list(r.order), "revolution": r.revolution} for r in state.round_results
        ],
        "totals": dict(state.totals),
        "tax": None,
        "discardCount": len(state.discard),
        "result": game_result(state) if state.phase.kind == "finished" else None,
    }


def view(state: DalmutiState, viewer: str | None) -> dict[str, Any]:
    return {**public_view(state), **own_view(state, viewer)}


def view_parts(state: DalmutiState, viewers: list[str | None]) -> ViewParts:
    """Each viewer's view as the public part, built once, and its own keys (core.contract)."""
    return ViewParts(public_view(state), {viewer: own_view(state, viewer) for viewer in viewers})


def own_view(state: DalmutiState, viewer: str | None) -> dict[str, Any]:
    """The keys of ``viewer``'s view over ``public_view``: who it is, its hand and its tax
    moves in their public places, and what only it may learn."""
    seated = viewer is not None and viewer in state.hands
    shown: dict[str, Any] = {"viewer": viewer}
    if seated and viewer:
        shown["hand"] = [card_json(card) for card in state.hands[viewer]]
    shown["tax"] = tax_view(state, viewer)
    # Only the holder of both jesters learns they may revolt, and only the declarer that the
    # declaration counts (it waits for the others); nobody else sees either key at all.
    if seated and viewer and can_declare(state, viewer):
        shown["canDeclareRevolution"] = True
    if seated and viewer and has_declared(state, viewer):
        shown["revolutionDeclared"] = True
    return shown


def redact_event(event: Event, viewer: str | None) -> Event:
    """Tax events lose their card ids for everyone but the giver and the receiver."""
    if event.get("type") in TAX_EVENTS and (
        viewer is None or viewer not in (event["from"], event["to"])
    ):
        return {key: value for key, value in event.items() if key != "cardIds"}
    return event
