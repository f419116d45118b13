"""The state as JSON in the spec's DalmutiState shape (camelCase, phase as {"kind": ...}).

``from_json`` also reads positions written by hand in the spec's shape: a card may be
``{"id", "n"}`` or a bare id, and every field but ``players`` and ``hands`` may be left out;
what the project adds to the spec's State is then derived (see ``from_json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jokeapp.core.options import options_from, options_json
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_INDEX, CARD_NUMBERS, JESTERS, card_json, deck
from jokeapp.games.dalmuti.options import DalmutiOptions
from jokeapp.games.dalmuti.rounds import round_totals
from jokeapp.games.dalmuti.state import (
    GREAT_REVOLUTION,
    NO_REVOLUTION,
    REVOLUTION,
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
from jokeapp.games.dalmuti.tricks import next_to_answer, set_rank
from jokeapp.games.dalmuti.view import play_json, public_phase, trick_json


def ids(cards: Any) -> list[str]:
    return [CARD_IDS[card] for card in cards]


def to_json(state: DalmutiState) -> dict[str, Any]:
    return {
        "options": options_json(state.options),
        "rng": state.rng.to_json(),
        "players": list(state.players),
        "order": list(state.order),
        "round": state.round,
        "hands": {
            player: [card_json(card) for card in state.hands[player]] for player in state.players
        },
        "phase": phase_json(state),
        "revolution": state.revolution,
        "revolutionBy": state.revolution_by,
        "taxLog": [
            {"from": m.giver, "to": m.receiver, "cardIds": ids(m.cards)} for m in state.tax_log
        ],
        "trick": trick_json(state),
        "current": state.current,
        "finishOrder": list(state.finish_order),
        "roundResults": [
            {"order": list(r.order), "revolution": r.revolution} for r in state.round_results
        ],
        "totals": dict(state.totals),
        "discard": ids(state.discard),
        "turnStartedAt": 0,  # the spec's field; the engine has no clock, the server owns it
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


def phase_from_json(data: Mapping[str, Any], players: list[str]) -> Phase:
    kind = data["kind"]
    if kind == "firstRankDraw":
        return FirstRankDraw(draws={p: list(ns) for p, ns in data.get("draws", {}).items()})
    if kind == "revolutionCheck":
        confirmed = {
            p: bool(done)
            for p, done in data.get("confirmed", dict.fromkeys(players, False)).items()
        }
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
    simple: dict[str, Phase] = {
        "playing": Playing(),
        "roundOver": RoundOver(),
        "finished": Finished(),
    }
    if kind not in simple:
        raise ValueError(f"unknown phase kind: {kind!r}")
    return simple[kind]


def play_from_json(data: Mapping[str, Any], by: str) -> Play:
    """A set on the table; ``count`` and ``rank`` follow from its cards when left out, and
    ``by`` (not in the spec's Play) comes from the caller when the entry does not say."""
    cards = tuple(cards_from_json(data["cardIds"]))
    rank = set_rank(cards) if cards else None
    if rank is None:
        raise ValueError(f"not a set of one number: {list(data['cardIds'])!r}")
    if "rank" in data and int(data["rank"]) != rank:
        raise ValueError(f"set {list(data['cardIds'])!r} has rank {rank}, not {data['rank']}")
    if int(data.get("count", len(cards))) != len(cards):
        raise ValueError(
            f"set {list(data['cardIds'])!r} has count {len(cards)}, not {data['count']}"
        )
    return Play(cards=cards, count=len(cards), rank=rank, by=str(data.get("by", by)))


def next_seat(order: list[str], player: str) -> str:
    return order[(order.index(player) + 1) % len(order)]


def trick_from_json(data: Mapping[str, Any] | None, order: list[str], current: Any) -> Trick:
    """The trick; the spec's pile entries carry no player: the first is the leader's, the last
    top's, and each one between is taken as the next seat's after the one before."""
    if data is None:
        return Trick(leader=current if current in order else order[0])
    raw_pile = list(data.get("pile", []))
    raw_top = data.get("top")
    first = raw_pile[0] if raw_pile else raw_top
    fallback = current if current in order else order[0]
    leader = str(data.get("leader", first.get("by", fallback) if first is not None else fallback))
    if raw_top is None and "top" not in data and raw_pile:
        raw_top = raw_pile[-1]
    top_by = raw_top.get("by") if raw_top is not None else None
    if raw_top is not None and top_by is None:
        top_by = raw_pile[-1].get("by") if raw_pile and "by" in raw_pile[-1] else None
        if top_by is None and len(raw_pile) > 1:
            raise ValueError("trick.top needs `by`, the player who played it")
        top_by = top_by or leader
    top = None if raw_top is None else play_from_json(raw_top, str(top_by))
    pile: list[Play] = []
    for place, entry in enumerate(raw_pile):
        guess = leader if place == 0 else next_seat(order, pile[-1].by)
        if place == len(raw_pile) - 1 and top is not None:
            guess = top.by
        pile.append(play_from_json(entry, guess))
    if top is not None:
        if not pile:
            pile = [top]
        elif (pile[-1].cards, pile[-1].by) != (top.cards, top.by):
            raise ValueError("trick.top must be the last set of trick.pile")
        else:
            pile[-1] = top  # one object, as in play
    elif pile:
        raise ValueError("trick.top is null but trick.pile has sets")
    return Trick(
        leader=leader,
        top=top,
        passes_since_top=list(data.get("passesSinceTop", [])),
        locked_out=list(data.get("lockedOut", [])),
        pile=pile,
    )


def derived_current(state: DalmutiState) -> str:
    """Whose turn it is when a hand-written state does not say: in play, the leader of a fresh
    trick or the next player still to answer the top set; else the top rank."""
    trick = state.trick
    if state.phase.kind != "playing" or trick.top is None:
        return trick.leader if state.phase.kind == "playing" else state.order[0]
    last = trick.passes_since_top[-1] if trick.passes_since_top else trick.top.by
    following = next_to_answer(state, last)
    if following is None:
        raise ValueError("every player has answered trick.top: that trick is over")
    return following


def derived_revolution_by(
    revolution: str, order: list[str], hands: dict[str, list[int]]
) -> str | None:
    """A great revolution's declarer now ranks first; a plain one's is whoever still shows both
    jesters (unknown, None, once they are played)."""
    if revolution == GREAT_REVOLUTION:
        return order[0]
    if revolution == REVOLUTION:
        return next((p for p in order if JESTERS[0] in hands[p] and JESTERS[1] in hands[p]), None)
    return None


def check_in_deck(cards: list[int], deck_cards: tuple[int, ...]) -> None:
    known = set(deck_cards)
    for card in cards:
        if card not in known:
            raise ValueError(f"card {CARD_IDS[card]} is not in this game's deck")


def from_json(data: Mapping[str, Any]) -> DalmutiState:
    """A state from its JSON. Only ``players`` and ``hands`` are required; every other field,
    the project's additions above all (``discard``, ``revolutionBy``, pile ``by``, ``seq``,
    ``declaredBy``), is derived when absent, and cards must each be in one place."""
    options = options_from(DalmutiOptions, data.get("options", {}))
    players = list(data["players"])
    order = list(data.get("order", players))
    if sorted(order) != sorted(players) or len(set(players)) != len(players):
        raise ValueError("order must list every player once")
    rng = Rng.from_json(dict(data["rng"])) if "rng" in data else Rng.from_seed(0)
    hands = {player: sorted(cards_from_json(data["hands"].get(player, []))) for player in players}
    phase = phase_from_json(data.get("phase", {"kind": "playing"}), players)
    round_results = [
        RoundResult(order=list(r["order"]), revolution=r.get("revolution", NO_REVOLUTION))
        for r in data.get("roundResults", [])
    ]
    if any(sorted(r.order) != sorted(players) for r in round_results):
        raise ValueError("each of roundResults must order every player once")
    if phase.kind == "finished" and not round_results:
        raise ValueError("a finished game needs its roundResults")
    totals = round_totals(players, round_results)
    given_totals = data.get("totals")
    if given_totals is not None and any(
        int(given_totals.get(p, totals[p])) != totals[p] for p in players
    ):
        raise ValueError(
            f"totals {dict(given_totals)} disagree with roundResults, which give {totals}"
        )
    finished_rounds = len(round_results)
    current = data.get("current")
    trick = trick_from_json(data.get("trick"), order, current)
    deck_cards = deck(options.remove_high_cards)
    on_table = {card for played in trick.pile for card in played.cards}
    held = {card for hand in hands.values() for card in hand}
    if "discard" in data:
        discard = cards_from_json(data["discard"])
    else:  # every card in no hand and not on the table went out in an earlier trick
        discard = [card for card in deck_cards if card not in held and card not in on_table]
    # A card written in two places is let through: hand-made positions often reuse one id for
    # "a 9" (docs/rules-decisions.md); the deck's cards are still checked.
    check_in_deck([*held, *on_table, *discard], deck_cards)
    revolution = data.get("revolution", NO_REVOLUTION)
    if "finishOrder" in data:
        finish_order = list(data["finishOrder"])
    else:  # the order they went out in is unknown: seat order
        finish_order = [p for p in order if not hands[p]] if phase.kind == "playing" else []
    state = DalmutiState(
        options=options,
        rng=rng,
        players=players,
        order=order,
        round=int(
            data.get("round", finished_rounds if phase.kind == "finished" else finished_rounds + 1)
        ),
        hands=hands,
        phase=phase,
        revolution=revolution,
        revolution_by=data.get("revolutionBy", derived_revolution_by(revolution, order, hands)),
        tax_log=[
            TaxMove(m["from"], m["to"], tuple(cards_from_json(m["cardIds"])))
            for m in data.get("taxLog", [])
        ],
        trick=trick,
        current=str(current) if current is not None else order[0],
        finish_order=finish_order,
        round_results=round_results,
        totals=totals,
        discard=discard,
        seq=int(data.get("seq", 0)),
    )
    if current is None:
        state.current = derived_current(state)
    elif current not in players:
        raise ValueError(f"current {current!r} is not a player")
    return state


__all__ = ["from_json", "play_json", "to_json"]
