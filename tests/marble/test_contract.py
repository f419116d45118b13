"""The Game contract around the rules: options, players, setup, malformed actions, CONCEDE,
views with previews, legal actions."""

from typing import Any

import pytest

from jokeapp.core.errors import IllegalAction, InvalidOptions
from jokeapp.core.options import options_json
from jokeapp.core.rng import Rng
from jokeapp.games import get_game
from jokeapp.games.marble.data import CARD_IDS

from .helpers import GAME, act, at, deck_with, kinds, of_kind, roll, table


def test_get_game_returns_marble_with_its_bots() -> None:
    game = get_game("marble")
    assert game.id == "marble" and game.title == "세계 여행 땅따먹기"
    assert (game.min_players, game.max_players) == (2, 4)
    assert list(game.bots) == ["random", "easy", "normal", "hard"]
    assert "heuristic" in game.bots and game.bots["heuristic"] is game.bots["normal"]


def test_options_defaults_follow_section_2() -> None:
    state = GAME.setup({}, ["a", "b"], seed=1)
    assert options_json(state.options) == {
        "startMoney": 300,
        "salary": 20,
        "maxRounds": 20,
        "buildOnPurchase": False,
        "islandTurns": 3,
        "islandFee": 0,
        "takeover": False,
        "landmark": False,
        "monopolyWin": False,
        "trade": False,
        "turnSeconds": 30,
    }
    assert all(spec.label for spec in GAME.options)


@pytest.mark.parametrize(
    ("options", "code", "named"),
    [
        ({"startMony": 300}, "unknown_option", "startMony"),
        ({"salary": 25}, "invalid_option_value", "10, 20, 30"),
        ({"trade": 1}, "invalid_option_value", "trade"),
        ({"turnSeconds": 45}, "invalid_option_value", "null"),
    ],
)
def test_invalid_options_name_the_key_and_the_choices(
    options: dict[str, object], code: str, named: str
) -> None:
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(options, ["a", "b"], seed=1)
    assert err.value.code == code and named in err.value.message


@pytest.mark.parametrize(
    "players", [["a"], ["a", "b", "c", "d", "e"], ["a", "a"], ["a", "bank"], []]
)
def test_player_count_and_ids_are_checked(players: list[str]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.setup({}, players, seed=1)


def test_setup_shuffles_order_then_deck_with_the_game_rng() -> None:
    state, events = GAME.start({"startMoney": 500}, ["a", "b", "c", "d"], seed=42)
    rng = Rng.from_seed(42)
    order = ["a", "b", "c", "d"]
    rng.shuffle(order)
    deck = list(CARD_IDS)
    rng.shuffle(deck)
    assert state.order == order and state.deck == deck and events == []
    assert state.rng.state == rng.state
    assert all(p.cash == 500 and p.pos == 0 for p in state.players.values())
    assert (
        state.round == 1 and state.fund == 0 and state.owners == {} and state.phase == "turnStart"
    )


def test_illegal_actions_are_refused_with_korean_messages() -> None:
    s = table({"p1": at(0), "p2": at(0)})
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("p2", {"type": "ROLL"}, "not_your_turn"),
        ("p1", {"type": "BUY"}, "wrong_phase"),
        ("p1", {"type": "SELL", "pos": 1, "what": "top"}, "not_in_debt"),
        ("zz", {"type": "ROLL"}, "not_a_player"),
        ("p1", {"type": "ROLL", "n": 1}, "malformed_action"),
        ("p1", {"type": "USE_ESCAPE_CARD"}, "not_on_island"),
        ("p1", {"type": "SPACE_TRAVEL", "dest": 5}, "not_space_travel"),
        ("p2", {"type": "TRADE_RESPOND", "accept": True}, "not_asked"),
    ]
    before = GAME.to_json(s)
    for actor, action, code in cases:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(s, actor, action)
        assert err.value.code == code
        assert err.value.message and all(
            ord(ch) < 0x3000 or 0xAC00 <= ord(ch) <= 0xD7A3 for ch in err.value.message
        )
    assert GAME.to_json(s) == before


def test_bankrupt_player_cannot_act_and_finished_game_refuses_everything() -> None:
    s = table({"p1": at(0), "p2": at(0, cash=0, alive=False), "p3": at(0)}, eliminated=["p2"])
    with pytest.raises(IllegalAction) as err:
        act(s, "p2", "CONCEDE")
    assert err.value.code == "out_of_game"
    act(s, "p3", "CONCEDE")
    assert GAME.is_over(s) and GAME.pending(s) == []
    with pytest.raises(IllegalAction) as err:
        act(s, "p1", "ROLL")
    assert err.value.code == "game_over"


