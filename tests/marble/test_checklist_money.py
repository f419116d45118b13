"""Spec 10, money: 건설, 통행료, 빚 갚기, L19, 사회복지기금, 인수, 독점, and the cards' money."""

import pytest

from jokeapp.core.errors import IllegalAction
from jokeapp.games.marble.data import CITY_TOLL, TOUR_TOLL
from jokeapp.games.marble.state import MarbleState

from .helpers import act, at, deck_with, kinds, of_kind, roll, table
from .test_data import PRICES_32


def test_build_refused_on_the_visit_the_land_was_bought() -> None:
    s = table({"p1": at(0), "p2": at(0)})
    roll(s, "p1", 2, 2)
    act(s, "p1", "BUY")
    assert s.current_player == "p1" and s.phase == "turnStart"  # the double keeps the turn
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "BUILD", level=1)
    assert err.value.code == "wrong_phase"
    assert s.owners[4].level == 0


def test_build_on_purchase_option_allows_only_a_villa_right_after_buying() -> None:
    s = table({"p1": at(0), "p2": at(0)}, options={"buildOnPurchase": True})
    roll(s, "p1", 1, 2)
    act(s, "p1", "BUY")
    assert s.phase == "decide" and s.decision is not None and s.decision.bought_this_visit
    with pytest.raises(IllegalAction):
        act(s, "p1", "BUILD", level=2)
    events = act(s, "p1", "BUILD", level=1)
    assert events[0] == {"type": "built", "player": "p1", "pos": 3, "level": 1, "cost": 3}
    assert s.current_player == "p2"


def test_next_visit_allows_a_villa_only_and_skipping_to_building_is_refused() -> None:
    s = table({"p1": at(1), "p2": at(0)}, owners={4: ("p1", 0)})
    roll(s, "p1", 1, 2)
    assert s.decision is not None and s.decision.can_build == 1
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "BUILD", level=2)
    assert err.value.code == "wrong_level"
    act(s, "p1", "BUILD", level=1)
    assert s.owners[4].level == 1 and s.players["p1"].cash == 296


def test_two_levels_in_one_visit_are_refused() -> None:
    s = table({"p1": at(0), "p2": at(0)}, owners={4: ("p1", 0)})
    roll(s, "p1", 2, 2)
    act(s, "p1", "BUILD", level=1)
    with pytest.raises(IllegalAction):
        act(s, "p1", "BUILD", level=2)
    assert s.owners[4].level == 1


def test_landmark_only_with_the_option_and_after_a_hotel() -> None:
    s = table({"p1": at(36), "p2": at(0)}, owners={39: ("p1", 3)})
    roll(s, "p1", 1, 2)
    assert s.current_player == "p2"  # a hotel without the landmark option: nothing to decide
    s = table({"p1": at(36), "p2": at(0)}, owners={39: ("p1", 3)}, options={"landmark": True})
    roll(s, "p1", 1, 2)
    events = act(s, "p1", "BUILD", level=4)
    assert events[0]["cost"] == 80 and s.owners[39].level == 4


def test_build_without_money_is_refused_with_the_spec_message() -> None:
    s = table({"p1": at(36, cash=10), "p2": at(0)}, owners={39: ("p1", 0)})
    roll(s, "p1", 1, 2)
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "BUILD", level=1)
    assert err.value.message == "돈이 부족해요."
    with pytest.raises(IllegalAction) as err:
        s2 = table({"p1": at(36, cash=10), "p2": at(0)})
        roll(s2, "p1", 1, 2)
        act(s2, "p1", "BUY")
    assert err.value.message == "돈이 부족해요."


def test_toll_is_the_table_value_at_every_level() -> None:
    for pos, *_, t0, t1, t2, t3, t4 in PRICES_32:
        for level, toll in enumerate((t0, t1, t2, t3, t4)):
            s = table(
                {"p1": at((pos - 3) % 40, cash=500), "p2": at(0)},
                owners={pos: ("p2", level)},
                options={"landmark": True},
            )
            events = roll(s, "p1", 1, 2)
            paid = of_kind(events, "tollPaid")
            assert paid == [
                {
                    "type": "tollPaid",
                    "from": "p1",
                    "to": "p2",
                    "pos": pos,
                    "amount": toll,
                    "waived": False,
                }
            ]
            assert s.players["p2"].cash == 300 + toll
            assert CITY_TOLL[pos][level] == toll


