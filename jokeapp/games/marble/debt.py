"""The 빚 갚기 phase (spec 5.3): SELL until the debt is covered, then pay and go on."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.actions import SELL_WHAT, board_pos, malformed, reject
from jokeapp.games.marble.landing import resume
from jokeapp.games.marble.payments import pay_now, sell, settle
from jokeapp.games.marble.state import DEBT, MarbleState, Payment


def sell_for_debt(state: MarbleState, events: list[Event], actor: str, pos: int, what: str) -> None:
    debt = state.debt
    if state.phase != DEBT or debt is None or debt.payment.player != actor:
        reject("not_in_debt")
    if what not in SELL_WHAT:
        malformed()
    deed = state.owners.get(board_pos(pos))
    if deed is None or deed.owner != actor:
        reject("not_your_land")
    if what == "top" and deed.level < 1:
        reject("no_building")
    sell(state, events, actor, pos, what)
    payment = debt.payment
    if state.players[actor].cash < payment.amount:
        return
    state.debt = None
    pay_now(state, events, payment)
    continue_after_debt(state, events, debt.queue, payment.reason, payment.pos)


def continue_after_debt(
    state: MarbleState, events: list[Event], queue: list[Payment], reason: str, pos: int | None
) -> None:
    """The rest of the queue (L04, L19) is paid; then the turn resumes, without a takeover."""
    if settle(state, events, queue):
        resume(state, events, reason, pos, after_debt=True)