def test_concede_is_bankruptcy_to_the_bank_and_the_turn_moves_on() -> None:
    s = table({"p1": at(0), "p2": at(0), "p3": at(0)}, owners={1: ("p1", 1)}, deck=deck_with("L11"))
    s.deck.remove("L12")
    s.players["p1"].held_cards.append("L12")
    events = act(s, "p1", "CONCEDE")
    assert of_kind(events, "bankrupt") == [
        {"type": "bankrupt", "player": "p1", "creditor": "bank", "amount": 304}
    ]
    assert 1 not in s.owners and s.deck[-1] == "L12" and s.current_player == "p2"
    result_events = act(s, "p2", "CONCEDE")
    assert kinds(result_events)[-1] == "gameOver"
    result = GAME.result(s)
    assert result is not None and result["reason"] == "lastSurvivor" and result["winners"] == ["p3"]
    assert [e["player"] for e in result["ranking"]] == ["p3", "p2", "p1"]


def test_concede_of_the_creditor_during_a_debt_cancels_it() -> None:
    s = table({"A": at(36, cash=70), "B": at(0), "C": at(0)}, owners={39: ("B", 3), 26: ("A", 2)})
    roll(s, "A", 1, 2)
    assert s.phase == "debt"
    act(s, "B", "CONCEDE")
    assert s.debt is None and s.current_player == "C" and s.players["A"].cash == 70


def test_concede_of_the_debtor_ends_the_turn() -> None:
    s = table({"A": at(36, cash=70), "B": at(0), "C": at(0)}, owners={39: ("B", 3), 26: ("A", 2)})
    roll(s, "A", 1, 2)
    events = act(s, "A", "CONCEDE")
    assert of_kind(events, "bankrupt")[0]["creditor"] == "bank"
    assert s.current_player == "B" and s.phase == "turnStart" and s.players["B"].cash == 300


def test_concede_of_the_trade_partner_cancels_the_proposal() -> None:
    s = table({"p1": at(0), "p2": at(0), "p3": at(0)}, options={"trade": True})
    act(
        s,
        "p1",
        "PROPOSE_TRADE",
        to="p2",
        give={"lands": [], "cash": 5},
        take={"lands": [], "cash": 0},
    )
    events = act(s, "p2", "CONCEDE")
    assert events[0]["type"] == "tradeResolved" and events[0]["accepted"] is False
    assert s.phase == "turnStart" and s.current_player == "p1" and s.pending_trade is None


def test_view_shows_choices_with_cash_after_to_the_decider_only() -> None:
    s = table({"p1": at(36, cash=30), "p2": at(0)})
    roll(s, "p1", 1, 2)
    mine = GAME.view(s, "p1")
    assert mine["choices"] == [
        {"type": "BUY", "cost": 40, "cashAfter": -10, "affordable": False},
        {"type": "PASS", "cost": 0, "cashAfter": 30, "affordable": True},
    ]
    assert "choices" not in GAME.view(s, "p2") and "choices" not in GAME.view(s, None)
    public = GAME.view(s, None)
    assert public["decision"]["pos"] == 39 and public["deckCount"] == 20 and public["owners"] == {}
    assert public["players"]["p1"]["cash"] == 30


def test_view_shows_sale_candidates_and_shortfall_to_the_debtor_only() -> None:
    s = table({"A": at(36, cash=70), "B": at(0)}, owners={39: ("B", 3), 26: ("A", 2), 16: ("A", 0)})
    roll(s, "A", 1, 2)
    view = GAME.view(s, "A")
    assert view["shortfall"] == 30
    assert view["saleCandidates"] == [
        {"pos": 16, "what": "all", "amount": 9},
        {"pos": 26, "what": "top", "amount": 13},
        {"pos": 26, "what": "all", "amount": 32},
    ]
    assert "saleCandidates" not in GAME.view(s, "B")
    assert (
        view["debt"]["to"] == {"kind": "player", "id": "B"}
        and view["debt"]["then"] == "continueTurn"
    )


def test_island_choices_in_legal_actions() -> None:
    s = table(
        {"p1": at(10, islandLeft=2, heldCards=["L11"]), "p2": at(0)}, options={"islandFee": 20}
    )
    assert GAME.legal_actions(s, "p1") == [
        {"type": "ROLL"},
        {"type": "USE_ESCAPE_CARD"},
        {"type": "PAY_ISLAND_FEE"},
    ]
    assert GAME.legal_actions(s, "p2") == []