def test_toll_waiver_is_used_automatically_then_goes_to_the_bottom_of_the_deck() -> None:
    s = table({"p1": at(36, heldCards=["L12"]), "p2": at(0)}, owners={39: ("p2", 3)})
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "tollPaid") == [
        {"type": "tollPaid", "from": "p1", "to": "p2", "pos": 39, "amount": 100, "waived": True}
    ]
    assert s.players["p1"].cash == 300 and s.players["p2"].cash == 300
    assert s.players["p1"].held_cards == [] and s.deck[-1] == "L12" and len(s.deck) == 20


def test_tourist_toll_doubles_when_the_owner_has_two_spots() -> None:
    s = table({"p1": at(2), "p2": at(0)}, owners={5: ("p2", 0)})
    assert of_kind(roll(s, "p1", 1, 2), "tollPaid")[0]["amount"] == TOUR_TOLL[5] == 10
    s = table({"p1": at(2), "p2": at(0)}, owners={5: ("p2", 0), 15: ("p2", 0)})
    assert of_kind(roll(s, "p1", 1, 2), "tollPaid")[0]["amount"] == 20


def test_toll_is_received_by_an_owner_on_the_island() -> None:
    s = table({"p1": at(36), "p2": at(10, islandLeft=2)}, owners={39: ("p2", 0)})
    roll(s, "p1", 1, 2)
    assert s.players["p2"].cash == 308


def _example_5_9() -> MarbleState:
    # A: 70 cash; 리스본 with a building (sale 13 + 6 + 13 = 32), 코펜하겐 and 스톡홀름 (9 + 9).
    return table(
        {"A": at(36, cash=70), "B": at(0)},
        owners={39: ("B", 3), 26: ("A", 2), 16: ("A", 0), 18: ("A", 0)},
    )


def test_debt_example_5_9_is_reproduced() -> None:
    s = _example_5_9()
    events = roll(s, "A", 1, 2)
    assert events[-1] == {"type": "debt", "player": "A", "amount": 100, "to": "B"}
    assert s.phase == "debt"
    from .helpers import GAME

    assert GAME.view(s, "A")["raisable"] == 120
    assert GAME.view(s, "A")["shortfall"] == 30
    assert act(s, "A", "SELL", pos=26, what="top")[0]["amount"] == 13
    assert act(s, "A", "SELL", pos=26, what="top")[0]["amount"] == 6
    events = act(s, "A", "SELL", pos=26, what="all")
    assert events[0] == {"type": "sold", "player": "A", "pos": 26, "what": "all", "amount": 13}
    assert events[1] == {
        "type": "tollPaid",
        "from": "A",
        "to": "B",
        "pos": 39,
        "amount": 100,
        "waived": False,
    }
    assert s.players["A"].cash == 2 and s.players["B"].cash == 400
    assert 26 not in s.owners and s.owners[16].owner == "A"
    assert s.phase == "turnStart" and s.current_player == "B"


def test_debt_sell_refuses_other_lands_and_bare_tops() -> None:
    s = _example_5_9()
    roll(s, "A", 1, 2)
    for pos, what, code in (
        (39, "all", "not_your_land"),
        (16, "top", "no_building"),
        (26, "half", "malformed_action"),
    ):
        with pytest.raises(IllegalAction) as err:
            act(s, "A", "SELL", pos=pos, what=what)
        assert err.value.code == code
    with pytest.raises(IllegalAction):
        act(s, "B", "SELL", pos=39, what="top")


def test_bankrupt_at_once_when_raisable_is_below_the_debt_creditor_gets_everything() -> None:
    s = table({"A": at(36, cash=10), "B": at(0), "C": at(0)}, owners={39: ("B", 3), 1: ("A", 1)})
    events = roll(s, "A", 1, 2)
    assert "debt" not in kinds(events)
    assert of_kind(events, "sold") == [
        {"type": "sold", "player": "A", "pos": 1, "what": "all", "amount": 3 + 1}
    ]
    assert of_kind(events, "bankrupt") == [
        {"type": "bankrupt", "player": "A", "creditor": "B", "amount": 14}
    ]
    assert s.players["B"].cash == 314 and 1 not in s.owners
    assert not s.players["A"].alive and s.players["A"].bankrupt_at_round == 1
    assert s.current_player == "B" and s.phase == "turnStart"


