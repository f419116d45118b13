"""Rules fidelity, round two: maxRounds = 0, states written by hand in the spec's shape (8.1)
with derived project fields and computed results, and the tourist-spot toll's owner."""

from typing import Any

import pytest

from jokeapp.games.marble.data import CARD_IDS
from jokeapp.games.marble.state import MarbleState

from .helpers import GAME, act, at, kinds, of_kind, roll, table

# --- spec 2: maxRounds = 0 means no round limit ------------------------------------------


def test_max_rounds_0_plays_on_past_round_100() -> None:
    s = table({"p1": at(0), "p2": at(0)}, current=1, round=100, options={"maxRounds": 0})
    roll(s, "p2", 1, 2)
    events = act(s, "p2", "PASS")
    assert kinds(events) == ["roundEnd"]
    assert not GAME.is_over(s) and s.round == 101 and s.current_player == "p1"


def test_max_rounds_0_game_ends_only_by_bankruptcy_whatever_the_round() -> None:
    s = table(
        {"p1": at(36, cash=1), "p2": at(0)},
        owners={39: ("p2", 0)},
        round=250,
        options={"maxRounds": 0},
    )
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "bankrupt")[0]["player"] == "p1"
    result = GAME.result(s)
    assert result is not None and result["reason"] == "lastSurvivor"
    assert result["winners"] == ["p2"]


def test_max_rounds_15_still_ends_after_round_15() -> None:
    s = table({"p1": at(0), "p2": at(0)}, current=1, round=15, options={"maxRounds": 15})
    roll(s, "p2", 1, 2)
    assert kinds(act(s, "p2", "PASS")) == ["roundEnd", "gameOver"]


# --- spec 8.1: a debt in the spec's shape {amount, to, then, queue} -----------------------


def _toll_debt_in_spec_shape() -> MarbleState:
    """Spec 5.9: A on 서울 (B's hotel, toll 100) with 70 cash owes B 100; written by hand."""
    return table(
        {"A": at(39, cash=70), "B": at(0)},
        owners={39: ("B", 3), 26: ("A", 2), 1: ("A", 0)},
        phase="debt",
        debt={
            "amount": 100,
            "to": {"kind": "player", "id": "B"},
            "then": "continueTurn",
            "queue": [],
        },
    )


def test_spec_shape_toll_debt_is_paid_after_sales_and_the_turn_goes_on() -> None:
    s = _toll_debt_in_spec_shape()
    assert s.debt is not None and s.debt.payment.player == "A" and s.debt.payment.reason == "toll"
    assert GAME.view(s, "A")["shortfall"] == 30
    act(s, "A", "SELL", pos=26, what="top")
    act(s, "A", "SELL", pos=26, what="top")
    events = act(s, "A", "SELL", pos=26, what="all")
    assert events[1] == {
        "type": "tollPaid",
        "from": "A",
        "to": "B",
        "pos": 39,
        "amount": 100,
        "waived": False,
    }
    assert s.players["A"].cash == 2 and s.players["B"].cash == 400
    assert s.phase == "turnStart" and s.current_player == "B"


def test_spec_shape_debt_timeout_sells_by_the_decided_rule_and_pays() -> None:
    """§8.5 as decided: buildings first by smallest sale value, then lands by land price."""
    s = _toll_debt_in_spec_shape()
    sold: list[tuple[int, str, int]] = []
    while s.phase == "debt":
        action = GAME.on_timeout(s, "A")
        events = GAME.apply(s, "A", action)
        sold += [(e["pos"], e["what"], e["amount"]) for e in of_kind(events, "sold")]
    assert sold == [(26, "top", 13), (26, "top", 6), (1, "all", 3), (26, "all", 13)]
    assert of_kind(events, "tollPaid")[0]["amount"] == 100
    assert s.players["A"].cash == 70 + 13 + 6 + 3 + 13 - 100 and s.players["B"].cash == 400
    assert s.current_player == "B"


def test_spec_shape_birthday_debt_names_the_payer_in_seat_order_and_the_queue_follows() -> None:
    """L04 drawn by p1 (now at the deck's bottom): p2 owes p1 5 and p3 pays next."""
    s = table(
        {"p1": at(2), "p2": at(0, cash=2), "p3": at(0)},
        owners={1: ("p2", 0)},
        deck=[c for c in CARD_IDS if c != "L04"] + ["L04"],
        phase="debt",
        debt={
            "amount": 5,
            "to": {"kind": "player", "id": "p1"},
            "then": "nextCreditor",
            "queue": [{"amount": 5, "to": {"kind": "player", "id": "p1"}}],
        },
    )
    assert s.debt is not None and s.debt.payment.player == "p2"
    assert [q.player for q in s.debt.queue] == ["p3"]
    events = act(s, "p2", "SELL", pos=1, what="all")
    transfers = [
        (e["from"], e["to"], e["amount"], e["reason"]) for e in of_kind(events, "transfer")
    ]
    assert transfers == [("p2", "p1", 5, "L04"), ("p3", "p1", 5, "L04")]
    assert s.players["p1"].cash == 310 and s.current_player == "p2"


