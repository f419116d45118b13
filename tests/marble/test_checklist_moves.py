"""Spec 10, moving: 월급, 더블, 더블로 우주여행, 무인도, and the 5.9 examples about moves."""

import pytest

from jokeapp.core.errors import IllegalAction

from .helpers import GAME, act, at, deck_with, kinds, of_kind, roll, table


def test_salary_37_plus_5_lands_on_2_with_one_salary() -> None:
    s = table({"p1": at(37), "p2": at(0)}, deck=deck_with("L11"))
    events = roll(s, "p1", 2, 3)
    assert of_kind(events, "moved") == [
        {"type": "moved", "player": "p1", "from": 37, "to": 2, "passedStart": True, "by": "dice"}
    ]
    assert of_kind(events, "salary") == [{"type": "salary", "player": "p1", "amount": 20}]
    assert s.players["p1"].cash == 320


def test_salary_once_when_landing_exactly_on_start() -> None:
    s = table({"p1": at(37), "p2": at(0)}, options={"salary": 30})
    events = roll(s, "p1", 1, 2)
    assert s.players["p1"].pos == 0
    assert of_kind(events, "salary") == [{"type": "salary", "player": "p1", "amount": 30}]
    assert s.players["p1"].cash == 330


def test_salary_not_paid_when_backwards_card_crosses_start() -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with("L16"))
    events = roll(s, "p1", 1, 1)
    moves = of_kind(events, "moved")
    assert moves[1] == {
        "type": "moved",
        "player": "p1",
        "from": 2,
        "to": 39,
        "passedStart": False,
        "by": "card",
    }
    assert of_kind(events, "salary") == []
    assert (
        s.players["p1"].cash == 300
        and s.phase == "decide"
        and s.decision is not None
        and s.decision.pos == 39
    )


def test_double_rolls_again_after_landing() -> None:
    s = table({"p1": at(0), "p2": at(0)})
    events = roll(s, "p1", 4, 4)
    assert events[0] == {"type": "rolled", "player": "p1", "dice": [4, 4], "double": True}
    assert s.phase == "decide"
    act(s, "p1", "PASS")
    assert s.phase == "turnStart" and s.current_player == "p1" and s.extra_roll
    roll(s, "p1", 1, 2)
    act(s, "p1", "PASS")
    assert s.current_player == "p2"


def test_third_double_goes_to_island_without_moving_or_salary() -> None:
    s = table({"p1": at(21), "p2": at(0)})
    roll(s, "p1", 3, 3)
    act(s, "p1", "PASS")
    roll(s, "p1", 1, 1)
    act(s, "p1", "PASS")
    assert s.players["p1"].pos == 29
    events = roll(s, "p1", 6, 6)
    assert kinds(events) == ["rolled", "toIsland"]
    assert events[1] == {"type": "toIsland", "player": "p1", "reason": "tripleDouble"}
    p1 = s.players["p1"]
    assert p1.pos == 10 and p1.island_left == 3 and p1.cash == 300
    assert s.current_player == "p2"


def test_double_onto_space_travel_loses_extra_roll_and_next_turn_allows_only_space_travel() -> None:
    s = table({"p1": at(22), "p2": at(0)})
    roll(s, "p1", 4, 4)
    assert s.players["p1"].space_pending and s.current_player == "p2"
    roll(s, "p2", 1, 2)
    act(s, "p2", "PASS")
    assert s.current_player == "p1"
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "ROLL")
    assert err.value.code == "space_pending"
    assert {a["type"] for a in GAME.legal_actions(s, "p1")} == {"SPACE_TRAVEL"}
    act(s, "p1", "SPACE_TRAVEL", dest=31)
    assert s.players["p1"].pos == 31 and not s.players["p1"].space_pending


def test_island_three_non_doubles_then_fourth_turn_is_normal() -> None:
    s = table({"p1": at(10, islandLeft=3), "p2": at(0, islandLeft=3)}, options={"islandTurns": 3})
    s.players["p2"].pos = 10
    for left in (2, 1, 0):
        events = roll(s, "p1", 1, 2)
        assert kinds(events) == ["islandRoll"] and events[0]["escaped"] is False
        assert s.players["p1"].island_left == left and s.players["p1"].pos == 10
        roll(s, "p2", 1, 3)
    events = roll(s, "p1", 2, 4)
    assert kinds(events)[:2] == ["rolled", "moved"] and s.players["p1"].pos == 16


def test_island_double_escapes_and_moves_without_extra_roll() -> None:
    s = table({"p1": at(10, islandLeft=2), "p2": at(0)})
    events = roll(s, "p1", 3, 3)
    assert events[0] == {"type": "islandRoll", "player": "p1", "dice": [3, 3], "escaped": True}
    assert {"type": "escaped", "player": "p1", "how": "double"} in events
    assert s.players["p1"].pos == 16 and s.players["p1"].island_left == 0
    act(s, "p1", "PASS")
    assert s.current_player == "p2"