def test_travel_expenses_bankruptcy_pays_only_the_earlier_seats() -> None:
    s = table({"A": at(0, cash=7), "B": at(0), "C": at(0), "D": at(0)}, deck=deck_with("L19"))
    events = roll(s, "A", 1, 1)
    assert of_kind(events, "transfer") == [
        {"type": "transfer", "from": "A", "to": "B", "amount": 5, "reason": "L19"}
    ]
    assert of_kind(events, "bankrupt") == [
        {"type": "bankrupt", "player": "A", "creditor": "C", "amount": 2}
    ]
    assert [s.players[p].cash for p in "BCD"] == [305, 302, 300]
    assert s.current_player == "B"


def test_travel_expenses_debt_goes_creditor_by_creditor() -> None:
    s = table(
        {"A": at(0, cash=7), "B": at(0), "C": at(0)}, owners={1: ("A", 0)}, deck=deck_with("L19")
    )
    events = roll(s, "A", 1, 1)
    assert events[-1] == {"type": "debt", "player": "A", "amount": 5, "to": "C"}
    act(s, "A", "SELL", pos=1, what="all")
    assert [s.players[p].cash for p in "ABC"] == [7 - 5 + 3 - 5, 305, 305]
    assert s.phase == "turnStart" and s.current_player == "A"  # the double rolls again


def test_birthday_collects_from_everyone_and_a_short_player_sells() -> None:
    s = table(
        {"A": at(0), "B": at(0, cash=2), "C": at(0)}, owners={1: ("B", 0)}, deck=deck_with("L04")
    )
    events = roll(s, "A", 1, 1)
    assert events[-1] == {"type": "debt", "player": "B", "amount": 5, "to": "A"}
    from .helpers import GAME

    assert GAME.pending(s)[0].player == "B"
    events = act(s, "B", "SELL", pos=1, what="all")
    assert kinds(events) == ["sold", "transfer", "transfer"]
    assert [s.players[p].cash for p in "ABC"] == [310, 0, 295]
    assert s.current_player == "A" and s.phase == "turnStart"


def test_fund_38_pays_15_into_the_fund() -> None:
    s = table({"p1": at(35), "p2": at(0)})
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "fundPaid") == [{"type": "fundPaid", "player": "p1", "amount": 15}]
    assert s.fund == 15 and s.players["p1"].cash == 285


@pytest.mark.parametrize(("card", "amount"), [("L06", 5), ("L08", 10)])
def test_fund_cards_l06_l08_go_into_the_fund(card: str, amount: int) -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with(card), fund=3)
    events = roll(s, "p1", 1, 1)
    assert of_kind(events, "transfer") == [
        {"type": "transfer", "from": "p1", "to": "fund", "amount": amount, "reason": card}
    ]
    assert s.fund == 3 + amount and s.deck[-1] == card


def test_fund_20_pays_out_everything_then_zero() -> None:
    s = table({"p1": at(17), "p2": at(0)}, fund=40)
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "fundReceived") == [
        {"type": "fundReceived", "player": "p1", "amount": 40}
    ]
    assert s.fund == 0 and s.players["p1"].cash == 340
    s = table({"p1": at(17), "p2": at(0)})
    assert "fundReceived" not in kinds(roll(s, "p1", 1, 2))


def test_donor_card_moves_to_20_and_collects_the_fund() -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with("L17"), fund=25)
    events = roll(s, "p1", 1, 1)
    assert (
        s.players["p1"].pos == 20
        and s.fund == 0
        and of_kind(events, "fundReceived")[0]["amount"] == 25
    )


@pytest.mark.parametrize(
    ("card", "owners", "amount"),
    [
        ("L09", {1: ("p1", 3), 39: ("p1", 1), 5: ("p1", 0)}, 19 + 3),
        ("L20", {1: ("p1", 3), 5: ("p1", 0)}, 4),
        ("L07", {}, 10),
    ],
)
def test_bank_bills_repairs_property_tax_hospital(
    card: str, owners: dict[int, tuple[str, int]], amount: int
) -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with(card), owners=owners)
    events = roll(s, "p1", 1, 1)
    assert of_kind(events, "transfer") == [
        {"type": "transfer", "from": "p1", "to": "bank", "amount": amount, "reason": card}
    ]


