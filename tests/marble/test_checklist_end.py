"""Spec 10, the rest: 라운드 제한, 교환, 시간 초과, 연결 끊김, 정보 유출, 리플레이 결정성; ranking (6)."""

import json

import pytest

from jokeapp.core.contract import Pending
from jokeapp.core.errors import IllegalAction
from jokeapp.core.replay import replay
from jokeapp.games.marble.ranking import total_assets
from jokeapp.games.marble.state import MarbleState
from jokeapp.sim.play import bot_rng
from tests.botask import ask

from .helpers import GAME, act, at, deck_with, kinds, of_kind, roll, table
from .invariants import assert_nothing_hidden_leaks


def test_round_limit_20_ranks_by_total_assets_after_the_last_player_of_round_20_tie_by_cash() -> (
    None
):
    s = table(
        {"p1": at(0, cash=100), "p2": at(0, cash=140), "p3": at(0, cash=50)},
        owners={39: ("p1", 0)},
        current=1,
        round=20,
    )
    roll(s, "p2", 1, 2)
    act(s, "p2", "PASS")
    assert not GAME.is_over(s) and s.current_player == "p3"
    events = roll(s, "p3", 2, 4)
    act_events = act(s, "p3", "PASS")
    assert kinds(act_events) == ["roundEnd", "gameOver"]
    assert not kinds(events).count("gameOver")
    result = GAME.result(s)
    assert result is not None and result["reason"] == "roundLimit"
    assert [(e["player"], e["rank"], e["totalAssets"], e["cash"]) for e in result["ranking"]] == [
        ("p2", 1, 140, 140),
        ("p1", 2, 140, 100),
        ("p3", 3, 50, 50),
    ]
    assert result["winners"] == ["p2"]
    assert result["summary"] == "20라운드 종료! p2 총자산 140만으로 승리"


def test_round_limit_equal_assets_and_cash_share_the_rank() -> None:
    s = table(
        {"p1": at(0, cash=90), "p2": at(0, cash=90)}, current=1, round=15, options={"maxRounds": 15}
    )
    roll(s, "p2", 1, 2)
    act(s, "p2", "PASS")
    result = GAME.result(s)
    assert result is not None and [e["rank"] for e in result["ranking"]] == [1, 1]
    assert result["winners"] == ["p1", "p2"] and "공동 승리" in result["summary"]


def test_total_assets_example_of_section_6_is_240() -> None:
    s = table({"p1": at(0, cash=120), "p2": at(0)}, owners={39: ("p1", 2), 5: ("p1", 0)})
    assert total_assets(s, "p1") == 240


def test_first_seat_bankrupt_makes_the_next_survivor_the_round_reference() -> None:
    s = table(
        {"p1": at(0, cash=0, alive=False, bankruptAtRound=1), "p2": at(0), "p3": at(0)},
        current=1,
        eliminated=["p1"],
    )
    roll(s, "p2", 1, 2)
    act(s, "p2", "PASS")
    assert s.round == 1 and s.current_player == "p3"
    events = roll(s, "p3", 1, 2)
    events += act(s, "p3", "PASS")
    assert of_kind(events, "roundEnd") == [{"type": "roundEnd", "round": 1}]
    assert s.round == 2 and s.current_player == "p2"


def test_last_survivor_wins_and_the_bankrupt_rank_in_reverse_order() -> None:
    s = table(
        {"A": at(36, cash=1), "B": at(0), "C": at(0, cash=0, alive=False, bankruptAtRound=1)},
        owners={39: ("B", 0)},
        eliminated=["C"],
    )
    events = roll(s, "A", 1, 2)
    result = events[-1]["result"]
    assert result["reason"] == "lastSurvivor" and result["winners"] == ["B"]
    assert [e["player"] for e in result["ranking"]] == ["B", "A", "C"]
    assert [e["rank"] for e in result["ranking"]] == [1, 2, 3]


def _trade_table(**opts: object) -> MarbleState:
    return table(
        {"p1": at(0), "p2": at(0)},
        owners={1: ("p1", 1), 39: ("p2", 0)},
        options={"trade": True, **opts},
    )


def test_trade_unanswered_for_20_seconds_is_a_refusal() -> None:
    s = _trade_table()
    events = act(
        s,
        "p1",
        "PROPOSE_TRADE",
        to="p2",
        give={"lands": [1], "cash": 10},
        take={"lands": [39], "cash": 0},
    )
    assert events[0]["type"] == "tradeProposed" and events[0]["give"] == {"lands": [1], "cash": 10}
    assert GAME.pending(s) == [Pending("p2", "tradeResponse", 20)]
    auto = GAME.on_timeout(s, "p2")
    assert auto == {"type": "TRADE_RESPOND", "accept": False}
    events = GAME.apply(s, "p2", auto)
    assert events[0]["type"] == "tradeResolved" and events[0]["accepted"] is False
    assert s.owners[1].owner == "p1" and s.phase == "turnStart" and s.current_player == "p1"


