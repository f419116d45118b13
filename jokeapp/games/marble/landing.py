"""What happens on arrival (spec 5.2), and how the turn goes on once payments are settled."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.cards import BACK_STEPS, draw_card
from jokeapp.games.marble.data import (
    CARD,
    CITIES,
    CITY,
    CITY_TOLL,
    FUND_PAY,
    FUND_PAYMENT,
    FUND_RECEIVE,
    INVESTED,
    ISLAND,
    KIND,
    LANDMARK,
    LANDS,
    MAX_CARDS_PER_TURN,
    SPACE,
    TOLL_WAIVER,
    TOUR,
    TOUR_TOLL,
    TOURS,
)
from jokeapp.games.marble.movement import move_back, move_to, send_to_island
from jokeapp.games.marble.payments import settle
from jokeapp.games.marble.state import DECIDE, FINISHED, FUND, Decision, Deed, MarbleState, Payment
from jokeapp.games.marble.turns import after_landing, end_turn

LAND_KINDS = frozenset((CITY, TOUR))
# The decisions of a visit to a land nobody owns and to one's own city, made once (frozen).
BUY_DECISION: dict[int, Decision] = {pos: Decision(pos, can_buy=True) for pos in LANDS}
BUILD_DECISION: dict[tuple[int, int], Decision] = {
    (pos, level): Decision(pos, can_build=level) for pos in CITIES for level in range(1, 5)
}


def max_level(state: MarbleState) -> int:
    return 4 if state.options.landmark else 3


def toll_of(state: MarbleState, pos: int, deed: Deed) -> int:
    if KIND[pos] == CITY:
        return CITY_TOLL[pos][deed.level]
    owned_tours = sum(
        1 for p in TOURS if (d := state.owners.get(p)) is not None and d.owner == deed.owner
    )
    return TOUR_TOLL[pos] * (2 if owned_tours >= 2 else 1)


def takeover_price(pos: int, deed: Deed) -> int:
    return 2 * INVESTED[pos][deed.level]


def land(state: MarbleState, events: list[Event]) -> None:
    player = state.order[state.current]
    piece = state.players[player]
    pos = piece.pos
    kind = KIND[pos]
    if kind in LAND_KINDS:  # a land: buy it, build on it or pay its toll
        deed = state.owners.get(pos)
        if deed is None:
            state.decision = BUY_DECISION[pos]
            state.phase = DECIDE
        elif deed.owner == player:
            if kind == CITY and deed.level < max_level(state):
                state.decision = BUILD_DECISION[pos, deed.level + 1]
                state.phase = DECIDE
            else:
                after_landing(state, events)
        else:
            pay_toll(state, events, player, pos, deed)
    elif kind == CARD:
        _land_on_card(state, events, player)
    elif kind == FUND_PAY:
        run_payments(state, events, [Payment(player, FUND_PAYMENT, FUND, "fund", pos)])
    elif kind == FUND_RECEIVE:
        _receive_fund(state, events, player)
        after_landing(state, events)
    elif kind == ISLAND:
        send_to_island(state, events, player, "landed")
        after_landing(state, events)
    elif kind == SPACE:
        piece.space_pending = True
        state.extra_roll = False
        after_landing(state, events)
    else:
        after_landing(state, events)


def pay_toll(state: MarbleState, events: list[Event], player: str, pos: int, deed: Deed) -> None:
    """The toll waiver (L12) is used by itself, once, and goes to the bottom of the deck."""
    amount = toll_of(state, pos, deed)
    piece = state.players[player]
    if TOLL_WAIVER in piece.held_cards:
        piece.held_cards.remove(TOLL_WAIVER)
        state.deck.append(TOLL_WAIVER)
        events.append(
            {
                "type": "tollPaid",
                "from": player,
                "to": deed.owner,
                "pos": pos,
                "amount": amount,
                "waived": True,
            }
        )
        offer_takeover(state, events, pos)
        return
    run_payments(state, events, [Payment(player, amount, deed.owner, "toll", pos)])


def offer_takeover(state: MarbleState, events: list[Event], pos: int) -> None:
    deed = state.owners.get(pos) if state.options.takeover else None  # off by default
    if (
        deed is not None
        and deed.owner != state.order[state.current]
        and KIND[pos] == CITY
        and deed.level < LANDMARK
    ):
        state.decision = Decision(pos, can_takeover=takeover_price(pos, deed))
        state.phase = DECIDE
        return
    after_landing(state, events)


def _receive_fund(state: MarbleState, events: list[Event], player: str) -> None:
    amount = state.fund
    if amount > 0:
        state.fund = 0
        state.players[player].cash += amount
        events.append({"type": "fundReceived", "player": player, "amount": amount})


def _land_on_card(state: MarbleState, events: list[Event], player: str) -> None:
    # A 5th card in one turn switches card squares off for the rest of it (no endless chains).
    if state.cards_this_turn >= MAX_CARDS_PER_TURN:
        after_landing(state, events)
        return
    outcome = draw_card(state, events, player)
    kind = outcome.kind
    if kind == "done":
        after_landing(state, events)
    elif kind == "pay":
        run_payments(state, events, list(outcome.payments))
    elif kind == "forward":
        move_to(state, events, player, outcome.dest, "card")
        land(state, events)
    elif kind == "back":
        move_back(state, events, player, BACK_STEPS)
        land(state, events)
    else:
        send_to_island(state, events, player, "card")
        after_landing(state, events)


def run_payments(state: MarbleState, events: list[Event], payments: list[Payment]) -> None:
    """Settles payments that share one purpose, then goes on with the turn (unless in debt)."""
    first = payments[0]
    if settle(state, events, payments):
        resume(state, events, first.reason, first.pos)


def resume(
    state: MarbleState,
    events: list[Event],
    reason: str,
    pos: int | None,
    after_debt: bool = False,
) -> None:
    """Every payment of that purpose is settled: on with the turn.

    ``after_debt``: the payment needed the debt phase; a takeover is then not offered, since
    its price may not come from sales (spec 5.7, "빚 갚기로 만들 수 없음").
    """
    if state.phase == FINISHED:
        return
    if not state.players[state.order[state.current]].alive:
        end_turn(state, events)
    elif state.options.takeover and reason == "toll" and pos is not None and not after_debt:
        offer_takeover(state, events, pos)  # (takeovers are off by default: no call for them)
    elif reason == "spaceFee" and pos is not None:
        fly(state, events, pos, fee_paid=True)
    else:
        after_landing(state, events)


def fly(state: MarbleState, events: list[Event], dest: int, fee_paid: bool) -> None:
    """The space trip itself: clockwise from 30 (salary across 출발), then the arrival."""
    player = state.order[state.current]
    state.players[player].space_pending = False
    if not fee_paid:
        events.append({"type": "spaceTravel", "player": player, "dest": dest, "fee": 0, "to": None})
    move_to(state, events, player, dest, "space")
    land(state, events)
