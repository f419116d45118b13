"""Rules review, money (spec 3.4, 3.5 money cards, 5.2, 5.3, 5.7): each test is one rule."""

import pytest

from jokeapp.core.errors import IllegalAction
from jokeapp.games.marble.payments import raisable, sale_value

from .helpers import GAME, act, at, deck_with, kinds, of_kind, roll, table


def _card_bill(card: str, owners: dict[int, tuple[str, int]], **opts: object) -> int:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with(card), owners=owners, options=opts)
    events = roll(s, "p1", 1, 1)
    return sum(e["amount"] for e in of_kind(events, "transfer"))


def test_l09_repair_sums_every_built_level_of_a_city() -> None:
    assert _card_bill("L09", {1: ("p1", 1)}) == 3
    assert _card_bill("L09", {1: ("p1", 2)}) == 3 + 6
    assert _card_bill("L09", {1: ("p1", 3)}) == 19
    assert _card_bill("L09", {1: ("p1", 4)}, landmark=True) == 19 + 15


def test_l09_repair_ignores_bare_land_tourist_spots_and_others_buildings() -> None:
    assert _card_bill("L09", {3: ("p1", 0), 5: ("p1", 0), 39: ("p2", 3)}) == 0
    assert _card_bill("L09", {1: ("p1", 3), 39: ("p1", 1), 5: ("p1", 0), 6: ("p2", 3)}) == 22


def test_l20_property_tax_counts_cities_and_tourist_spots_not_buildings() -> None:
    owners = {1: ("p1", 3), 5: ("p1", 0), 15: ("p1", 0), 39: ("p2", 0)}
    assert _card_bill("L20", owners) == 3 * 2


def test_toll_waiver_is_not_used_for_the_space_fare() -> None:
    s = table(
        {"p1": at(30, spacePending=True, heldCards=["L12"]), "p2": at(0)}, owners={25: ("p2", 0)}
    )
    events = act(s, "p1", "SPACE_TRAVEL", dest=1)
    assert of_kind(events, "spaceTravel")[0]["fee"] == 20
    assert s.players["p1"].held_cards == ["L12"] and s.players["p2"].cash == 320


def test_toll_waiver_covers_a_tourist_spot_toll() -> None:
    s = table({"p1": at(2, heldCards=["L12"]), "p2": at(0)}, owners={5: ("p2", 0), 15: ("p2", 0)})
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "tollPaid") == [
        {"type": "tollPaid", "from": "p1", "to": "p2", "pos": 5, "amount": 20, "waived": True}
    ]
    assert s.players["p1"].cash == 300 and s.deck[-1] == "L12"


def test_toll_waiver_is_used_once_only() -> None:
    s = table({"p1": at(3, heldCards=["L12"]), "p2": at(0)}, owners={5: ("p2", 0), 8: ("p2", 0)})
    first = roll(s, "p1", 1, 1)
    assert of_kind(first, "tollPaid")[0]["waived"] is True and s.current_player == "p1"
    second = roll(s, "p1", 1, 2)
    assert of_kind(second, "tollPaid")[0]["waived"] is False
    assert s.players["p1"].cash == 300 - 2


@pytest.mark.parametrize(("spots", "toll"), [(1, 10), (2, 20), (4, 20)])
def test_tourist_toll_is_doubled_not_multiplied_by_the_number_of_spots(
    spots: int, toll: int
) -> None:
    owners = {pos: ("p2", 0) for pos in (5, 15, 25, 35)[:spots]}
    s = table({"p1": at(2), "p2": at(0), "p3": at(0)}, owners=owners)
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "tollPaid")[0]["amount"] == toll


def test_takeover_price_is_twice_land_and_every_built_level() -> None:
    s = table({"p1": at(36), "p2": at(0)}, owners={39: ("p2", 3)}, options={"takeover": True})
    roll(s, "p1", 1, 2)
    assert s.decision is not None and s.decision.can_takeover == 2 * (40 + 20 + 40 + 60)