def test_escape_card_then_normal_roll_and_a_double_rolls_again() -> None:
    s = table({"p1": at(10, islandLeft=3, heldCards=["L11"]), "p2": at(0)})
    assert "L11" not in s.deck
    events = act(s, "p1", "USE_ESCAPE_CARD")
    assert events == [{"type": "escaped", "player": "p1", "how": "card"}]
    assert s.deck[-1] == "L11" and s.players["p1"].held_cards == []
    assert s.phase == "turnStart" and s.current_player == "p1"
    roll(s, "p1", 2, 2)
    act(s, "p1", "PASS")
    assert s.current_player == "p1" and s.extra_roll
    roll(s, "p1", 1, 3)
    act(s, "p1", "PASS")
    assert s.current_player == "p2"


def test_island_fee_pays_the_bank_and_rolls_normally() -> None:
    s = table({"p1": at(10, islandLeft=3), "p2": at(0)}, options={"islandFee": 10})
    events = act(s, "p1", "PAY_ISLAND_FEE")
    assert events[0] == {
        "type": "transfer",
        "from": "p1",
        "to": "bank",
        "amount": 10,
        "reason": "islandFee",
    }
    assert s.players["p1"].cash == 290 and s.players["p1"].island_left == 0
    roll(s, "p1", 1, 2)
    assert s.players["p1"].pos == 13


def test_island_fee_refused_when_option_is_zero_or_cash_short() -> None:
    s = table({"p1": at(10, islandLeft=3), "p2": at(0)})
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "PAY_ISLAND_FEE")
    assert err.value.code == "no_island_fee"
    s = table({"p1": at(10, cash=5, islandLeft=3), "p2": at(0)}, options={"islandFee": 10})
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "PAY_ISLAND_FEE")
    assert err.value.message == "돈이 부족해요."


def test_example_5_9_double_from_tokyo_passes_start_to_jeju_then_rolls_again() -> None:
    s = table({"A": at(0), "B": at(37)}, current=1)
    events = roll(s, "B", 4, 4)
    assert kinds(events) == ["rolled", "moved", "salary"]
    assert events[1]["to"] == 5 and events[1]["passedStart"]
    assert (
        s.phase == "decide"
        and s.decision is not None
        and s.decision.can_buy
        and s.decision.pos == 5
    )
    act(s, "B", "BUY")
    assert s.phase == "turnStart" and s.current_player == "B"


def test_example_5_9_space_travel_to_seoul_pays_spaceport_owner_without_salary() -> None:
    s = table({"C": at(30, spacePending=True), "D": at(0)}, owners={25: ("D", 0)})
    events = act(s, "C", "SPACE_TRAVEL", dest=39)
    assert events[0] == {"type": "spaceTravel", "player": "C", "dest": 39, "fee": 20, "to": "D"}
    assert events[1] == {
        "type": "moved",
        "player": "C",
        "from": 30,
        "to": 39,
        "passedStart": False,
        "by": "space",
    }
    assert of_kind(events, "salary") == []
    assert s.players["C"].cash == 280 and s.players["D"].cash == 320
    assert s.phase == "decide" and s.decision is not None and s.decision.pos == 39


def test_space_travel_fee_20_to_spaceport_owner_and_salary_from_30_to_5() -> None:
    s = table({"p1": at(30, spacePending=True), "p2": at(0)}, owners={25: ("p2", 0)})
    events = act(s, "p1", "SPACE_TRAVEL", dest=5)
    assert kinds(events) == ["spaceTravel", "moved", "salary"]
    assert events[1]["passedStart"] is True
    assert s.players["p1"].cash == 300 - 20 + 20 and s.players["p2"].cash == 320


def test_space_travel_is_free_when_spaceport_is_unowned_or_mine() -> None:
    for owners in ({}, {25: ("p1", 0)}):
        s = table({"p1": at(30, spacePending=True), "p2": at(0)}, owners=owners)
        events = act(s, "p1", "SPACE_TRAVEL", dest=31)
        assert events[0] == {
            "type": "spaceTravel",
            "player": "p1",
            "dest": 31,
            "fee": 0,
            "to": None,
        }
        assert s.players["p1"].cash == 300


def test_space_travel_to_30_or_off_board_is_refused() -> None:
    s = table({"p1": at(30, spacePending=True), "p2": at(0)})
    for dest in (30, 40, -1):
        with pytest.raises(IllegalAction):
            act(s, "p1", "SPACE_TRAVEL", dest=dest)
    assert s.players["p1"].space_pending


def test_storm_card_sends_to_island_without_salary_and_breaks_doubles() -> None:
    s = table({"p1": at(36), "p2": at(0)}, deck=deck_with("L10"))
    events = roll(s, "p1", 3, 3)  # 36 + 6 = 2, a card square, passing start
    assert of_kind(events, "toIsland") == [{"type": "toIsland", "player": "p1", "reason": "card"}]
    assert len(of_kind(events, "salary")) == 1  # for passing start on the dice move only
    assert s.players["p1"].pos == 10 and s.current_player == "p2"


def test_landing_on_island_by_dice_ends_the_doubles() -> None:
    s = table({"p1": at(4), "p2": at(0)})
    events = roll(s, "p1", 3, 3)
    assert of_kind(events, "toIsland") == [{"type": "toIsland", "player": "p1", "reason": "landed"}]
    assert s.players["p1"].island_left == 3 and s.current_player == "p2"
