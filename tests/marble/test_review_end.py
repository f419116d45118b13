"""Rules review, the rest (spec 5.6, 5.8, 6, 8.2 validation, 8.3 views): each test is one rule."""

from typing import Any

import pytest

from jokeapp.core.errors import IllegalAction
from jokeapp.games.marble.state import MarbleState

from .helpers import GAME, act, at, deck_with, kinds, of_kind, roll, table


def test_first_seat_bankrupt_in_its_own_turn_the_round_ends_after_the_last_seat() -> None:
    s = table({"A": at(36, cash=1), "B": at(0), "C": at(0)}, owners={39: ("B", 0)}, round=4)
    roll(s, "A", 1, 2)
    assert not s.players["A"].alive and s.current_player == "B" and s.round == 4
    roll(s, "B", 1, 2)
    act(s, "B", "PASS")
    events = roll(s, "C", 1, 2)
    events += act(s, "C", "PASS")
    assert of_kind(events, "roundEnd") == [{"type": "roundEnd", "round": 4}]
    assert s.round == 5 and s.current_player == "B"


def test_two_bankruptcies_in_one_round_rank_the_later_one_higher() -> None:
    s = table(
        {"A": at(0, cash=4), "B": at(0, cash=4), "C": at(0), "D": at(0)},
        current=2,
        deck=deck_with("L04"),
    )
    events = roll(s, "C", 1, 1)  # 생일 축하: D pays, then A and B cannot
    assert [e["player"] for e in of_kind(events, "bankrupt")] == ["A", "B"]
    act(s, "D", "CONCEDE")
    result = GAME.result(s)
    assert result is not None and result["reason"] == "lastSurvivor"
    assert [(e["player"], e["rank"]) for e in result["ranking"]] == [
        ("C", 1),
        ("D", 2),
        ("B", 3),
        ("A", 4),
    ]


def test_round_limit_bankrupt_players_rank_below_every_survivor() -> None:
    s = table(
        {
            "p1": at(0, cash=0, alive=False, bankruptAtRound=3),
            "p2": at(0, cash=5),
            "p3": at(0, cash=5),
        },
        current=2,
        round=15,
        eliminated=["p1"],
        options={"maxRounds": 15},
    )
    roll(s, "p3", 1, 2)
    act(s, "p3", "PASS")
    result = GAME.result(s)
    assert result is not None and result["reason"] == "roundLimit"
    assert [(e["player"], e["rank"]) for e in result["ranking"]] == [
        ("p2", 1),
        ("p3", 1),
        ("p1", 3),
    ]
    assert result["ranking"][2]["bankruptAtRound"] == 3


def test_round_limit_equal_assets_more_cash_ranks_first() -> None:
    s = table(
        {"p1": at(0, cash=100), "p2": at(0, cash=120)},
        owners={39: ("p1", 0), 1: ("p2", 0), 3: ("p2", 0), 4: ("p2", 0)},
        current=1,
        round=15,
        options={"maxRounds": 15},
    )
    roll(s, "p2", 1, 2)  # 3 -> 6, 방콕, not bought
    act(s, "p2", "PASS")
    result = GAME.result(s)
    assert result is not None
    assert [(e["player"], e["rank"], e["totalAssets"]) for e in result["ranking"]] == [
        ("p2", 1, 140),
        ("p1", 2, 140),
    ]


def test_monopoly_ranking_puts_the_winner_first_and_the_rest_by_assets() -> None:
    s = table(
        {"p1": at(32), "p2": at(0, cash=100), "p3": at(0, cash=200)},
        owners={5: ("p1", 0), 15: ("p1", 0), 25: ("p1", 0)},
        options={"monopolyWin": True},
    )
    roll(s, "p1", 1, 2)
    act(s, "p1", "BUY")
    result = GAME.result(s)
    assert result is not None and result["reason"] == "monopoly"
    assert [(e["player"], e["rank"]) for e in result["ranking"]] == [
        ("p1", 1),
        ("p3", 2),
        ("p2", 3),
    ]
    assert result["summary"] == "관광지 독점 달성! p1 승리"


def _trade(s: MarbleState, who: str = "p1", **terms: Any) -> list[dict[str, Any]]:
    give = terms.get("give", {"lands": [], "cash": 5})
    take = terms.get("take", {"lands": [], "cash": 0})
    return act(s, who, "PROPOSE_TRADE", to=terms.get("to", "p2"), give=give, take=take)


def test_trade_only_at_turn_start_of_ones_own_turn() -> None:
    s = table({"p1": at(0), "p2": at(0)}, options={"trade": True})
    with pytest.raises(IllegalAction) as err:
        _trade(s, "p2", to="p1")
    assert err.value.code == "not_your_turn"
    roll(s, "p1", 1, 2)
    assert s.phase == "decide"
    with pytest.raises(IllegalAction) as err:
        _trade(s)
    assert err.value.code == "wrong_phase"


def test_trade_with_a_bankrupt_player_or_oneself_is_refused() -> None:
    s = table(
        {"p1": at(0), "p2": at(0, cash=0, alive=False), "p3": at(0)},
        options={"trade": True},
        eliminated=["p2"],
    )
    for to in ("p2", "p1", "nobody"):
        with pytest.raises(IllegalAction) as err:
            _trade(s, to=to)
        assert err.value.code == "bad_trade_partner"