def test_no_takeover_after_a_toll_paid_through_the_debt_phase() -> None:
    """빚 갚기로 만들 수 없음: sale money raised for the toll does not buy the city."""
    s = table(
        {"p1": at(31, cash=0), "p2": at(0)},
        owners={34: ("p2", 0), 39: ("p1", 3)},
        options={"takeover": True},
    )
    roll(s, "p1", 1, 2)
    assert s.phase == "debt"
    events = act(s, "p1", "SELL", pos=39, what="all")
    assert kinds(events) == ["sold", "tollPaid"] and s.players["p1"].cash == 80 - 6
    assert s.decision is None and s.current_player == "p2" and s.phase == "turnStart"
    with pytest.raises(IllegalAction):
        act(s, "p1", "TAKEOVER")


def test_no_takeover_after_a_toll_paid_through_the_debt_phase_even_on_a_double() -> None:
    s = table(
        {"p1": at(32, cash=0), "p2": at(0)},
        owners={34: ("p2", 0), 39: ("p1", 3)},
        options={"takeover": True},
    )
    roll(s, "p1", 1, 1)
    act(s, "p1", "SELL", pos=39, what="all")
    assert s.decision is None and s.current_player == "p1" and s.phase == "turnStart"
    assert s.extra_roll


def test_no_takeover_when_the_toll_bankrupts() -> None:
    s = table(
        {"p1": at(31, cash=2), "p2": at(0), "p3": at(0)},
        owners={34: ("p2", 0)},
        options={"takeover": True},
    )
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "bankrupt")[0]["creditor"] == "p2"
    assert s.decision is None and s.current_player == "p2" and s.phase == "turnStart"


def test_takeover_without_enough_cash_is_refused_and_changes_nothing() -> None:
    s = table(
        {"p1": at(36, cash=100), "p2": at(0)}, owners={39: ("p2", 1)}, options={"takeover": True}
    )
    roll(s, "p1", 1, 2)
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "TAKEOVER")
    assert err.value.code == "no_money" and err.value.message == "돈이 부족해요."
    assert s.owners[39].owner == "p2" and s.players["p1"].cash == 100 - 24


def test_landmark_needs_a_hotel_first() -> None:
    s = table({"p1": at(36), "p2": at(0)}, owners={39: ("p1", 2)}, options={"landmark": True})
    roll(s, "p1", 1, 2)
    assert s.decision is not None and s.decision.can_build == 3
    with pytest.raises(IllegalAction):
        act(s, "p1", "BUILD", level=4)
    assert s.owners[39].level == 2


def test_build_on_purchase_does_not_apply_to_a_tourist_spot() -> None:
    s = table({"p1": at(2), "p2": at(0)}, options={"buildOnPurchase": True})
    roll(s, "p1", 1, 2)
    act(s, "p1", "BUY")
    assert s.owners[5].owner == "p1" and s.current_player == "p2"


def test_sale_value_is_half_of_each_level_rounded_down_separately() -> None:
    # 뉴욕: land 35, villa 18, building 35, hotel 53 -> 17 + 9 + 17 + 26 = 69 (not 141 // 2)
    s = table({"p1": at(0), "p2": at(0)}, owners={36: ("p1", 3)})
    assert sale_value(s, 36, "all") == 69
    assert sale_value(s, 36, "top") == 26
    assert raisable(s, "p1") == 300 + 69


def test_debt_equal_to_what_can_be_raised_is_a_debt_not_a_bankruptcy() -> None:
    # 서울 호텔 toll 100 = cash 87 + 리스본 land 26 // 2
    s = table({"A": at(36, cash=87), "B": at(0)}, owners={39: ("B", 3), 26: ("A", 0)})
    events = roll(s, "A", 1, 2)
    assert events[-1] == {"type": "debt", "player": "A", "amount": 100, "to": "B"}
    act(s, "A", "SELL", pos=26, what="all")
    assert s.players["A"].cash == 0 and s.players["A"].alive and s.players["B"].cash == 400


