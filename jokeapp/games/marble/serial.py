"""MarbleState <-> the spec's JSON shape (8.1): camelCase, owners keyed by the board index as
a string, creditors as ``{kind, id}``, the rng as ``Rng.to_json()``.

Beyond the spec's fields the JSON carries ``eliminated`` (the order of bankruptcies) and
``result`` (computed, as ``result()``), and a debt names its debtor (``player``, L04 makes
others pay), what it is for (``reason``, ``pos``) and the debtor of each queued payment.

``from_json`` accepts hand-written states in the spec's shape: missing optional fields take
their start values, the project's own fields are derived (derived.py), and an input
``result`` is ignored (it is always computed from the state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jokeapp.core.options import options_from, options_json
from jokeapp.core.rng import Rng
from jokeapp.games.marble import derived
from jokeapp.games.marble.data import CARD_IDS
from jokeapp.games.marble.options import MarbleOptions
from jokeapp.games.marble.ranking import game_result, monopolist
from jokeapp.games.marble.state import (
    BANK,
    FINISHED,
    FUND,
    TURN_START,
    Debt,
    Decision,
    Deed,
    MarbleState,
    Payment,
    Player,
    Trade,
)


def creditor_json(to: str) -> dict[str, str]:
    if to in (BANK, FUND):
        return {"kind": to}
    return {"kind": "player", "id": to}


def creditor_from_json(data: Mapping[str, Any]) -> str:
    kind = data["kind"]
    if kind == "player":
        return str(data["id"])
    if kind in (BANK, FUND):
        return str(kind)
    raise ValueError(f"unknown creditor kind {kind!r}")


def _player_json(p: Player) -> dict[str, Any]:
    return {
        "pos": p.pos,
        "cash": p.cash,
        "alive": p.alive,
        "bankruptAtRound": p.bankrupt_at_round,
        "islandLeft": p.island_left,
        "spacePending": p.space_pending,
        "heldCards": list(p.held_cards),
    }


def _payment_json(p: Payment) -> dict[str, Any]:
    return {
        "player": p.player,
        "amount": p.amount,
        "to": creditor_json(p.to),
        "reason": p.reason,
        "pos": p.pos,
    }


def _debt_json(debt: Debt | None) -> dict[str, Any] | None:
    if debt is None:
        return None
    return {
        **_payment_json(debt.payment),
        "then": "nextCreditor" if debt.queue else "continueTurn",
        "queue": [_payment_json(p) for p in debt.queue],
    }


def _decision_json(d: Decision | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {
        "pos": d.pos,
        "canBuy": d.can_buy,
        "canBuild": d.can_build,
        "canTakeover": d.can_takeover,
        "boughtThisVisit": d.bought_this_visit,
    }


def trade_json(t: Trade | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {
        "from": t.from_,
        "to": t.to,
        "give": {"lands": list(t.give_lands), "cash": t.give_cash},
        "take": {"lands": list(t.take_lands), "cash": t.take_cash},
    }


def to_json(state: MarbleState, *, hidden: bool = True) -> dict[str, Any]:
    """The State JSON; ``hidden=False`` leaves out the deck's order and the rng (spec 8.3),
    which a view drops anyway: not building them saves time on every bot move. For the view
    it leaves out ``turnSeq`` and ``current`` too, which change at the end of every turn and
    so would be in many an update's patch: ``turnSeq`` is the engine's bookkeeping that no
    viewer reads, and the view names the current player itself (``currentPlayer``)."""
    data: dict[str, Any] = {
        "options": None,
        "rng": None,
        "order": list(state.order),
        "current": state.current,
        "round": state.round,
        "phase": state.phase,
        "players": {pid: _player_json(p) for pid, p in state.players.items()},
        "owners": None,
        "fund": state.fund,
        "deck": None,
        "doublesThisTurn": state.doubles_this_turn,
        "cardsThisTurn": state.cards_this_turn,
        "decision": _decision_json(state.decision),
        "debt": _debt_json(state.debt),
        "pendingTrade": trade_json(state.pending_trade),
        "tradesThisTurn": state.trades_this_turn,
        "extraRoll": state.extra_roll,
        "lastRoll": list(state.last_roll) if state.last_roll is not None else None,
        "turnSeq": state.turn_seq,
        "deadlineAt": None,  # the spec's field; the server owns clocks, so always null here
        "eliminated": list(state.eliminated),
        "result": game_result(state),
    }
    deeds = [(pos, d.owner, d.level) for pos, d in state.owners.items()]
    if hidden:
        data["options"] = options_json(state.options)
        data["owners"] = _owners_json(deeds)
        data["rng"] = state.rng.to_json()
        data["deck"] = list(state.deck)
    else:
        # a view: the options and the deeds as the last view's very objects when unchanged
        # (MarbleState.shown); nobody changes a view, so they can be shared
        shown = state.shown
        held = shown.get("options")
        if held is None or held[0] is not state.options:
            held = shown["options"] = (state.options, options_json(state.options))
        data["options"] = held[1]
        held = shown.get("owners")
        if held is None or held[0] != deeds:
            held = shown["owners"] = (deeds, _owners_json(deeds))
        data["owners"] = held[1]
        del data["rng"], data["deck"], data["turnSeq"], data["current"]
    return data


def _owners_json(deeds: list[tuple[int, str, int]]) -> dict[str, Any]:
    return {str(pos): {"owner": owner, "level": level} for pos, owner, level in sorted(deeds)}


def _player_from_json(data: Mapping[str, Any], start_money: int) -> Player:
    return Player(
        pos=int(data.get("pos", 0)),
        cash=int(data.get("cash", start_money)),
        alive=bool(data.get("alive", True)),
        bankrupt_at_round=data.get("bankruptAtRound"),
        island_left=int(data.get("islandLeft", 0)),
        space_pending=bool(data.get("spacePending", False)),
        held_cards=[str(c) for c in data.get("heldCards", [])],
    )


def _debt_from_json(state: MarbleState, data: Mapping[str, Any] | None) -> Debt | None:
    """The spec's ``{amount, to, then, queue}``; ``player``, ``reason``, ``pos`` (and a queued
    payment's ``player``) are the project's and derived when absent. ``then`` follows from
    the queue, so it is not read."""
    if data is None:
        return None
    to = creditor_from_json(data["to"])
    amount = int(data["amount"])
    queue_data = list(data.get("queue", []))
    queued = len(queue_data)
    player = str(data["player"]) if "player" in data else derived.debtor(state, to, queued)
    if player not in state.players or not state.players[player].alive:
        raise ValueError(f"debt.player {player!r} is not a player still in the game")
    why = str(data["reason"]) if "reason" in data else derived.reason(state, player, to, amount)
    pos = data["pos"] if "pos" in data else derived.pos_for(state, player, why)
    queue = [
        Payment(
            str(q["player"]) if "player" in q else derived.queued_payer(state, why, i, queued),
            int(q["amount"]),
            creditor_from_json(q["to"]),
            str(q.get("reason", why)),
            None if q.get("pos") is None else int(q["pos"]),
        )
        for i, q in enumerate(queue_data)
    ]
    return Debt(Payment(player, amount, to, why, None if pos is None else int(pos)), queue)


def _decision_from_json(data: Mapping[str, Any] | None) -> Decision | None:
    if data is None:
        return None
    return Decision(
        pos=int(data["pos"]),
        can_buy=bool(data.get("canBuy", False)),
        can_build=data.get("canBuild"),
        can_takeover=data.get("canTakeover"),
        bought_this_visit=bool(data.get("boughtThisVisit", False)),
    )


def _trade_from_json(data: Mapping[str, Any] | None) -> Trade | None:
    if data is None:
        return None
    give, take = data["give"], data["take"]
    return Trade(
        str(data["from"]),
        str(data["to"]),
        [int(p) for p in give["lands"]],
        int(give["cash"]),
        [int(p) for p in take["lands"]],
        int(take["cash"]),
    )


def _default_deck(players: Mapping[str, Player]) -> list[str]:
    held = {c for p in players.values() for c in p.held_cards}
    return [c for c in CARD_IDS if c not in held]


def from_json(data: Mapping[str, Any]) -> MarbleState:
    options = options_from(MarbleOptions, data.get("options", {}))
    players = {
        str(pid): _player_from_json(p, options.start_money) for pid, p in data["players"].items()
    }
    rng_data = data.get("rng")
    last_roll = data.get("lastRoll")
    # Defaults only when left out: bots rebuild a state from every view, deck given.
    order = data["order"] if "order" in data else list(players)
    deck = data["deck"] if "deck" in data else _default_deck(players)
    if "current" in data:
        current = int(data["current"])
    else:  # a view names the player instead
        current = order.index(data["currentPlayer"]) if "currentPlayer" in data else 0
    state = MarbleState(
        options=options,
        rng=Rng.from_json(dict(rng_data)) if rng_data is not None else Rng.from_seed(0),
        order=[str(p) for p in order],
        players=players,
        deck=[str(c) for c in deck],
        current=current,
        round=int(data.get("round", 1)),
        phase=str(data.get("phase", TURN_START)),
        owners={
            int(pos): Deed(str(d["owner"]), int(d.get("level", 0)))
            for pos, d in data.get("owners", {}).items()
        },
        fund=int(data.get("fund", 0)),
        doubles_this_turn=int(data.get("doublesThisTurn", 0)),
        cards_this_turn=int(data.get("cardsThisTurn", 0)),
        decision=_decision_from_json(data.get("decision")),
        pending_trade=_trade_from_json(data.get("pendingTrade")),
        trades_this_turn=int(data.get("tradesThisTurn", 0)),
        extra_roll=bool(data.get("extraRoll", False)),
        last_roll=(int(last_roll[0]), int(last_roll[1])) if last_roll is not None else None,
        turn_seq=int(data.get("turnSeq", 0)),
    )
    given = data.get("eliminated")
    state.eliminated = derived.eliminated_order(
        state, None if given is None else [str(p) for p in given]
    )
    state.debt = _debt_from_json(state, data.get("debt"))
    unlimited = not options.max_rounds
    if state.phase == FINISHED and unlimited and state.alive_count() > 1 and not monopolist(state):
        raise ValueError(
            "a finished game with maxRounds 0 needs a last survivor or a monopoly: "
            "it has no round limit to end by"
        )
    return state
