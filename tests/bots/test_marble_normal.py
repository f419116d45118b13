"""Marble's normal bot: the reserve it keeps and when it takes over; what easy builds."""

from __future__ import annotations

from jokeapp.games.marble.bots import easy_move, normal_move
from jokeapp.games.marble.data import BUILDING, HOTEL, LANDMARK
from jokeapp.games.marble.state import DECIDE, Decision, MarbleState
from tests.marble.helpers import at, table


def _deciding(state: MarbleState, decision: Decision) -> MarbleState:
    state.phase = DECIDE
    state.decision = decision
    return state


def test_normal_keeps_back_the_worst_toll_its_next_roll_can_cost() -> None:
    # p1 on Buenos Aires (21, price 22) with 60: Paris (29, p2's hotel, toll 70) is in reach
    risky = table({"p1": at(21, cash=60), "p2": at(0)}, owners={29: ("p2", HOTEL)})
    assert normal_move(_deciding(risky, Decision(21, can_buy=True)), "p1") == {"type": "PASS"}
    # the same hotel out of reach of 2..12 (Seoul, 39, is 18 ahead): it buys
    safe = table({"p1": at(21, cash=60), "p2": at(0)}, owners={39: ("p2", HOTEL)})
    assert normal_move(_deciding(safe, Decision(21, can_buy=True)), "p1") == {"type": "BUY"}


def test_normal_takes_over_only_to_complete_a_group() -> None:
    options = {"takeover": True}
    one = table(
        {"p1": at(23, cash=300), "p2": at(0)},
        owners={21: ("p1", 0), 23: ("p2", 0)},
        options=options,
    )
    offer = Decision(23, can_takeover=44)
    assert normal_move(_deciding(one, offer), "p1") == {"type": "PASS"}
    two = table(
        {"p1": at(23, cash=300), "p2": at(0)},
        owners={21: ("p1", 0), 23: ("p2", 0), 24: ("p1", 0)},
        options=options,
    )
    assert normal_move(_deciding(two, Decision(23, can_takeover=44)), "p1") == {"type": "TAKEOVER"}


def test_easy_builds_up_to_a_hotel_with_10_to_spare_and_never_a_landmark() -> None:
    # p1 on its own Buenos Aires (21): the hotel costs 33, the landmark 44
    def deciding(cash: int, level: int) -> MarbleState:
        state = table(
            {"p1": at(21, cash=cash), "p2": at(0)},
            owners={21: ("p1", level - 1)},
            options={"landmark": True},
        )
        return _deciding(state, Decision(21, can_build=level))

    assert easy_move(deciding(43, HOTEL), "p1") == {"type": "BUILD", "level": HOTEL}
    assert easy_move(deciding(42, HOTEL), "p1") == {"type": "PASS"}
    assert easy_move(deciding(40, BUILDING), "p1") == {"type": "BUILD", "level": BUILDING}
    assert easy_move(deciding(500, LANDMARK), "p1") == {"type": "PASS"}
