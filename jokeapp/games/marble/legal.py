"""The concrete legal actions of a player (for bots and the UI's hints).

Not listed: CONCEDE (always allowed to a player still in the game) and most trades. For
trades only the simple offers are listed: one land of mine for its land price in cash, or
one of theirs for its price, to or from each other survivor who can pay. Any other trade
that passes the checks of trade.py is legal too.
"""

from __future__ import annotations

from collections.abc import Sequence

from jokeapp.core.contract import Action, pick_uniformly
from jokeapp.core.rng import Rng
from jokeapp.games.marble.actions import (
    BUILD,
    BUY,
    PASS,
    ROLL,
    SHARED,
    SPACE_TRAVEL,
    TAKEOVER,
    TRADE_RESPOND,
)
from jokeapp.games.marble.data import (
    BOARD_SIZE,
    BUILD_COST,
    ESCAPE_CARD,
    LAND_PRICE,
    MAX_TRADES_PER_TURN,
    SPACE_POS,
)
from jokeapp.games.marble.state import DEBT, DECIDE, TRADE_RESPONSE, TURN_START, MarbleState
from jokeapp.games.marble.timeouts import pending_player

SPACE_DESTS = tuple(pos for pos in range(BOARD_SIZE) if pos != SPACE_POS)
# A space trip's choices, made once and shared like the lists below (none may be changed).
SPACE_TRIPS: tuple[Action, ...] = tuple({"type": SPACE_TRAVEL, "dest": d} for d in SPACE_DESTS)


def turn_start_actions(state: MarbleState, player: str) -> list[Action]:
    piece = state.players[player]
    if piece.space_pending:
        return list(SPACE_TRIPS)
    actions: list[Action] = [{"type": "ROLL"}]
    if piece.island_left > 0:
        if ESCAPE_CARD in piece.held_cards:
            actions.append({"type": "USE_ESCAPE_CARD"})
        fee: int = state.options.island_fee
        if 0 < fee <= piece.cash:
            actions.append({"type": "PAY_ISLAND_FEE"})
    return actions


def sell_actions(state: MarbleState, player: str) -> list[Action]:
    actions: list[Action] = []
    for pos in sorted(p for p, deed in state.owners.items() if deed.owner == player):
        if state.owners[pos].level > 0:
            actions.append({"type": "SELL", "pos": pos, "what": "top"})
        actions.append({"type": "SELL", "pos": pos, "what": "all"})
    return actions


def simple_trades(state: MarbleState, player: str) -> list[Action]:
    actions: list[Action] = []
    cash = state.players[player].cash
    for other in state.order:
        partner = state.players[other]
        if other == player or not partner.alive:
            continue
        for pos in sorted(state.owners):
            owner, price = state.owners[pos].owner, LAND_PRICE[pos]
            if owner == player and price <= partner.cash:
                actions.append(_offer(other, [pos], 0, [], price))
            elif owner == other and price <= cash:
                actions.append(_offer(other, [], price, [pos], 0))
    return actions


def _offer(to: str, give: list[int], give_cash: int, take: list[int], take_cash: int) -> Action:
    return {
        "type": "PROPOSE_TRADE",
        "to": to,
        "give": {"lands": give, "cash": give_cash},
        "take": {"lands": take, "cash": take_cash},
    }


_ROLL, _BUY, _TAKEOVER, _PASS = SHARED[ROLL], SHARED[BUY], SHARED[TAKEOVER], SHARED[PASS]
# The lists that most moves have, made once (tuples of the shared actions): a plain turn's
# ROLL, and a land's decision between BUY and PASS, or PASS alone.
ROLL_ONLY: tuple[Action, ...] = (_ROLL,)
BUY_OR_PASS: tuple[Action, ...] = (_BUY, _PASS)
PASS_ONLY: tuple[Action, ...] = (_PASS,)


def legal_sequence(state: MarbleState, player: str) -> Sequence[Action]:
    """The legal actions (the one listing of them), for a bot that reads nothing else
    (core.contract.legal_sequence): those without fields are the shared ones of
    actions.SHARED, a space trip's are SPACE_TRIPS, and the commonest lists are made once;
    none may be changed."""
    phase = state.phase
    if phase == TURN_START:  # most moves: the turn's holder is the one pending
        if state.order[state.current] != player:
            return ()
        piece = state.players[player]
        if not state.options.trade:  # turn_start_actions, trading off, without a new list
            if piece.space_pending:
                return SPACE_TRIPS
            if piece.island_left <= 0:
                return ROLL_ONLY  # a plain turn
        actions = turn_start_actions(state, player)
        if state.options.trade and state.trades_this_turn < MAX_TRADES_PER_TURN:
            actions.extend(simple_trades(state, player))
        return actions
    if phase == DECIDE:  # on the square reached: BUY, BUILD or TAKEOVER when affordable; PASS
        if state.order[state.current] != player:
            return ()
        decision = state.decision
        assert decision is not None
        cash = state.players[player].cash
        pos = decision.pos
        buys = decision.can_buy and LAND_PRICE[pos] <= cash
        level = decision.can_build
        if level is None and decision.can_takeover is None:  # a land nobody owns (or PASS)
            return BUY_OR_PASS if buys else PASS_ONLY
        choices: list[Action] = [_BUY] if buys else []
        if level is not None and BUILD_COST[pos][level] <= cash:
            choices.append({"type": BUILD, "level": level})
        if decision.can_takeover is not None and decision.can_takeover <= cash:
            choices.append(_TAKEOVER)
        choices.append(_PASS)
        return choices
    if pending_player(state) != player:
        return ()
    if phase == DEBT:
        return sell_actions(state, player)
    if phase == TRADE_RESPONSE:
        return [
            {"type": TRADE_RESPOND, "accept": True},
            {"type": TRADE_RESPOND, "accept": False},
        ]
    return ()


def pick_legal(state: MarbleState, player: str, rng: Rng, draw_single: bool) -> Action | None:
    """``pick_uniformly(legal_sequence(state, player), rng, draw_single)``, None when that
    list is empty (core.contract.pick_legal). Without ``draw_single`` (marble's random bot)
    the commonest lists are read where they are made: a plain turn's ROLL without a draw, a
    land nobody owns as BUY (a draw of 0 of 2) or PASS, a land one cannot buy PASS alone."""
    if not draw_single and state.order[state.current] == player:
        phase = state.phase
        if phase == TURN_START:
            piece = state.players[player]
            if not (state.options.trade or piece.space_pending or piece.island_left > 0):
                return _ROLL  # ROLL_ONLY
        elif phase == DECIDE:
            decision = state.decision
            assert decision is not None
            if decision.can_build is None and decision.can_takeover is None:
                if decision.can_buy and LAND_PRICE[decision.pos] <= state.players[player].cash:
                    return _PASS if rng.below(2) else _BUY  # BUY_OR_PASS
                return _PASS  # PASS_ONLY
    actions = legal_sequence(state, player)
    return pick_uniformly(actions, rng, draw_single) if actions else None


def legal_actions(state: MarbleState, player: str) -> list[Action]:
    """``legal_sequence`` as a list of the caller's own actions (copies of the shared ones)."""
    return [dict(action) for action in legal_sequence(state, player)]
