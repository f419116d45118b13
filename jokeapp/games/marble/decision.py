"""The 'decide' phase (spec 5.2, 5.7): BUY, BUILD, TAKEOVER or PASS on the square reached."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.actions import reject
from jokeapp.games.marble.data import BUILD_COST, CITY, KIND, LAND_PRICE, LANDMARK, VILLA
from jokeapp.games.marble.landing import max_level
from jokeapp.games.marble.state import DECIDE, Decision, Deed, MarbleState
from jokeapp.games.marble.turns import after_landing, check_monopoly


def _decision(state: MarbleState, actor: str) -> Decision:
    # require_current(state, actor, DECIDE), its two checks inline (every BUY and PASS)
    if state.order[state.current] != actor:
        reject("not_your_turn")
    if state.phase != DECIDE:
        reject("wrong_phase")
    decision = state.decision
    assert decision is not None
    return decision


def _require_cash(state: MarbleState, actor: str, amount: int) -> None:
    if state.players[actor].cash < amount:
        reject("no_money")


def buy(state: MarbleState, events: list[Event], actor: str) -> None:
    # _decision(state, actor), inline (a random player buys every other land it can)
    if state.order[state.current] != actor:
        reject("not_your_turn")
    if state.phase != DECIDE:
        reject("wrong_phase")
    decision = state.decision
    assert decision is not None
    if not decision.can_buy:
        reject("cannot_buy")
    pos = decision.pos
    price = LAND_PRICE[pos]
    piece = state.players[actor]
    if piece.cash < price:  # _require_cash, inline
        reject("no_money")
    piece.cash -= price
    state.owners[pos] = Deed(actor, 0)
    events.append({"type": "bought", "player": actor, "pos": pos, "price": price})
    if state.options.monopoly_win and check_monopoly(state, events, actor):  # off by default
        return
    if state.options.build_on_purchase and KIND[pos] == CITY:
        state.decision = Decision(pos, can_build=VILLA, bought_this_visit=True)
        return
    after_landing(state, events)


def build(state: MarbleState, events: list[Event], actor: str, level: int) -> None:
    decision = _decision(state, actor)
    if decision.can_build is None:
        reject("cannot_build")
    if level == LANDMARK and max_level(state) < LANDMARK:
        reject("no_landmark")
    if level != decision.can_build:
        reject("wrong_level")
    pos = decision.pos
    cost = BUILD_COST[pos][level]
    _require_cash(state, actor, cost)
    state.players[actor].cash -= cost
    state.owners[pos].level = level
    events.append({"type": "built", "player": actor, "pos": pos, "level": level, "cost": cost})
    after_landing(state, events)


def takeover(state: MarbleState, events: list[Event], actor: str) -> None:
    if not state.options.takeover:
        reject("takeover_off")
    decision = _decision(state, actor)
    price = decision.can_takeover
    if price is None:
        reject("cannot_takeover")
    _require_cash(state, actor, price)
    pos = decision.pos
    deed = state.owners[pos]
    seller = deed.owner
    state.players[actor].cash -= price
    state.players[seller].cash += price
    deed.owner = actor
    events.append({"type": "takeover", "player": actor, "from": seller, "pos": pos, "price": price})
    if check_monopoly(state, events, actor):
        return
    after_landing(state, events)


def pass_decision(state: MarbleState, events: list[Event], actor: str) -> None:
    # _decision(state, actor)'s checks, inline (a random player passes every other decision)
    if state.order[state.current] != actor:
        reject("not_your_turn")
    if state.phase != DECIDE:
        reject("wrong_phase")
    after_landing(state, events)