def test_trade_accepted_swaps_lands_with_buildings_and_cash() -> None:
    s = _trade_table()
    act(
        s,
        "p1",
        "PROPOSE_TRADE",
        to="p2",
        give={"lands": [1], "cash": 10},
        take={"lands": [39], "cash": 5},
    )
    events = act(s, "p2", "TRADE_RESPOND", accept=True)
    assert events[0]["accepted"] is True
    assert s.owners[1].owner == "p2" and s.owners[1].level == 1 and s.owners[39].owner == "p1"
    assert s.players["p1"].cash == 295 and s.players["p2"].cash == 305


def test_trade_acceptance_fails_when_cash_is_short_at_acceptance() -> None:
    s = table(
        {"p1": at(0, cash=5), "p2": at(0)},
        owners={39: ("p2", 0)},
        options={"trade": True},
        phase="tradeResponse",
        pendingTrade={
            "from": "p1",
            "to": "p2",
            "give": {"lands": [], "cash": 50},
            "take": {"lands": [39], "cash": 0},
        },
        tradesThisTurn=1,
    )
    events = act(s, "p2", "TRADE_RESPOND", accept=True)
    assert (
        events[0]["type"] == "tradeResolved"
        and events[0]["accepted"] is False
        and events[0]["failed"] is True
    )
    assert s.owners[39].owner == "p2" and s.players["p1"].cash == 5 and s.players["p2"].cash == 300
    assert s.phase == "turnStart"


def test_trade_checks_at_proposal() -> None:
    s = _trade_table()
    bad = [
        (
            {"to": "p2", "give": {"lands": [], "cash": 0}, "take": {"lands": [], "cash": 0}},
            "empty_trade",
        ),
        (
            {"to": "p2", "give": {"lands": [39], "cash": 0}, "take": {"lands": [], "cash": 0}},
            "not_your_land",
        ),
        (
            {"to": "p2", "give": {"lands": [], "cash": 0}, "take": {"lands": [1], "cash": 0}},
            "not_their_land",
        ),
        (
            {"to": "p2", "give": {"lands": [], "cash": 301}, "take": {"lands": [], "cash": 0}},
            "no_money",
        ),
        (
            {"to": "p2", "give": {"lands": [], "cash": 0}, "take": {"lands": [], "cash": 301}},
            "no_money",
        ),
        (
            {"to": "p1", "give": {"lands": [], "cash": 1}, "take": {"lands": [], "cash": 0}},
            "bad_trade_partner",
        ),
        (
            {"to": "p2", "give": {"lands": [], "cash": 1}, "take": {"lands": [], "cash": True}},
            "malformed_action",
        ),
    ]
    for fields, code in bad:
        with pytest.raises(IllegalAction) as err:
            act(s, "p1", "PROPOSE_TRADE", **fields)
        assert err.value.code == code
    off = table({"p1": at(0), "p2": at(0)})
    with pytest.raises(IllegalAction) as err:
        act(
            off,
            "p1",
            "PROPOSE_TRADE",
            to="p2",
            give={"lands": [], "cash": 1},
            take={"lands": [], "cash": 0},
        )
    assert err.value.code == "trade_off"


def test_trade_at_most_two_proposals_per_turn() -> None:
    s = _trade_table()
    offer = {"to": "p2", "give": {"lands": [], "cash": 1}, "take": {"lands": [], "cash": 0}}
    for _ in range(2):
        act(s, "p1", "PROPOSE_TRADE", **offer)
        act(s, "p2", "TRADE_RESPOND", accept=False)
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "PROPOSE_TRADE", **offer)
    assert err.value.code == "trade_limit"


def test_timeout_decide_always_passes_without_spending() -> None:
    s = table({"p1": at(0, cash=500), "p2": at(0)}, owners={4: ("p1", 0)})
    roll(s, "p1", 1, 2)
    assert GAME.on_timeout(s, "p1") == {"type": "PASS"}
    GAME.apply(s, "p1", GAME.on_timeout(s, "p1"))
    assert s.players["p1"].cash == 500 and 3 not in s.owners