@pytest.mark.parametrize(
    ("card", "dest", "salary"), [("L13", 0, 1), ("L14", 30, 0), ("L15", 39, 0), ("L18", 5, 0)]
)
def test_move_cards_go_forward_and_apply_the_arrival(card: str, dest: int, salary: int) -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with(card))
    events = roll(s, "p1", 1, 1)
    assert s.players["p1"].pos == dest and len(of_kind(events, "salary")) == salary
    assert of_kind(events, "moved")[-1]["by"] == "card"


def test_takeover_after_the_toll_at_twice_the_investment() -> None:
    s = table({"p1": at(11), "p2": at(0)}, owners={14: ("p2", 1)}, options={"takeover": True})
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "tollPaid")[0]["amount"] == 10
    assert s.decision is not None and s.decision.can_takeover == 2 * (16 + 8)
    events = act(s, "p1", "TAKEOVER")
    assert events[0] == {"type": "takeover", "player": "p1", "from": "p2", "pos": 14, "price": 48}
    assert s.owners[14].owner == "p1" and s.owners[14].level == 1
    assert s.players["p1"].cash == 300 - 10 - 48 and s.players["p2"].cash == 300 + 10 + 48
    assert s.current_player == "p2"  # no building on the takeover visit


def test_takeover_refused_for_landmark_and_tourist_spot() -> None:
    opts = {"takeover": True, "landmark": True}
    for pos, level in ((39, 4), (35, 0)):
        s = table(
            {"p1": at(pos - 3, cash=900), "p2": at(0)}, owners={pos: ("p2", level)}, options=opts
        )
        roll(s, "p1", 1, 2)
        assert s.current_player == "p2" and s.decision is None
        with pytest.raises(IllegalAction):
            act(s, "p1", "TAKEOVER")


def test_takeover_refused_when_option_off() -> None:
    s = table({"p1": at(11), "p2": at(0)}, owners={14: ("p2", 1)})
    roll(s, "p1", 1, 2)
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "TAKEOVER")
    assert err.value.code == "takeover_off"


def test_monopoly_win_four_tourist_spots_ends_at_once() -> None:
    s = table(
        {"p1": at(32), "p2": at(0)},
        owners={5: ("p1", 0), 15: ("p1", 0), 25: ("p1", 0)},
        options={"monopolyWin": True},
    )
    roll(s, "p1", 1, 2)
    events = act(s, "p1", "BUY")
    assert kinds(events) == ["bought", "monopoly", "gameOver"]
    assert events[1] == {"type": "monopoly", "player": "p1", "kind": "tour"}
    result = events[2]["result"]
    assert (
        result["reason"] == "monopoly"
        and result["monopolyType"] == "tour"
        and result["winners"] == ["p1"]
    )
    assert s.phase == "finished"


def test_monopoly_without_the_option_is_just_land() -> None:
    s = table({"p1": at(32), "p2": at(0)}, owners={5: ("p1", 0), 15: ("p1", 0), 25: ("p1", 0)})
    roll(s, "p1", 1, 2)
    assert kinds(act(s, "p1", "BUY")) == ["bought"]


def test_line_and_triple_monopolies_are_recognised() -> None:
    from jokeapp.games.marble.monopoly import monopoly_kind

    s = table({"p1": at(0), "p2": at(0)}, owners={p: ("p1", 0) for p in (1, 3, 4, 6, 8, 9)})
    assert monopoly_kind(s, "p1") == "line"
    s = table(
        {"p1": at(0), "p2": at(0)}, owners={p: ("p1", 0) for p in (1, 3, 4, 11, 13, 14, 21, 23, 24)}
    )
    assert monopoly_kind(s, "p1") == "triple"
    s = table({"p1": at(0), "p2": at(0)}, owners={p: ("p1", 0) for p in (1, 3, 4, 11, 13, 14)})
    assert monopoly_kind(s, "p1") is None
