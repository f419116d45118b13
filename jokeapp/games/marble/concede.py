"""CONCEDE (spec 8.2): leaving is a bankruptcy to the bank, at any moment of the game.

Whatever the leaver was part of lapses: their trade, a debt they owed or were owed, the
queued card payments to or from them; the turn goes on from there.
"""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.debt import continue_after_debt
from jokeapp.games.marble.landing import fly
from jokeapp.games.marble.payments import go_bankrupt
from jokeapp.games.marble.state import BANK, DECIDE, FINISHED, MarbleState
from jokeapp.games.marble.trade import cancel_trade
from jokeapp.games.marble.turns import after_landing, end_turn


def _takeover_from(state: MarbleState, actor: str) -> bool:
    """The current player is deciding whether to take over one of ``actor``'s cities."""
    decision = state.decision
    if state.phase != DECIDE or decision is None or decision.can_takeover is None:
        return False
    deed = state.owners.get(decision.pos)
    return deed is not None and deed.owner == actor


def concede(state: MarbleState, events: list[Event], actor: str) -> None:
    trade = state.pending_trade
    if trade is not None and actor in (trade.from_, trade.to):
        cancel_trade(state, events)
    was_current = state.order[state.current] == actor
    debt = state.debt
    loses_takeover = _takeover_from(state, actor)
    go_bankrupt(state, events, actor, BANK)
    if state.phase == FINISHED:
        return
    if loses_takeover:
        after_landing(state, events)  # the city went back to the bank: nobody to buy it from
        return
    if debt is not None and actor in (debt.payment.player, debt.payment.to):
        state.debt = None
        payment = debt.payment
        if payment.reason == "spaceFee" and payment.pos is not None and actor == payment.to:
            fly(state, events, payment.pos, fee_paid=False)  # nobody left to take the fare
            return
        continue_after_debt(state, events, debt.queue, payment.reason, payment.pos)
    elif was_current and state.debt is None:
        state.decision = None
        end_turn(state, events)