def test_debt_phase_sells_one_level_at_a_time_then_pays_by_itself() -> None:
    s = table({"A": at(36, cash=70), "B": at(0)}, owners={39: ("B", 3), 26: ("A", 2), 16: ("A", 0)})
    roll(s, "A", 1, 2)
    for pos, what, cash in ((16, "all", 79), (26, "top", 92), (26, "top", 98)):
        events = act(s, "A", "SELL", pos=pos, what=what)
        assert kinds(events) == ["sold"] and s.phase == "debt" and s.players["A"].cash == cash
    assert s.owners[26].level == 0
    events = act(s, "A", "SELL", pos=26, what="all")
    assert kinds(events) == ["sold", "tollPaid"] and s.players["A"].cash == 111 - 100
    assert s.players["B"].cash == 400 and s.owners == {39: s.owners[39]}


def test_bankruptcy_gives_the_creditor_the_liquidated_cash_and_frees_the_lands() -> None:
    s = table(
        {"A": at(36, cash=10, heldCards=["L11"]), "B": at(0), "C": at(0)},
        owners={39: ("B", 3), 1: ("A", 2), 5: ("A", 0)},
    )
    events = roll(s, "A", 1, 2)
    sold = of_kind(events, "sold")
    assert [(e["pos"], e["amount"]) for e in sold] == [(1, 3 + 1 + 3), (5, 10)]
    assert of_kind(events, "bankrupt") == [
        {"type": "bankrupt", "player": "A", "creditor": "B", "amount": 10 + 7 + 10}
    ]
    assert 1 not in s.owners and 5 not in s.owners
    assert s.deck[-1] == "L11" and s.players["A"].held_cards == []
    assert s.players["B"].cash == 327 and s.players["A"].cash == 0


def test_bankruptcy_to_the_fund_fills_the_fund() -> None:
    s = table({"A": at(35, cash=4), "B": at(0), "C": at(0)}, fund=10)
    events = roll(s, "A", 1, 2)
    assert of_kind(events, "bankrupt") == [
        {"type": "bankrupt", "player": "A", "creditor": "fund", "amount": 4}
    ]
    assert s.fund == 14


def test_travel_expenses_go_round_from_the_seat_after_the_drawer() -> None:
    s = table({"A": at(0), "B": at(0), "C": at(0), "D": at(0)}, current=2, deck=deck_with("L19"))
    events = roll(s, "C", 1, 1)
    assert [e["to"] for e in of_kind(events, "transfer")] == ["D", "A", "B"]


def test_monopoly_reached_by_a_takeover_ends_the_game() -> None:
    owners = {p: ("p1", 0) for p in (1, 3, 4, 11, 13, 21, 23, 24)}
    owners[14] = ("p2", 0)
    s = table(
        {"p1": at(11), "p2": at(0)}, owners=owners, options={"takeover": True, "monopolyWin": True}
    )
    roll(s, "p1", 1, 2)
    events = act(s, "p1", "TAKEOVER")
    assert of_kind(events, "monopoly") == [{"type": "monopoly", "player": "p1", "kind": "triple"}]
    result = GAME.result(s)
    assert s.phase == "finished" and result is not None and result["winners"] == ["p1"]


def test_monopoly_reached_by_the_partner_of_a_trade_ends_the_game() -> None:
    s = table(
        {"p1": at(0), "p2": at(0)},
        owners={5: ("p2", 0), 15: ("p2", 0), 25: ("p2", 0), 35: ("p1", 0)},
        options={"trade": True, "monopolyWin": True},
    )
    act(
        s,
        "p1",
        "PROPOSE_TRADE",
        to="p2",
        give={"lands": [35], "cash": 0},
        take={"lands": [], "cash": 25},
    )
    events = act(s, "p2", "TRADE_RESPOND", accept=True)
    assert of_kind(events, "monopoly") == [{"type": "monopoly", "player": "p2", "kind": "tour"}]
    result = GAME.result(s)
    assert result is not None and result["monopolyType"] == "tour"
    assert [e["player"] for e in result["ranking"]] == ["p2", "p1"]
