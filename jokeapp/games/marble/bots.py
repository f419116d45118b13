"""Bots: ``(knowledge, rng, budget) -> action``, deciding from the seat's view only.

random: uniform over the legal actions other than trades, and now and then a small random
trade; without trading it reads nothing but its legal actions (core.bots.uniform). easy:
buys the lands up to 28만 it can pay for, builds up to hotels with 10만 to spare, never takes
over or pays to leave the island, and one decision in three is any legal one. normal: buys
and builds keeping back the worst toll of its next roll, takes over only to complete a group,
leaves the island early only, travels wisely, sells the least valuable first, trades fairly.
hard: Monte Carlo rollouts of each candidate (search.py).

The rules below read a ``MarbleState`` rebuilt from the view (view_legal.state_from_view): the
deck in it is not the real one (its order is hidden) and no rule here reads it. None of them
ever CONCEDEs; randomness comes only from the Rng they are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.bots import NO_VIEW, Budget, SeatKnowledge, quick, uniform
from jokeapp.core.contract import Action, pick_uniformly
from jokeapp.core.rng import Rng
from jokeapp.games.marble.data import (
    BUILD_COST,
    CITY,
    CITY_TOLL,
    ESCAPE_CARD,
    FUND_RECEIVE_POS,
    GROUP_OF,
    GROUPS,
    HOTEL,
    INVESTED,
    KIND,
    LAND_PRICE,
    LANDMARK,
    LANDS,
    SPACE_POS,
    TOUR,
)
from jokeapp.games.marble.landing import toll_of
from jokeapp.games.marble.state import DEBT, DECIDE, TRADE_RESPONSE, TURN_START, MarbleState, Trade
from jokeapp.games.marble.timeouts import cheapest_sale
from jokeapp.games.marble.view_legal import state_from_view

TWO_DICE = {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}  # 2d6 sums
RESERVE_FLOOR = 10  # cash normal keeps back even when no toll is in reach
UNLIMITED_ROUNDS_LEFT = 10  # maxRounds = 0: how many rounds the bots plan for
LAND_LEFT_TO_LEAVE = 3  # normal leaves the island early while this many lands are for sale
LATE_ROUNDS = 3  # ... and not in the last rounds
RANDOM_TRADE_ODDS = 16  # one turn start in this many tries a trade (when trading is on)
SMALL_CASH = 20
EASY_SLIP = 3  # easy makes any legal non-trade choice one decision in this many
EASY_RESERVE = 10
EASY_DEAREST = 28  # easy buys no land dearer than this (the last two lines' dearer cities)


def _pick(actions: Sequence[Action], rng: Rng) -> Action:
    return actions[rng.below(len(actions))]


def _lands_of(state: MarbleState, player: str) -> list[int]:
    return [pos for pos, deed in state.owners.items() if deed.owner == player]


def _random_trade(state: MarbleState, player: str, rng: Rng) -> Action | None:
    others = [p for p in state.order if p != player and state.players[p].alive]
    to = _pick_str(others, rng)
    mine, theirs = sorted(_lands_of(state, player)), sorted(_lands_of(state, to))
    give = [mine[rng.below(len(mine))]] if mine and rng.below(2) else []
    take = [theirs[rng.below(len(theirs))]] if theirs and rng.below(2) else []
    give_cash = rng.below(min(SMALL_CASH, state.players[player].cash) + 1)
    take_cash = rng.below(min(SMALL_CASH, state.players[to].cash) + 1)
    if not (give or take or give_cash or take_cash):
        return None
    return _offer(to, give, give_cash, take, take_cash)


def _pick_str(items: list[str], rng: Rng) -> str:
    return items[rng.below(len(items))]


def _offer(to: str, give: list[int], give_cash: int, take: list[int], take_cash: int) -> Action:
    return {
        "type": "PROPOSE_TRADE",
        "to": to,
        "give": {"lands": give, "cash": give_cash},
        "take": {"lands": take, "cash": take_cash},
    }


def _not_trades(legal: Sequence[Action]) -> list[Action]:
    return [action for action in legal if action["type"] != "PROPOSE_TRADE"]


def _no_trading(options: Mapping[str, Any]) -> bool:
    return not options.get("trade", True)


@uniform(when=_no_trading)
@quick
def random_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    view = knowledge.view
    if view is NO_VIEW:  # no trading: handed its legal actions alone, and they list no trade
        choices = knowledge.legal
    else:
        trading = view["phase"] == TURN_START and view["options"]["trade"]
        if trading and view["tradesThisTurn"] < 2 and rng.below(RANDOM_TRADE_ODDS) == 0:
            offer = _random_trade(state_from_view(view), knowledge.player, rng)
            if offer is not None:
                return offer
        choices = _not_trades(knowledge.legal)
    # the only choice is taken without a draw (pick_uniformly); none: ROLL, which apply judges
    return pick_uniformly(choices, rng) if choices else {"type": "ROLL"}


def rounds_left(state: MarbleState) -> int:
    limit: int = state.options.max_rounds
    return max(0, limit - state.round) if limit else UNLIMITED_ROUNDS_LEFT


def worst_toll_ahead(state: MarbleState, player: str) -> int:
    """The largest toll the seat's next roll from where it stands can cost (2 to 12 ahead)."""
    pos = state.players[player].pos
    worst = 0
    for total in TWO_DICE:
        square = (pos + total) % 40
        deed = state.owners.get(square)
        if deed is not None and deed.owner != player and state.players[deed.owner].alive:
            worst = max(worst, toll_of(state, square, deed))
    return worst