def test_space_invitation_card_from_33_passes_start_with_salary() -> None:
    s = table({"p1": at(31), "p2": at(0)}, deck=deck_with("L14"))
    events = roll(s, "p1", 1, 1)
    assert s.players["p1"].pos == 30 and s.players["p1"].space_pending
    assert len(of_kind(events, "salary")) == 1 and s.current_player == "p2"


def test_json_round_trip_uses_the_spec_shape() -> None:
    s = table({"p1": at(0), "p2": at(3)}, owners={39: ("p2", 3)})
    data = GAME.to_json(s)
    assert data["owners"] == {"39": {"owner": "p2", "level": 3}}
    assert data["players"]["p2"] == {
        "pos": 3,
        "cash": 300,
        "alive": True,
        "bankruptAtRound": None,
        "islandLeft": 0,
        "spacePending": False,
        "heldCards": [],
    }
    assert data["rng"]["algorithm"] == "sfc32" and data["deadlineAt"] is None
    for key in (
        "doublesThisTurn",
        "cardsThisTurn",
        "pendingTrade",
        "tradesThisTurn",
        "extraRoll",
        "lastRoll",
        "turnSeq",
    ):
        assert key in data
    assert GAME.to_json(GAME.from_json(data)) == data


@pytest.mark.pure_engines  # patches or subclasses an engine module
def test_from_json_builds_the_default_deck_only_when_the_deck_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bots rebuild a state from every view with the deck given: the default must not be built
    from jokeapp.games.marble import serial

    data = GAME.to_json(table({"p1": at(0), "p2": at(3)}))
    built: list[int] = []
    real = serial._default_deck

    def counting_deck(players: Any) -> Any:
        built.append(1)
        return real(players)

    monkeypatch.setattr(serial, "_default_deck", counting_deck)
    assert GAME.to_json(GAME.from_json(data)) == data and built == []
    del data["deck"]
    assert GAME.from_json(data).deck == list(CARD_IDS) and built == [1]


def test_view_previews_space_travel_for_the_traveller() -> None:
    s = table(
        {"p1": at(30, spacePending=True), "p2": at(0)},
        owners={25: ("p2", 0), 39: ("p2", 3), 5: ("p1", 0)},
    )
    preview = GAME.view(s, "p1")["spaceTravel"]
    assert preview["fee"] == 20 and preview["to"] == "p2" and len(preview["destinations"]) == 39
    by_dest = {d["dest"]: d for d in preview["destinations"]}
    assert by_dest[39] == {"dest": 39, "salary": False, "toll": 100}
    assert by_dest[5] == {"dest": 5, "salary": True, "toll": 0}
    assert "spaceTravel" not in GAME.view(s, "p2")


def test_heuristic_bot_wins_more_than_random_bots() -> None:
    from collections import Counter

    from jokeapp.sim.play import play_recorded

    wins: Counter[str] = Counter()
    for seed in range(60):
        bots = {"h": GAME.bots["normal"], "r1": GAME.bots["random"], "r2": GAME.bots["random"]}
        played = play_recorded(GAME, {}, list(bots), seed, bots)
        wins.update(played.record["result"]["winners"])
    assert wins["h"] > wins["r1"] + wins["r2"]


def test_concede_of_the_spaceport_owner_during_the_fare_debt_makes_the_trip_free() -> None:
    s = table(
        {"p1": at(30, cash=10, spacePending=True), "p2": at(0), "p3": at(0)},
        owners={25: ("p2", 0), 1: ("p1", 0), 3: ("p1", 0), 4: ("p1", 0), 6: ("p1", 0)},
    )
    act(s, "p1", "SPACE_TRAVEL", dest=39)
    assert s.phase == "debt"
    events = act(s, "p2", "CONCEDE")
    assert {"type": "spaceTravel", "player": "p1", "dest": 39, "fee": 0, "to": None} in events
    assert s.players["p1"].pos == 39 and s.players["p1"].cash == 10 and s.phase == "decide"


def test_concede_of_the_owner_during_a_takeover_decision_ends_the_visit() -> None:
    s = table(
        {"p1": at(11), "p2": at(0), "p3": at(0)}, owners={14: ("p2", 1)}, options={"takeover": True}
    )
    roll(s, "p1", 1, 2)
    assert s.decision is not None and s.decision.can_takeover == 48
    act(s, "p2", "CONCEDE")
    assert 14 not in s.owners and s.decision is None and s.current_player == "p3"
