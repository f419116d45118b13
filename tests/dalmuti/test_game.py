"""The contract around the rules: options, players, actions' shape, views, legal actions."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jokeapp.core.errors import IllegalAction, InvalidOptions
from jokeapp.core.rng import Rng
from jokeapp.games import get_game
from jokeapp.games.dalmuti.data import CARD_NAMES, rank_title
from tests.botask import ask
from tests.dalmuti.helpers import FIVE, GAME, J1, J2, card, cards, hand_ids, position, top

TRADEMARKS = ("달무티", "부루마불", "모두의마블", "Monopoly", "황금열쇠")


def test_registered_with_its_display_name() -> None:
    game = get_game("dalmuti")
    assert game is GAME
    assert (game.id, game.title, game.min_players, game.max_players) == (
        "dalmuti",
        "신분 카드 게임",
        4,
        8,
    )
    assert list(game.bots) == ["random", "easy", "normal", "hard"]
    assert game.bots["heuristic"] is game.bots["normal"]  # the old name, kept for stored rooms


def test_options_table_and_defaults() -> None:
    state = GAME.setup({}, FIVE, seed=1)
    assert GAME.to_json(state)["options"] == {
        "rounds": 3,
        "scoring": "rank-points",
        "firstRanking": "draw",
        "revolution": True,
        "jesterTaxable": False,
        "passLocksOut": False,
        "removeHighCards": False,
        "turnSeconds": 20,
    }
    choices = {spec.key: spec.choices for spec in GAME.options}
    assert choices["rounds"] == (1, 3, 5, 7) and choices["turnSeconds"] == (15, 20, 30, 45)
    assert all(spec.label and not spec.label.isascii() for spec in GAME.options)


@pytest.mark.parametrize(
    "given", [{"rounds": 2}, {"revolution": "on"}, {"scoring": "points"}, {"speed": 1}]
)
def test_bad_options_are_refused(given: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.start(given, FIVE, seed=1)


@pytest.mark.parametrize("count", [3, 9])
def test_only_four_to_eight_players(count: int) -> None:
    with pytest.raises(InvalidOptions) as err:
        GAME.start({}, [f"p{i}" for i in range(count)], seed=1)
    assert err.value.code == "invalid_player_count" and "4~8명" in err.value.message
    with pytest.raises(InvalidOptions):
        GAME.start({}, ["a", "a", "b", "c"], seed=1)


def test_setup_events_are_the_draw_and_the_deal() -> None:
    state, events = GAME.start({}, FIVE, seed=21)
    assert [e["type"] for e in events] == ["firstRankDraw", "dealt"]
    assert events[0]["order"] == GAME.to_json(state)["order"]
    assert set(events[1]) == {"type", "counts"}


def test_no_trademark_in_any_player_facing_text() -> None:
    texts: list[str] = [GAME.title, *CARD_NAMES.values(), *(s.label for s in GAME.options)]
    texts += [rank_title(place, 8) for place in range(8)]
    state, events = GAME.start({"rounds": 1}, FIVE, seed=5)
    rng = Rng.from_seed(5)
    while not GAME.is_over(state):
        player = GAME.pending(state)[0].player
        texts.append(json.dumps(GAME.view(state, player), ensure_ascii=False))
        for bad in (
            {"type": "pass"},
            {"type": "play", "cardIds": ["01-01", "01-01"]},
            {"type": "x"},
        ):
            try:
                GAME.apply(GAME.from_json(GAME.to_json(state)), "e", bad)
            except IllegalAction as err:
                texts.append(err.message)
        events += GAME.apply(state, player, ask(GAME, "random", state, player, rng))
    texts.append(json.dumps([events, GAME.result(state)], ensure_ascii=False))
    for text in texts:
        assert not any(mark in text for mark in TRADEMARKS), text


@pytest.mark.parametrize(
    "action",
    [
        "pass",
        ["play"],
        {},
        {"type": "dance"},
        {"type": "pass", "cardIds": []},
        {"type": "play"},
        {"type": "play", "cardIds": "09-01"},
        {"type": "play", "cardIds": [9]},
        {"type": "play", "cardIds": []},
        {"type": "confirmHand"},
        {"type": "returnTax", "cardIds": ["09-01"]},
    ],
)
def test_malformed_or_misplaced_actions_are_refused_without_change(action: Any) -> None:
    state = position({p: cards(9, 5) for p in FIVE}, current="a")
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", action)
    assert err.value.message and GAME.to_json(state) == before


def test_confirm_with_non_boolean_flag_is_malformed() -> None:
    state = position(
        {p: cards(9) for p in FIVE},
        phase={"kind": "revolutionCheck", "confirmed": dict.fromkeys(FIVE, False)},
    )
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", {"type": "confirmHand", "declareRevolution": 1})
    assert err.value.code == "malformed_action"


def test_nothing_is_accepted_after_the_game_is_over() -> None:
    state = position(
        {p: cards(9) for p in FIVE}, phase={"kind": "finished"}, roundResults=[{"order": FIVE}]
    )
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", {"type": "play", "cardIds": cards(9)})
    assert err.value.code == "game_over"
    assert GAME.pending(state) == [] and GAME.legal_actions(state, "a") == []
    with pytest.raises(IllegalAction):
        GAME.on_timeout(state, "a")


def test_view_shows_own_hand_counts_trick_and_turn() -> None:
    hands = {
        "a": cards(12, 12),
        "b": [*cards(4, 6), J1],
        "c": cards(11),
        "d": cards(10),
        "e": cards(9, 9),
    }
    state = position(hands, trick=top("a", card(12, 3), rank=12), current="b")
    seen = GAME.view(state, "b")
    assert seen["hand"] == [{"id": card(4), "n": 4}, {"id": card(6), "n": 6}, {"id": J1, "n": 13}]
    assert seen["handCounts"] == {"a": 2, "b": 3, "c": 1, "d": 1, "e": 2}
    assert seen["current"] == "b" and seen["phase"] == {"kind": "playing"}
    assert seen["trick"]["top"] == {"cardIds": [card(12, 3)], "count": 1, "rank": 12, "by": "a"}
    assert seen["titles"]["a"] == "대왕" and seen["titles"]["e"] == "대농노"
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None and spectator["viewer"] is None
    assert GAME.view(state, "stranger")["hand"] is None


def test_legal_actions_on_a_follow_list_every_distinct_answer_and_pass() -> None:
    hands = {
        "a": cards(12),
        "b": [*cards(4, 4, 6, 9), J1],
        "c": cards(11),
        "d": cards(10),
        "e": cards(9),
    }
    state = position(hands, trick=top("a", *cards(8, 8), rank=8), current="b")
    listed = GAME.legal_actions(state, "b")
    assert {"type": "pass"} in listed
    plays = sorted(sorted(a["cardIds"]) for a in listed if a["type"] == "play")
    assert plays == sorted([sorted(cards(4, 4)), sorted([card(4), J1]), sorted([card(6), J1])])
    assert GAME.legal_actions(state, "c") == []


def test_legal_actions_on_a_lead_and_in_the_check_phases() -> None:
    hands = {
        "a": [*cards(3, 3), J1, J2],
        "b": cards(12),
        "c": cards(11),
        "d": cards(10),
        "e": cards(9),
    }
    state = position(hands, current="a")
    listed = GAME.legal_actions(state, "a")
    # 3x1, 3x2, each with 0..2 jesters, and 1 or 2 jesters alone; no pass on a lead
    assert len(listed) == 2 * 3 + 2 and {"type": "pass"} not in listed
    check = position(
        hands, phase={"kind": "revolutionCheck", "confirmed": dict.fromkeys(hands, False)}
    )
    assert GAME.legal_actions(check, "a") == [
        {"type": "confirmHand", "declareRevolution": False},
        {"type": "confirmHand", "declareRevolution": True},
    ]
    assert GAME.legal_actions(check, "b") == [{"type": "confirmHand", "declareRevolution": False}]


def test_legal_tax_returns_one_per_multiset_of_numbers() -> None:
    hands = {"a": cards(1, 5, 5, 9), "b": cards(12), "c": cards(11), "d": cards(10), "e": cards(9)}
    owed = {"a": {"to": "e", "count": 2, "done": False}, "b": {"to": "d", "count": 1, "done": True}}
    state = position(hands, phase={"kind": "taxReturn", "owed": owed})
    listed = GAME.legal_actions(state, "a")
    numbers = sorted(tuple(int(i[:2]) for i in a["cardIds"]) for a in listed)
    assert numbers == [(1, 5), (1, 9), (5, 5), (5, 9)]
    assert GAME.legal_actions(state, "b") == [] and GAME.legal_actions(state, "e") == []


def test_from_json_reads_the_spec_shape_and_round_trips() -> None:
    state = position(
        {"a": [{"id": card(5), "n": 5}], "b": [card(7)], "c": [], "d": [J2], "e": []},
        trick=top("b", card(9), rank=9),
        current="c",
    )
    data = GAME.to_json(state)
    assert data["hands"]["a"] == [{"id": card(5), "n": 5}]
    assert GAME.to_json(GAME.from_json(data)) == data
    with pytest.raises(ValueError):
        GAME.from_json({**data, "hands": {"a": [{"id": card(5), "n": 6}]}})
    with pytest.raises(ValueError):
        GAME.from_json({**data, "phase": {"kind": "lunch"}})


def test_seq_counts_accepted_actions_only() -> None:
    state = position({p: cards(9, 5) for p in FIVE}, current="a")
    GAME.apply(state, "a", {"type": "play", "cardIds": cards(9)})
    with pytest.raises(IllegalAction):
        GAME.apply(state, "b", {"type": "pass", "x": 1})
    assert GAME.to_json(state)["seq"] == 1
    assert hand_ids(state, "a") == cards(5)