def test_trade_allowed_on_the_island_and_before_space_travel() -> None:
    for piece in (at(10, islandLeft=2), at(30, spacePending=True)):
        s = table({"p1": piece, "p2": at(0)}, options={"trade": True})
        assert kinds(_trade(s)) == ["tradeProposed"]


def test_trade_acceptance_fails_when_a_land_changed_hands_meanwhile() -> None:
    s = table(
        {"p1": at(0), "p2": at(0)},
        owners={39: ("p1", 0)},
        options={"trade": True},
        phase="tradeResponse",
        pendingTrade={
            "from": "p1",
            "to": "p2",
            "give": {"lands": [39, 1], "cash": 0},
            "take": {"lands": [], "cash": 10},
        },
        tradesThisTurn=1,
    )
    events = act(s, "p2", "TRADE_RESPOND", accept=True)
    assert events[0]["failed"] is True and 1 not in s.owners and s.owners[39].owner == "p1"
    assert s.players["p2"].cash == 300


def test_trade_third_proposal_in_a_turn_is_refused_even_after_refusals() -> None:
    s = table({"p1": at(0), "p2": at(0)}, options={"trade": True})
    for _ in range(2):
        _trade(s)
        act(s, "p2", "TRADE_RESPOND", accept=False)
    with pytest.raises(IllegalAction) as err:
        _trade(s)
    assert err.value.code == "trade_limit"
    roll(s, "p1", 1, 2)
    act(s, "p1", "PASS")
    assert kinds(_trade(s, "p2", to="p1")) == ["tradeProposed"]  # the count is per turn


def _debt_state() -> MarbleState:
    s = table({"A": at(36, cash=70), "B": at(0)}, owners={39: ("B", 3), 26: ("A", 2)})
    roll(s, "A", 1, 2)
    assert s.phase == "debt"
    return s


def _build_state() -> MarbleState:
    s = table({"p1": at(0, cash=8), "p2": at(0)}, options={"buildOnPurchase": True})
    roll(s, "p1", 1, 2)
    act(s, "p1", "BUY")
    return s


def _island_state() -> MarbleState:
    return table({"p1": at(10, islandLeft=2, cash=5), "p2": at(0)}, options={"islandFee": 10})


def _trade_answer_state() -> MarbleState:
    s = table({"p1": at(0), "p2": at(0), "p3": at(0)}, options={"trade": True})
    _trade(s)
    return s


@pytest.mark.parametrize(
    ("make", "actor", "action"),
    [
        (_debt_state, "A", {"type": "SELL", "pos": 39, "what": "all"}),
        (_debt_state, "A", {"type": "SELL", "pos": 26, "what": "half"}),
        (_debt_state, "A", {"type": "ROLL"}),
        (_debt_state, "B", {"type": "SELL", "pos": 39, "what": "top"}),
        (_debt_state, "A", {"type": "PASS"}),
        (_build_state, "p1", {"type": "BUILD", "level": 1}),
        (_build_state, "p1", {"type": "BUILD", "level": 2}),
        (_build_state, "p1", {"type": "BUY"}),
        (_build_state, "p1", {"type": "TAKEOVER"}),
        (_island_state, "p1", {"type": "PAY_ISLAND_FEE"}),
        (_island_state, "p1", {"type": "USE_ESCAPE_CARD"}),
        (_island_state, "p1", {"type": "SPACE_TRAVEL", "dest": 5}),
        (_trade_answer_state, "p3", {"type": "TRADE_RESPOND", "accept": True}),
        (_trade_answer_state, "p1", {"type": "TRADE_RESPOND", "accept": True}),
        (_trade_answer_state, "p1", {"type": "ROLL"}),
    ],
)
def test_rejected_action_leaves_the_state_json_unchanged(
    make: Any, actor: str, action: dict[str, Any]
) -> None:
    s = make()
    before = GAME.to_json(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, actor, action)
    assert err.value.message
    assert GAME.to_json(s) == before


def test_views_hide_deck_and_rng_for_players_and_spectators() -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with("L05"))
    for viewer in ("p1", "p2", None):
        seen = GAME.view(s, viewer)
        assert "deck" not in seen and "rng" not in seen and seen["deckCount"] == 20
        assert "L05" not in repr(seen)


def test_decision_preview_and_debt_candidates_only_for_the_one_deciding() -> None:
    s = _debt_state()
    assert "saleCandidates" in GAME.view(s, "A")
    for viewer in ("B", None):
        seen = GAME.view(s, viewer)
        assert "saleCandidates" not in seen and "shortfall" not in seen and "raisable" not in seen
        assert "choices" not in seen
    s = table({"p1": at(30, spacePending=True), "p2": at(0)})
    assert "spaceTravel" in GAME.view(s, "p1")
    assert "spaceTravel" not in GAME.view(s, "p2") and "spaceTravel" not in GAME.view(s, None)


def test_concede_in_a_decision_pays_the_bank_and_passes_the_turn() -> None:
    s = table({"p1": at(0), "p2": at(0), "p3": at(0)}, owners={1: ("p1", 0)}, fund=7)
    roll(s, "p1", 1, 2)
    assert s.phase == "decide"
    events = act(s, "p1", "CONCEDE")
    assert of_kind(events, "bankrupt")[0] == {
        "type": "bankrupt",
        "player": "p1",
        "creditor": "bank",
        "amount": 303,
    }
    assert s.owners == {} and s.fund == 7 and s.current_player == "p2" and s.decision is None
