"""Who must act now and the deterministic auto-action when they do not (spec 8.5).

The engine only says how many seconds a decision gets; the server owns the clock, so the
state's ``deadlineAt`` stays null here.
"""

from __future__ import annotations

from jokeapp.core.contract import AbsencePolicy, Action, Pending
from jokeapp.core.errors import IllegalAction
from jokeapp.games.marble.actions import PASS as A_PASS
from jokeapp.games.marble.actions import ROLL as A_ROLL
from jokeapp.games.marble.actions import SHARED
from jokeapp.games.marble.data import LAND_PRICE, SALE_TOP, START_POS, TRADE_ANSWER_SECONDS
from jokeapp.games.marble.state import DEBT, DECIDE, TRADE_RESPONSE, TURN_START, MarbleState

ROLL: Action = SHARED[A_ROLL]  # shared (actions.SHARED): on_timeout hands out copies
PASS: Action = SHARED[A_PASS]

# Spec 8.5: a disconnected player gets 5 s of grace, then the timeout rules act for them at
# once; after two rounds in a row whose turns the timeout rule started, the host is offered
# 강퇴/계속, and a kick mid-match is the player conceding.
ABSENCE = AbsencePolicy(
    grace=5.0, afk_rounds=2, afk_kind=TURN_START, kick_action={"type": "CONCEDE"}
)


def pending_player(state: MarbleState) -> str | None:
    """The one player the game waits for (marble never waits for two at once), None once the
    game is over."""
    phase = state.phase
    turn = phase == TURN_START or phase == DECIDE  # the usual case, first
    if turn:
        return state.order[state.current]
    if phase == DEBT and state.debt is not None:
        return state.debt.payment.player
    if phase == TRADE_RESPONSE and state.pending_trade is not None:
        return state.pending_trade.to
    return None


def pending(state: MarbleState) -> list[Pending]:
    """The one player the game waits for, each Pending made once (``MarbleState.pendings``)."""
    phase = state.phase
    player = pending_player(state)
    if player is None:
        return []
    known = state.pendings[phase]
    found = known.get(player)
    if found is None:  # the first time this player is asked for in this phase
        seconds = TRADE_ANSWER_SECONDS if phase == TRADE_RESPONSE else state.options.turn_seconds
        found = known[player] = Pending(player, phase, seconds)
    return [found]


def cheapest_sale(state: MarbleState, player: str) -> Action:
    """The smallest building first (top level, by sale value); with no buildings, the land
    with the smallest price; ties go to the lower square."""
    mine = sorted((pos, deed.level) for pos, deed in state.owners.items() if deed.owner == player)
    built = [(SALE_TOP[pos][level], pos) for pos, level in mine if level > 0]
    if built:
        return {"type": "SELL", "pos": min(built)[1], "what": "top"}
    land = min((LAND_PRICE[pos], pos) for pos, _ in mine)
    return {"type": "SELL", "pos": land[1], "what": "all"}


def on_timeout(state: MarbleState, player: str) -> Action:
    if pending_player(state) != player:
        raise IllegalAction("not_pending")
    phase = state.phase
    if phase == TURN_START:
        if state.players[player].space_pending:
            return {"type": "SPACE_TRAVEL", "dest": START_POS}
        return dict(ROLL)
    if phase == DECIDE:
        return dict(PASS)
    if phase == DEBT:
        return cheapest_sale(state, player)
    return {"type": "TRADE_RESPOND", "accept": False}