def reserve(state: MarbleState, player: str) -> int:
    """Cash kept back after spending: enough for the worst toll of the next roll, at least
    RESERVE_FLOOR. Buying and building cost nothing in total assets (they count at their full
    price), so money kept idle only pays the tolls that would otherwise force sales at half."""
    return max(RESERVE_FLOOR, worst_toll_ahead(state, player))


def _group_count(state: MarbleState, player: str, pos: int) -> int:
    group = GROUP_OF.get(pos)
    if group is None:
        return 0
    return sum(
        1 for p in GROUPS[group] if (d := state.owners.get(p)) is not None and d.owner == player
    )


def _space_score(state: MarbleState, player: str, dest: int, budget: int) -> float:
    deed = state.owners.get(dest)
    score = 0.0
    if dest < SPACE_POS:
        score += state.options.salary
    if KIND[dest] in (CITY, TOUR):
        if deed is None:
            price = LAND_PRICE[dest]
            score += price + 10 * _group_count(state, player, dest) if price <= budget else -5
        elif deed.owner == player:
            score += _build_gain(state, dest, deed.level, budget)
        else:
            score -= toll_of(state, dest, deed)
    elif dest == FUND_RECEIVE_POS:
        score += state.fund
    return score


def _build_gain(state: MarbleState, pos: int, level: int, budget: int) -> float:
    """What landing on my own city is worth: the toll the next level adds, if I can pay it."""
    if KIND[pos] != CITY or level + 1 >= len(CITY_TOLL[pos]):
        return 0.0
    if level + 1 == LANDMARK and not state.options.landmark:
        return 0.0
    if BUILD_COST[pos][level + 1] > budget:
        return 0.0
    return float(CITY_TOLL[pos][level + 1] - CITY_TOLL[pos][level])


def _space_destination(state: MarbleState, player: str) -> int:
    budget = state.players[player].cash - RESERVE_FLOOR
    dests = [d for d in range(40) if d != SPACE_POS]
    return max(dests, key=lambda d: (_space_score(state, player, d, budget), -d))


def _asset_value(state: MarbleState, lands: list[int]) -> int:
    return sum(INVESTED[pos][state.owners[pos].level] for pos in lands)


def _answer(state: MarbleState, player: str, trade: Trade) -> bool:
    """Fair for me, keeps my reserve, and hands nobody a whole group."""
    gained = _asset_value(state, trade.give_lands) + trade.give_cash
    lost = _asset_value(state, trade.take_lands) + trade.take_cash
    if gained < lost or state.players[player].cash - trade.take_cash < reserve(state, player):
        return False
    return not any(_group_count(state, trade.from_, pos) == 2 for pos in trade.take_lands)


def _group_offer(state: MarbleState, player: str) -> Action | None:
    """Offer 1.5x the list price for the last city of a group I hold two of."""
    cash = state.players[player].cash
    for pos in sorted(state.owners):
        deed = state.owners[pos]
        if deed.owner == player or KIND[pos] != CITY or _group_count(state, player, pos) != 2:
            continue
        price = INVESTED[pos][deed.level] * 3 // 2
        if cash - price >= 2 * reserve(state, player) and state.players[deed.owner].alive:
            return _offer(deed.owner, [], price, [pos], 0)
    return None


def unowned_lands(state: MarbleState) -> int:
    return sum(1 for pos in LANDS if pos not in state.owners)


