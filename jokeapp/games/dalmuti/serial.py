"""The state as JSON in the spec's DalmutiState shape (camelCase, phase as {"kind": ...}).

``from_json`` also reads hand-written positions: a card may be ``{"id", "n"}`` or a bare id,
and fields that only matter mid-game (taxLog, trick, totals, seq …) may be left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jokeapp.core.options import resolve_options
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_INDEX, CARD_NUMBERS, card_json
from jokeapp.games.dalmuti.options import OPTIONS
from jokeapp.games.dalmuti.state import (
    NO_REVOLUTION,
    DalmutiOptions,
    DalmutiState,
    Finished,
    FirstRankDraw,
    Owed,
    Phase,
    Play,
    Playing,
    RevolutionCheck,
    RoundOver,
    RoundResult,
    TaxMove,
    TaxReturn,
    Trick,
)
from jokeapp.games.dalmuti.view import play_json, public_phase, trick_json


def ids(cards: Any) -> list[str]:
    return [CARD_IDS[card] for card in cards]


def to_json(state: DalmutiState) -> dict[str, Any]:
    return {
        "options": state.options.to_dict(),
        "rng": state.rng.to_json(),
        "players": list(state.players),
        "order": list(state.order),
        "round": state.round,
        "hands": {player: [card_json(card) for card in state.hands[player]] for player in state.players},
        "phase": phase_json(state),
        "revolution": state.revolution,
        "revolutionBy": state.revolution_by,
        "taxLog": [{"from": m.giver, "to": m.receiver, "cardIds": ids(m.cards)} for m in state.tax_log],
        "trick": trick_json(state),
        "current": state.current,
        "finishOrder": list(state.finish_order),
        "roundResults": [{"order": list(r.order), "revolution": r.revolution} for r in state.round_results],
        "totals": dict(state.totals),
        "discard": ids(state.discard),
        "turnStartedAt": state.turn_started_at,
        "seq": state.seq,
    }


def phase_json(state: DalmutiState) -> dict[str, Any]:
    """The public phase, plus what the omniscient state keeps secret: a waiting declaration."""
    shown = public_phase(state)
    if isinstance(state.phase, RevolutionCheck):
        shown["declaredBy"] = state.phase.declared_by
    return shown


def card_from_json(data: Any) -> int:
    card_id = data["id"] if isinstance(data, Mapping) else data
    card = CARD_INDEX.get(card_id) if isinstance(card_id, str) else None
    if card is None:
        raise ValueError(f"unknown card id: {card_id!r}")
    if isinstance(data, Mapping) and "n" in data and data["n"] != CARD_NUMBERS[card]:
        raise ValueError(f"card {card_id} has n={CARD_NUMBERS[card]}, not {data['n']}")
    return card


def cards_from_json(data: Any) -> list[int]:
    return [card_from_json(item) for item in data]


def phase_from_json(data: Mapping[str, Any]) -> Phase:
    kind = data["kind"]
    if kind == "firstRankDraw":
        return FirstRankDraw(draws={p: list(ns) for p, ns in data.get("draws", {}).items()})
    if kind == "revolutionCheck":
        confirmed = {p: bool(done) for p, done in data["confirmed"].items()}
        declared_by = data.get("declaredBy")
        if declared_by is not None and not confirmed.get(declared_by):
            raise ValueError(f"declaredBy {declared_by!r} must be a player who has confirmed")
        return RevolutionCheck(confirmed=confirmed, declared_by=declared_by)
    if kind == "taxReturn":
        owed = {
            p: Owed(to=o["to"], count=int(o["count"]), done=bool(o.get("done", False)))
            for p, o in data["owed"].items()
        }
        return TaxReturn(owed=owed)
    simple: dict[str, Phase] = {"playing": Playing(), "roundOver": RoundOver(), "finished": Finished()}
    if kind not in simple:
        raise ValueError(f"unknown phase kind: {kind!r}")
    return simple[kind]


def play_from_json(data: Mapping[str, Any], by: str) -> Play:
    cards = tuple(cards_from_json(data["cardIds"]))
    return Play(cards=cards, count=int(data.get("count", len(cards))), rank=int(data["rank"]), by=data.get("by", by))


def trick_from_json(data: Mapping[str, Any] | None, leader: str) -> Trick:
    if data is None:
        return Trick(leader=leader)
    leader = data.get("leader", leader)
    top = data.get("top")
    return Trick(
        leader=leader,
        top=None if top is None else play_from_json(top, leader),
        passes_since_top=list(data.get("passesSinceTop", [])),
        locked_out=list(data.get("lockedOut", [])),
        pile=[play_from_json(item, leader) for item in data.get("pile", [])],
    )


def from_json(data: Mapping[str, Any]) -> DalmutiState:
    options = DalmutiOptions.from_dict(resolve_options(OPTIONS, data.get("options", {})))
    players = list(data["players"])
    order = list(data.get("order", players))
    rng = Rng.from_json(dict(data["rng"])) if "rng" in data else Rng.from_seed(0)
    hands = {player: sorted(cards_from_json(data["hands"].get(player, []))) for player in players}
    return DalmutiState(
        options=options,
        rng=rng,
        players=players,
        order=order,
        round=int(data.get("round", 1)),
        hands=hands,
        phase=phase_from_json(data.get("phase", {"kind": "playing"})),
        revolution=data.get("revolution", NO_REVOLUTION),
        revolution_by=data.get("revolutionBy"),
        tax_log=[
            TaxMove(m["from"], m["to"], tuple(cards_from_json(m["cardIds"]))) for m in data.get("taxLog", [])
        ],
        trick=trick_from_json(data.get("trick"), order[0]),
        current=data.get("current", order[0]),
        finish_order=list(data.get("finishOrder", [])),
        round_results=[
            RoundResult(order=list(r["order"]), revolution=r.get("revolution", NO_REVOLUTION))
            for r in data.get("roundResults", [])
        ],
        totals={player: int(data.get("totals", {}).get(player, 0)) for player in players},
        discard=cards_from_json(data.get("discard", [])),
        turn_started_at=int(data.get("turnStartedAt", 0)),
        seq=int(data.get("seq", 0)),
    )


__all__ = ["from_json", "play_json", "to_json"]
