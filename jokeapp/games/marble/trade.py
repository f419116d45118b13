"""교환 (spec 5.8): a proposal before rolling, answered by the other player.

Cash is checked when proposed and again when accepted; an acceptance that no longer holds
is a failed trade (``tradeResolved`` with ``accepted: false, failed: true``), not an error.
"""

from __future__ import annotations

from typing import Any

from jokeapp.core.contract import Event
from jokeapp.games.marble.actions import reject, require_current, trade_side
from jokeapp.games.marble.data import MAX_TRADES_PER_TURN
from jokeapp.games.marble.state import TRADE_RESPONSE, TURN_START, MarbleState, Trade
from jokeapp.games.marble.turns import check_monopoly


def _owns_all(state: MarbleState, player: str, lands: list[int]) -> bool:
    owners = state.owners
    return all((deed := owners.get(pos)) is not None and deed.owner == player for pos in lands)


def _terms(trade: Trade) -> dict[str, Any]:
    return {
        "from": trade.from_,
        "to": trade.to,
        "give": {"lands": list(trade.give_lands), "cash": trade.give_cash},
        "take": {"lands": list(trade.take_lands), "cash": trade.take_cash},
    }


def propose_trade(
    state: MarbleState,
    events: list[Event],
    actor: str,
    to: str,
    give: dict[str, Any],
    take: dict[str, Any],
) -> None:
    give_lands, give_cash = trade_side(give)
    take_lands, take_cash = trade_side(take)
    if not state.options.trade:
        reject("trade_off")
    require_current(state, actor, TURN_START)
    if state.trades_this_turn >= MAX_TRADES_PER_TURN:
        reject("trade_limit")
    partner = state.players.get(to)
    if to == actor or partner is None or not partner.alive:
        reject("bad_trade_partner")
    if not (give_lands or give_cash or take_lands or take_cash):
        reject("empty_trade")
    if not _owns_all(state, actor, give_lands):
        reject("not_your_land")
    if not _owns_all(state, to, take_lands):
        reject("not_their_land")
    if give_cash > state.players[actor].cash or take_cash > partner.cash:
        reject("no_money")
    trade = Trade(actor, to, give_lands, give_cash, take_lands, take_cash)
    state.pending_trade = trade
    state.phase = TRADE_RESPONSE
    state.trades_this_turn += 1
    events.append({"type": "tradeProposed", **_terms(trade)})


def _still_possible(state: MarbleState, trade: Trade) -> bool:
    players = state.players
    return (
        _owns_all(state, trade.from_, trade.give_lands)
        and _owns_all(state, trade.to, trade.take_lands)
        and trade.give_cash <= players[trade.from_].cash
        and trade.take_cash <= players[trade.to].cash
    )


def _exchange(state: MarbleState, trade: Trade) -> None:
    for pos in trade.give_lands:
        state.owners[pos].owner = trade.to
    for pos in trade.take_lands:
        state.owners[pos].owner = trade.from_
    giver, taker = state.players[trade.from_], state.players[trade.to]
    giver.cash += trade.take_cash - trade.give_cash
    taker.cash += trade.give_cash - trade.take_cash


def respond_trade(state: MarbleState, events: list[Event], actor: str, accept: bool) -> None:
    trade = state.pending_trade
    if state.phase != TRADE_RESPONSE or trade is None or trade.to != actor:
        reject("not_asked")
    state.pending_trade = None
    state.phase = TURN_START
    if not accept:
        events.append(
            {"type": "tradeResolved", "accepted": False, "failed": False, **_terms(trade)}
        )
        return
    if not _still_possible(state, trade):
        events.append({"type": "tradeResolved", "accepted": False, "failed": True, **_terms(trade)})
        return
    _exchange(state, trade)
    events.append({"type": "tradeResolved", "accepted": True, "failed": False, **_terms(trade)})
    if not check_monopoly(state, events, trade.from_):
        check_monopoly(state, events, trade.to)


def cancel_trade(state: MarbleState, events: list[Event]) -> None:
    """A party left the table: the proposal lapses."""
    trade = state.pending_trade
    if trade is None:
        return
    state.pending_trade = None
    state.phase = TURN_START
    events.append({"type": "tradeResolved", "accepted": False, "failed": True, **_terms(trade)})