def _leave_island(state: MarbleState, player: str) -> bool:
    """Leave early while there is land to buy; late, the island is a safe place to wait (the
    seat still collects its tolls there)."""
    return unowned_lands(state) >= LAND_LEFT_TO_LEAVE and rounds_left(state) > LATE_ROUNDS


def _turn_start(state: MarbleState, player: str) -> Action:
    piece = state.players[player]
    if state.options.trade and state.trades_this_turn == 0:
        offer = _group_offer(state, player)
        if offer is not None:
            return offer
    if piece.space_pending:
        return {"type": "SPACE_TRAVEL", "dest": _space_destination(state, player)}
    if piece.island_left > 0 and _leave_island(state, player):
        if ESCAPE_CARD in piece.held_cards:
            return {"type": "USE_ESCAPE_CARD"}
        fee: int = state.options.island_fee
        if fee > 0 and piece.cash - fee >= 2 * reserve(state, player):
            return {"type": "PAY_ISLAND_FEE"}
    return {"type": "ROLL"}


def _completes_group(state: MarbleState, player: str, pos: int) -> bool:
    group = GROUP_OF.get(pos)
    return group is not None and _group_count(state, player, pos) == len(GROUPS[group]) - 1


def _decide(state: MarbleState, player: str) -> Action:
    """Buy and build whenever the reserve stays; take over only to complete a group (paying
    twice the investment to its owner loses ground against that owner otherwise)."""
    decision = state.decision
    assert decision is not None
    spare = state.players[player].cash - reserve(state, player)
    pos = decision.pos
    if decision.can_buy and LAND_PRICE[pos] <= spare:
        return {"type": "BUY"}
    level = decision.can_build
    if level is not None and BUILD_COST[pos][level] <= spare:
        return {"type": "BUILD", "level": level}
    takeover = decision.can_takeover
    if takeover is not None and takeover <= spare and _completes_group(state, player, pos):
        return {"type": "TAKEOVER"}
    return {"type": "PASS"}


def normal_move(state: MarbleState, player: str) -> Action:
    phase = state.phase
    if phase == TURN_START:
        return _turn_start(state, player)
    if phase == DECIDE:
        return _decide(state, player)
    if phase == DEBT:
        return cheapest_sale(state, player)
    if phase == TRADE_RESPONSE and state.pending_trade is not None:
        return {"type": "TRADE_RESPOND", "accept": _answer(state, player, state.pending_trade)}
    return {"type": "ROLL"}


def only_choice(knowledge: SeatKnowledge) -> Action | None:
    """The one legal action when there is nothing to weigh (no trade may be offered either)."""
    legal = knowledge.legal
    return legal[0] if len(legal) == 1 else None


@quick
def normal_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    return only_choice(knowledge) or normal_move(state_from_view(knowledge.view), knowledge.player)


def _easy_decide(state: MarbleState, player: str) -> Action:
    """Buys the lands up to EASY_DEAREST it can pay for (the dear ones look too dear to it);
    builds up to a hotel (never a landmark) whenever its cash covers it with EASY_RESERVE to
    spare, keeping back no toll. Building villas only, it lost to random once games run long
    (36% with maxRounds=0: random's hotels earn more than its villas)."""
    decision = state.decision
    assert decision is not None
    cash = state.players[player].cash
    price = LAND_PRICE[decision.pos]
    if decision.can_buy and price <= min(cash, EASY_DEAREST):
        return {"type": "BUY"}
    level = decision.can_build
    if (
        level is not None
        and level <= HOTEL
        and BUILD_COST[decision.pos][level] + EASY_RESERVE <= cash
    ):
        return {"type": "BUILD", "level": level}
    return {"type": "PASS"}


def easy_move(state: MarbleState, player: str) -> Action:
    phase = state.phase
    piece = state.players[player]
    if phase == TURN_START:
        if piece.space_pending:
            return {"type": "SPACE_TRAVEL", "dest": _space_destination(state, player)}
        if piece.island_left > 0 and ESCAPE_CARD in piece.held_cards:
            return {"type": "USE_ESCAPE_CARD"}
        return {"type": "ROLL"}
    if phase == DECIDE:
        return _easy_decide(state, player)
    if phase == DEBT:
        return cheapest_sale(state, player)
    if phase == TRADE_RESPONSE:
        return {"type": "TRADE_RESPOND", "accept": False}
    return {"type": "ROLL"}


@quick
def easy_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    choices = _not_trades(knowledge.legal)
    if len(choices) > 1 and rng.below(EASY_SLIP) == 0:
        return _pick(choices, rng)
    return only_choice(knowledge) or easy_move(state_from_view(knowledge.view), knowledge.player)