def test_timeout_debt_sells_the_cheapest_first() -> None:
    s = table(
        {"A": at(36, cash=0), "B": at(0)},
        owners={39: ("B", 1), 1: ("A", 2), 29: ("A", 1), 5: ("A", 0), 3: ("A", 0)},
    )
    roll(s, "A", 1, 2)
    assert s.phase == "debt"
    sold = []
    while s.phase == "debt":
        action = GAME.on_timeout(s, "A")
        sold.append((action["pos"], action["what"]))
        GAME.apply(s, "A", action)
    # tops by sale value (1's building 3, then its villa 1, then 29's villa 7), then lands by
    # price, the tie of 1 and 3 (both 6) going to the lower square: 3+1+7 + 3+3+10 = 27 >= 24
    assert sold == [(1, "top"), (1, "top"), (29, "top"), (1, "all"), (3, "all"), (5, "all")]
    assert s.players["A"].cash == 3 and s.owners[29].owner == "A"


def test_timeout_turn_start_rolls_and_space_travel_goes_to_start() -> None:
    s = table(
        {"p1": at(10, islandLeft=2), "p2": at(30, spacePending=True)}, options={"islandFee": 10}
    )
    assert GAME.on_timeout(s, "p1") == {"type": "ROLL"}
    s.current = 1
    assert GAME.on_timeout(s, "p2") == {"type": "SPACE_TRAVEL", "dest": 0}
    events = GAME.apply(s, "p2", GAME.on_timeout(s, "p2"))
    assert of_kind(events, "salary") and s.players["p2"].pos == 0


def test_pending_seconds_follow_turn_seconds_and_null_means_no_limit() -> None:
    s = table({"p1": at(0), "p2": at(0)}, options={"turnSeconds": 60})
    assert GAME.pending(s) == [Pending("p1", "turnStart", 60)]
    s = table({"p1": at(0), "p2": at(0)}, options={"turnSeconds": None})
    assert GAME.pending(s) == [Pending("p1", "turnStart", None)]
    assert GAME.to_json(s)["deadlineAt"] is None


def test_disconnected_player_turns_run_by_timeout_and_tolls_still_received() -> None:
    state, _ = GAME.start({}, ["on", "off"], seed=11)
    state.owners.clear()
    from jokeapp.games.marble.state import Deed

    for pos in (
        1,
        3,
        4,
        6,
        8,
        9,
        11,
        13,
        14,
        16,
        18,
        19,
        21,
        23,
        24,
        26,
        27,
        29,
        31,
        32,
        34,
        36,
        37,
        39,
    ):
        state.owners[pos] = Deed("off", 0)
    rng = bot_rng(11)
    tolls = 0
    for _ in range(200):
        if GAME.is_over(state):
            break
        who = GAME.pending(state)[0].player
        action = (
            GAME.on_timeout(state, who) if who == "off" else ask(GAME, "heuristic", state, who, rng)
        )
        events = GAME.apply(state, who, action)
        tolls += sum(
            e["amount"] for e in of_kind(events, "tollPaid") if e["to"] == "off" and not e["waived"]
        )
        if who == "off":
            assert action["type"] in ("ROLL", "PASS", "SPACE_TRAVEL", "SELL")
    assert tolls > 0


def test_no_deck_order_or_rng_in_views_or_events() -> None:
    for seed in range(5):
        state, setup_events = GAME.start({"trade": True, "takeover": True}, ["a", "b", "c"], seed)
        assert setup_events == []
        rng = bot_rng(seed)
        while not GAME.is_over(state):
            who = GAME.pending(state)[0].player
            events = GAME.apply(state, who, ask(GAME, "random", state, who, rng))
            for viewer in (None, "a", "b", "c"):
                assert_nothing_hidden_leaks(state, GAME.view(state, viewer))
            assert_nothing_hidden_leaks(state, events)
            assert all(GAME.redact_event(e, "a") == e for e in events)


def test_card_id_is_public_only_once_drawn() -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with("L05"))
    seen = json.dumps([GAME.view(s, v) for v in (None, "p1", "p2")])
    assert "L05" not in seen and GAME.view(s, None)["deckCount"] == 20
    events = roll(s, "p1", 1, 1)
    assert {"type": "cardDrawn", "player": "p1", "cardId": "L05"} in events


def test_replay_same_seed_and_actions_give_the_same_final_assets() -> None:
    options = {"takeover": True, "trade": True, "maxRounds": 15}
    players = ["a", "b", "c", "d"]
    state, _ = GAME.start(options, players, 99)
    rng = bot_rng(99)
    log = []
    while not GAME.is_over(state):
        who = GAME.pending(state)[0].player
        action = ask(GAME, "random", state, who, rng)
        GAME.apply(state, who, action)
        log.append((who, action))
    again = replay(GAME, options, players, 99, log)
    assert GAME.to_json(again) == GAME.to_json(state)
    assert [total_assets(again, p) for p in players] == [total_assets(state, p) for p in players]