def test_spec_shape_space_fare_debt_needs_its_destination() -> None:
    players = {"p1": at(30, cash=18, spacePending=True), "p2": at(0)}
    debt: dict[str, Any] = {"amount": 20, "to": {"kind": "player", "id": "p2"}, "queue": []}
    owners = {25: ("p2", 0), 1: ("p1", 1)}
    with pytest.raises(ValueError, match="destination"):
        table(players, owners=owners, phase="debt", debt=debt)
    s = table(players, owners=owners, phase="debt", debt={**debt, "pos": 39})
    events = act(s, "p1", "SELL", pos=1, what="all")
    assert events[1] == {"type": "spaceTravel", "player": "p1", "dest": 39, "fee": 20, "to": "p2"}
    assert s.players["p1"].pos == 39


def test_spec_shape_fund_debt_on_square_38() -> None:
    s = table(
        {"p1": at(38, cash=12), "p2": at(0)},
        owners={1: ("p1", 0), 3: ("p1", 0)},
        phase="debt",
        debt={"amount": 15, "to": {"kind": "fund"}, "then": "continueTurn", "queue": []},
    )
    events = act(s, "p1", "SELL", pos=1, what="all")
    assert events[1] == {"type": "fundPaid", "player": "p1", "amount": 15} and s.fund == 15


def test_spec_shape_card_debt_is_told_by_the_card_at_the_bottom_of_the_deck() -> None:
    """A drawn card goes to the bottom at once: L08 (이웃 돕기 성금, 10 to the fund)."""
    s = table(
        {"p1": at(7, cash=6), "p2": at(0)},
        owners={1: ("p1", 1)},
        deck=[c for c in CARD_IDS if c != "L08"] + ["L08"],
        phase="debt",
        debt={"amount": 10, "to": {"kind": "fund"}, "then": "continueTurn", "queue": []},
    )
    events = act(s, "p1", "SELL", pos=1, what="all")
    assert events[1] == {
        "type": "transfer",
        "from": "p1",
        "to": "fund",
        "amount": 10,
        "reason": "L08",
    }
    assert s.fund == 10 and s.current_player == "p2"


# --- spec 6: the result of a finished state written by hand ---------------------------------


def _finished(players: dict[str, dict[str, Any]], **fields: Any) -> MarbleState:
    return table(players, phase="finished", **fields)


def test_hand_written_round_limit_end_ranks_the_bankrupt_below_survivors() -> None:
    s = _finished(
        {
            "p1": at(0, cash=0, alive=False, bankruptAtRound=3),
            "p2": at(0, cash=100),
            "p3": at(0, cash=90),
        },
        owners={39: ("p3", 0)},
        round=15,
        options={"maxRounds": 15},
    )
    assert s.eliminated == ["p1"]
    result = GAME.result(s)
    assert result is not None and result["reason"] == "roundLimit"
    assert [(e["player"], e["rank"], e["totalAssets"]) for e in result["ranking"]] == [
        ("p3", 1, 130),
        ("p2", 2, 100),
        ("p1", 3, 0),
    ]
    assert result["summary"] == "15라운드 종료! p3 총자산 130만으로 승리"
    assert GAME.to_json(s)["result"] == result


def test_hand_written_last_survivor_ranks_the_bankrupt_by_bankruptcy_round() -> None:
    s = _finished(
        {
            "p1": at(0, cash=0, alive=False, bankruptAtRound=4),
            "p2": at(0, cash=500),
            "p3": at(0, cash=0, alive=False, bankruptAtRound=7),
        },
        round=7,
    )
    assert s.eliminated == ["p1", "p3"]
    result = GAME.result(s)
    assert result is not None and result["reason"] == "lastSurvivor" and result["winners"] == ["p2"]
    assert [(e["player"], e["rank"]) for e in result["ranking"]] == [
        ("p2", 1),
        ("p3", 2),
        ("p1", 3),
    ]


def test_hand_written_eliminated_keeps_its_order_and_must_match_alive() -> None:
    players = {
        "p1": at(0, cash=0, alive=False, bankruptAtRound=2),
        "p2": at(0, cash=0, alive=False, bankruptAtRound=2),
        "p3": at(0),
    }
    s = _finished(players, eliminated=["p2", "p1"])
    result = GAME.result(s)
    assert result is not None and [e["player"] for e in result["ranking"]] == ["p3", "p1", "p2"]
    with pytest.raises(ValueError, match="eliminated"):
        _finished(players, eliminated=["p1"])


MONOPOLIES = {
    "tour": (5, 15, 25, 35),
    "line": (21, 23, 24, 26, 27, 29),
    "triple": (1, 3, 4, 11, 13, 14, 21, 23, 24),
}


@pytest.mark.parametrize("kind", sorted(MONOPOLIES))
def test_hand_written_monopoly_end_puts_the_monopolist_first(kind: str) -> None:
    s = _finished(
        {"p1": at(0, cash=900), "p2": at(0, cash=10), "p3": at(0, cash=50)},
        owners={pos: ("p2", 0) for pos in MONOPOLIES[kind]},
        current=1,
        options={"monopolyWin": True},
    )
    result = GAME.result(s)
    assert result is not None and result["reason"] == "monopoly"
    assert result["monopolyType"] == kind and result["winners"] == ["p2"]
    assert [e["player"] for e in result["ranking"]] == ["p2", "p1", "p3"]


def test_hand_written_monopoly_without_the_option_is_a_round_limit_end() -> None:
    s = _finished(
        {"p1": at(0, cash=900), "p2": at(0, cash=10)},
        owners={pos: ("p2", 0) for pos in MONOPOLIES["tour"]},
        round=20,
    )
    result = GAME.result(s)
    assert result is not None and result["reason"] == "roundLimit" and result["winners"] == ["p1"]


def test_hand_written_finished_state_with_no_round_limit_needs_a_way_it_ended() -> None:
    players = {"p1": at(0), "p2": at(0)}
    with pytest.raises(ValueError, match="maxRounds 0"):
        _finished(players, options={"maxRounds": 0})
    s = _finished({**players, "p2": at(0, cash=0, alive=False)}, options={"maxRounds": 0})
    result = GAME.result(s)
    assert result is not None and result["reason"] == "lastSurvivor"


def test_result_is_computed_never_read_from_the_input() -> None:
    s = _finished(
        {"p1": at(0, cash=10), "p2": at(0, cash=20)}, round=20, result={"winners": ["p1"]}
    )
    result = GAME.result(s)
    assert result is not None and result["winners"] == ["p2"]
    assert GAME.result(table({"p1": at(0), "p2": at(0)})) is None


# --- spec 3.3: the tourist toll doubles for the *same* owner of two spots -------------------


def test_tourist_toll_stays_single_when_two_different_players_own_one_spot_each() -> None:
    s = table(
        {"p1": at(0), "p2": at(0), "p3": at(2)}, owners={5: ("p1", 0), 15: ("p2", 0)}, current=2
    )
    assert of_kind(roll(s, "p3", 1, 2), "tollPaid")[0]["amount"] == 10


def test_tourist_toll_of_a_single_spot_owner_is_not_doubled_by_anothers_two_spots() -> None:
    owners = {5: ("p1", 0), 15: ("p2", 0), 25: ("p2", 0)}
    s = table({"p1": at(0), "p2": at(0), "p3": at(2)}, owners=owners, current=2)
    assert of_kind(roll(s, "p3", 1, 2), "tollPaid")[0]["amount"] == 10
    s = table({"p1": at(0), "p2": at(0), "p3": at(12)}, owners=owners, current=2)
    assert of_kind(roll(s, "p3", 1, 2), "tollPaid")[0]["amount"] == 20


# --- spec 10: checklist items whose tests a changed rule could slip past ---------------------


def test_takeover_option_off_offers_no_takeover_after_the_toll() -> None:
    """인수 옵션 꺼짐: not only is TAKEOVER refused, the toll ends the visit with no offer."""
    s = table({"p1": at(11), "p2": at(0)}, owners={14: ("p2", 1)})
    events = roll(s, "p1", 1, 2)
    assert of_kind(events, "tollPaid")[0]["amount"] == 10
    assert s.decision is None and s.phase == "turnStart" and s.current_player == "p2"


def test_trade_acceptance_fails_when_the_answering_player_is_short_of_cash() -> None:
    """교환: 현금은 수락 시점에도 보유액 이내 — the side asked to pay is checked too."""
    s = table(
        {"p1": at(0), "p2": at(0, cash=20)},
        owners={1: ("p1", 0)},
        options={"trade": True},
        phase="tradeResponse",
        pendingTrade={
            "from": "p1",
            "to": "p2",
            "give": {"lands": [1], "cash": 0},
            "take": {"lands": [], "cash": 30},
        },
        tradesThisTurn=1,
    )
    events = act(s, "p2", "TRADE_RESPOND", accept=True)
    assert events[0]["type"] == "tradeResolved" and events[0]["failed"] is True
    assert s.owners[1].owner == "p1" and s.players["p2"].cash == 20
