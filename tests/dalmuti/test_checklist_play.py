"""Spec section 10, play half: sets, jesters, tricks, rounds, scores, timeouts, leaks."""

from __future__ import annotations

from jokeapp.games.dalmuti.state import DalmutiState
from tests.dalmuti.helpers import FIVE, GAME, J1, J2, card, cards, hand_ids, ids_in, position
from tests.dalmuti.positions import (
    NINE_THREE,
    follow_position,
    rejected,
    return_position,
    revolution_position,
)

# --- 따라 내기 -----------------------------------------------------------------------------


def test_follow_9x3_rejects_8x2_count_differs() -> None:
    state = follow_position(*NINE_THREE, rank=9, hand=cards(8, 8, 8, 4, 4))
    err = rejected(state, "b", {"type": "play", "cardIds": cards(8, 8)}, "wrong_count")
    assert err.message == "앞사람과 같은 장수(3장)로 내야 해요."


def test_follow_9x3_rejects_9x3_same_number() -> None:
    state = follow_position(*NINE_THREE, rank=9, hand=[card(9, 4), card(9, 5), card(9, 6), card(4)])
    err = rejected(
        state, "b", {"type": "play", "cardIds": [card(9, 4), card(9, 5), card(9, 6)]}, "not_lower"
    )
    assert err.message == "더 낮은 숫자만 낼 수 있어요."


def test_follow_4_4_jester_allowed() -> None:
    state = follow_position(*NINE_THREE, rank=9, hand=[*cards(4, 4, 6), J1])
    events = GAME.apply(state, "b", {"type": "play", "cardIds": [*cards(4, 4), J1]})
    assert events[0] == {
        "type": "played",
        "player": "b",
        "cardIds": [*cards(4, 4), J1],
        "count": 3,
        "rank": 4,
    }


def test_follow_two_jesters_and_1_allowed_as_1x3() -> None:
    state = follow_position(*NINE_THREE, rank=9, hand=[card(1), card(6), J1, J2])
    events = GAME.apply(state, "b", {"type": "play", "cardIds": [J1, card(1), J2]})
    assert events[0]["count"] == 3 and events[0]["rank"] == 1


def test_follow_mixed_numbers_rejected() -> None:
    state = follow_position(*NINE_THREE, rank=9, hand=[*cards(4, 4, 5), J1])
    err = rejected(state, "b", {"type": "play", "cardIds": cards(4, 4, 5)}, "mixed_numbers")
    assert err.message == "같은 숫자끼리만 낼 수 있어요."


# --- 광대 단독 -----------------------------------------------------------------------------


def test_lone_jester_on_12_rejected() -> None:
    state = follow_position(card(12, 3), rank=12, hand=[J1, card(11)])
    rejected(state, "b", {"type": "play", "cardIds": [J1]}, "not_lower")


def test_lead_lone_jester_is_13_and_any_single_beats_it() -> None:
    hands = {"a": [J1, card(5)], "b": cards(12, 12), "c": cards(11), "d": cards(10), "e": cards(9)}
    state = position(hands, current="a")
    events = GAME.apply(state, "a", {"type": "play", "cardIds": [J1]})
    assert events[0]["rank"] == 13 and events[0]["count"] == 1
    GAME.apply(state, "b", {"type": "play", "cardIds": [card(12)]})
    assert GAME.to_json(state)["trick"]["top"]["rank"] == 12


def test_lead_two_jesters_alone_are_13x2() -> None:
    hands = {
        "a": [J1, J2, card(5)],
        "b": cards(12, 12),
        "c": cards(11),
        "d": cards(10),
        "e": cards(9),
    }
    state = position(hands, current="a")
    events = GAME.apply(state, "a", {"type": "play", "cardIds": [J1, J2]})
    assert (events[0]["count"], events[0]["rank"]) == (2, 13)


# --- 트릭 종료 -----------------------------------------------------------------------------


def test_trick_ends_when_all_but_the_last_player_pass_and_they_lead() -> None:
    # spec 5.3: A 7x2, B 5x2, C pass, D 2+jester, E pass, A pass, B pass, C pass -> D leads
    hands = {
        "A": cards(7, 7, 1, 9),
        "B": cards(5, 5, 10),
        "C": cards(6, 11),
        "D": [card(2), J1, card(12)],
        "E": cards(8, 8),
    }
    state = position(hands, current="A")
    discarded = len(GAME.to_json(state)["discard"])  # the cards nobody holds went out before
    GAME.apply(state, "A", {"type": "play", "cardIds": cards(7, 7)})
    GAME.apply(state, "B", {"type": "play", "cardIds": cards(5, 5)})
    GAME.apply(state, "C", {"type": "pass"})
    GAME.apply(state, "D", {"type": "play", "cardIds": [card(2), J1]})
    for player in ["E", "A", "B"]:
        assert GAME.apply(state, player, {"type": "pass"}) == [{"type": "passed", "player": player}]
    events = GAME.apply(state, "C", {"type": "pass"})
    assert events[-1] == {"type": "trickWon", "player": "D", "next": "D"}
    data = GAME.to_json(state)
    assert data["current"] == "D" and data["trick"]["top"] is None and data["trick"]["pile"] == []
    assert len(data["discard"]) == discarded + 6
    rejected(state, "D", {"type": "pass"}, "cannot_pass_lead")


def test_trick_after_last_set_emptied_hand_next_player_leads() -> None:
    hands = {"a": cards(3), "b": cards(12, 12), "c": cards(11), "d": cards(10), "e": cards(9)}
    state = position(hands, current="a")
    events = GAME.apply(state, "a", {"type": "play", "cardIds": cards(3)})
    assert events[1] == {"type": "handEmptied", "player": "a", "place": 1}
    for player in ["b", "c", "d"]:
        GAME.apply(state, player, {"type": "pass"})
    events = GAME.apply(state, "e", {"type": "pass"})
    assert events[-1] == {"type": "trickWon", "player": "a", "next": "b"}
    assert GAME.to_json(state)["current"] == "b"


def test_trick_after_last_set_emptied_hand_the_next_seat_after_that_player_leads() -> None:
    # c (the middle rank) goes out with the trick's last set: d, the seat after c, leads,
    # not a, the first seat in rank order, who still has cards
    hands = {
        "a": cards(9, 12),
        "b": cards(12, 12),
        "c": cards(4),
        "d": cards(10, 11),
        "e": cards(8, 11),
    }
    state = position(hands, current="a")
    GAME.apply(state, "a", {"type": "play", "cardIds": cards(9)})
    GAME.apply(state, "b", {"type": "pass"})
    GAME.apply(state, "c", {"type": "play", "cardIds": cards(4)})
    for player in ["d", "e", "a"]:
        GAME.apply(state, player, {"type": "pass"})
    events = GAME.apply(state, "b", {"type": "pass"})
    assert events[-1] == {"type": "trickWon", "player": "c", "next": "d"}
    assert GAME.to_json(state)["current"] == "d" and GAME.pending(state)[0].player == "d"


def test_trick_after_last_set_emptied_hand_the_next_seat_is_in_turn_order_after_a_great_revolution() -> (
    None
):
    # turned order e, d, c, b, a: after d comes c (out already), then b
    hands = {"a": cards(12), "b": cards(10, 11), "c": [], "d": cards(3), "e": cards(9, 12)}
    state = position(
        hands, order=["e", "d", "c", "b", "a"], current="e", finishOrder=["c"], revolution="great"
    )
    GAME.apply(state, "e", {"type": "play", "cardIds": cards(9)})
    GAME.apply(state, "d", {"type": "play", "cardIds": cards(3)})
    for player in ["b", "a"]:
        GAME.apply(state, player, {"type": "pass"})
    events = GAME.apply(state, "e", {"type": "pass"})
    assert events[-1] == {"type": "trickWon", "player": "d", "next": "b"}


def test_trick_after_last_set_emptied_hand_the_others_may_still_answer() -> None:
    hands = {"a": cards(9), "b": cards(12, 12), "c": cards(5, 11), "d": cards(10), "e": cards(8)}
    state = position(hands, current="a")
    GAME.apply(state, "a", {"type": "play", "cardIds": cards(9)})
    GAME.apply(state, "b", {"type": "pass"})
    GAME.apply(state, "c", {"type": "play", "cardIds": cards(5)})
    for player in ["d", "e"]:
        GAME.apply(state, player, {"type": "pass"})
    events = GAME.apply(state, "b", {"type": "pass"})  # a is out and skipped
    assert events[-1] == {"type": "trickWon", "player": "c", "next": "c"}


def test_rejection_messages_for_passing_a_lead() -> None:
    state = position({p: cards(9) for p in FIVE}, current="a")
    err = rejected(state, "a", {"type": "pass"}, "cannot_pass_lead")
    assert err.message == "새로 시작할 때는 패스할 수 없어요."


# --- passLocksOut -----------------------------------------------------------------------


def lockout_position(locks: bool) -> DalmutiState:
    hands = {
        "a": cards(10, 10, 12),
        "b": cards(9, 4, 12),
        "c": cards(8, 11),
        "d": cards(11, 11),
        "e": cards(12, 12),
    }
    state = position(hands, options={"passLocksOut": locks}, current="a")
    GAME.apply(state, "a", {"type": "play", "cardIds": cards(10)})
    GAME.apply(state, "b", {"type": "pass"})
    GAME.apply(state, "c", {"type": "play", "cardIds": cards(8)})
    GAME.apply(state, "d", {"type": "pass"})
    GAME.apply(state, "e", {"type": "pass"})
    GAME.apply(state, "a", {"type": "pass"})
    return state


def test_pass_locks_out_off_passer_may_play_again() -> None:
    state = lockout_position(False)
    assert GAME.to_json(state)["current"] == "b"
    GAME.apply(state, "b", {"type": "play", "cardIds": cards(4)})
    assert GAME.to_json(state)["trick"]["top"]["by"] == "b"


def test_pass_locks_out_on_passer_is_skipped() -> None:
    state = lockout_position(True)
    # b, d, e and a all passed once: c's 8 wins the trick without b getting another turn
    data = GAME.to_json(state)
    assert data["current"] == "c" and data["trick"]["top"] is None


def test_pass_locks_out_on_skips_the_passer_within_the_trick() -> None:
    hands = {
        "a": cards(10, 12),
        "b": cards(9, 4, 12),
        "c": cards(8, 11),
        "d": cards(7, 11),
        "e": cards(12, 12),
    }
    state = position(hands, options={"passLocksOut": True}, current="a")
    GAME.apply(state, "a", {"type": "play", "cardIds": cards(10)})
    GAME.apply(state, "b", {"type": "pass"})
    GAME.apply(state, "c", {"type": "play", "cardIds": cards(8)})
    GAME.apply(state, "d", {"type": "play", "cardIds": cards(7)})
    GAME.apply(state, "e", {"type": "pass"})
    assert GAME.to_json(state)["current"] == "a"
    GAME.apply(state, "a", {"type": "pass"})
    assert GAME.to_json(state)["current"] == "c"  # b is skipped
    assert GAME.to_json(state)["trick"]["lockedOut"] == ["b", "e", "a"]
    rejected(state, "b", {"type": "play", "cardIds": cards(4)}, "not_your_turn")


# --- 라운드 종료 ---------------------------------------------------------------------------


def test_round_ends_with_one_player_left_who_becomes_last_rank() -> None:
    hands = {"a": [], "b": [], "c": cards(4), "d": cards(11, 12), "e": []}
    state = position(hands, current="c", finishOrder=["e", "a", "b"], options={"rounds": 3})
    events = GAME.apply(state, "c", {"type": "play", "cardIds": cards(4)})
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["played", "handEmptied", "roundOver"]
    assert events[2] == {
        "type": "roundOver",
        "round": 1,
        "order": ["e", "a", "b", "c", "d"],
        "points": {"e": 4, "a": 3, "b": 2, "c": 1, "d": 0},
    }
    assert kinds[3] == "dealt"  # the next round is dealt in the same step


def test_next_round_order_is_the_finish_order() -> None:
    hands = {"a": [], "b": [], "c": cards(4), "d": cards(11, 12), "e": []}
    state = position(hands, current="c", finishOrder=["e", "a", "b"], options={"rounds": 3})
    GAME.apply(state, "c", {"type": "play", "cardIds": cards(4)})
    data = GAME.to_json(state)
    assert data["round"] == 2 and data["order"] == ["e", "a", "b", "c", "d"]
    assert data["phase"]["kind"] == "revolutionCheck" and data["finishOrder"] == []
    assert [len(data["hands"][p]) for p in data["order"]] == [16] * 5
    assert data["roundResults"] == [{"order": ["e", "a", "b", "c", "d"], "revolution": "none"}]


# --- 점수 -------------------------------------------------------------------------------


def last_round_position(scoring: str) -> DalmutiState:
    # rounds 1 and 2 already played; round 3 finishes e, b, a, then c, leaving d last
    hands = {"a": [], "b": [], "c": cards(4), "d": cards(11, 12), "e": []}
    return position(
        hands,
        options={"rounds": 3, "scoring": scoring},
        round=3,
        current="c",
        finishOrder=["e", "b", "a"],
        roundResults=[
            {"order": ["a", "b", "c", "d", "e"], "revolution": "none"},
            {"order": ["b", "a", "d", "c", "e"], "revolution": "none"},
        ],
        totals={"a": 7, "b": 7, "c": 3, "d": 3, "e": 0},
    )


def test_scoring_five_players_three_rounds_rank_points_and_last_round_tie_break() -> None:
    state = last_round_position("rank-points")
    events = GAME.apply(state, "c", {"type": "play", "cardIds": cards(4)})
    assert GAME.is_over(state) and events[-1]["type"] == "gameOver"
    result = GAME.result(state)
    assert events[-1]["result"] == result
    assert result is not None
    # totals: b 10, a 9, e 4 and c 4 (e was 1st in the last round, c 4th), d 3
    assert result["ranking"] == [
        {"player": "b", "rank": 1, "total": 10, "roundRanks": [2, 1, 2]},
        {"player": "a", "rank": 2, "total": 9, "roundRanks": [1, 2, 3]},
        {"player": "e", "rank": 3, "total": 4, "roundRanks": [5, 5, 1]},
        {"player": "c", "rank": 4, "total": 4, "roundRanks": [3, 4, 4]},
        {"player": "d", "rank": 5, "total": 3, "roundRanks": [4, 3, 5]},
    ]
    assert result["winner"] == ["b"]
    assert result["summary"] == "3라운드 동안 b 님이 10점으로 1등을 했어요!"
    assert GAME.view(state, None)["result"] == result and GAME.pending(state) == []


def test_scoring_last_round_mode_ranks_by_the_last_round() -> None:
    state = last_round_position("last-round")
    GAME.apply(state, "c", {"type": "play", "cardIds": cards(4)})
    result = GAME.result(state)
    assert result is not None
    assert [r["player"] for r in result["ranking"]] == ["e", "b", "a", "c", "d"]
    assert result["winner"] == ["e"] and "달무티" not in result["summary"]


# --- 시간 초과 -----------------------------------------------------------------------------


def test_timeout_lead_plays_all_of_the_highest_number() -> None:
    hands = {
        "a": [*cards(3, 7, 9, 9, 9), J1],
        "b": cards(12),
        "c": cards(11),
        "d": cards(10),
        "e": cards(8),
    }
    state = position(hands, current="a")
    assert GAME.on_timeout(state, "a") == {"type": "play", "cardIds": cards(9, 9, 9)}
    only_jesters = position({**hands, "a": [J1, J2]}, current="a")
    assert GAME.on_timeout(only_jesters, "a") == {"type": "play", "cardIds": [J1, J2]}


def test_timeout_follow_passes() -> None:
    state = follow_position(card(12, 3), rank=12, hand=cards(3, 5))
    assert GAME.on_timeout(state, "b") == {"type": "pass"}


def test_timeout_tax_return_gives_the_highest_number_cards() -> None:
    state = return_position()  # a holds 1, 3 (received) and 12, 12
    action = GAME.on_timeout(state, "a")
    assert sorted(action["cardIds"]) == cards(12, 12)
    GAME.apply(state, "a", action)


def test_timeout_tax_return_gives_the_highest_number_cards_never_a_jester_first() -> None:
    hands = {
        "a": [J1, *cards(1, 3, 6, 11)],  # a got 1 and 3 as tax; holds a jester and an 11
        "b": [J2, *cards(2, 8)],
        "c": cards(9),
        "d": cards(7, 12),
        "e": cards(4, 10),
    }
    owed = {
        "a": {"to": "e", "count": 2, "done": False},
        "b": {"to": "d", "count": 1, "done": False},
    }
    state = position(hands, phase={"kind": "taxReturn", "owed": owed})
    assert GAME.on_timeout(state, "a") == {"type": "returnTax", "cardIds": cards(11, 6)}
    assert GAME.on_timeout(state, "b") == {"type": "returnTax", "cardIds": cards(8)}
    GAME.apply(state, "a", GAME.on_timeout(state, "a"))
    assert hand_ids(state, "a") == [*cards(1, 3), J1] and hand_ids(state, "e") == cards(
        4, 6, 10, 11
    )
    # with fewer number cards than owed, jesters make up the rest (docs/rules-decisions.md)
    short = position({**hands, "a": [J1, J2, card(5)]}, phase={"kind": "taxReturn", "owed": owed})
    assert GAME.on_timeout(short, "a") == {"type": "returnTax", "cardIds": [card(5), J1]}


def test_timeout_revolution_check_confirms_without_declaring() -> None:
    state = revolution_position("c")
    assert GAME.on_timeout(state, "c") == {"type": "confirmHand", "declareRevolution": False}


def test_timeout_deadlines_per_phase() -> None:
    state = revolution_position("c")
    assert {(p.kind, p.seconds) for p in GAME.pending(state)} == {("confirmHand", 20)}
    assert len(GAME.pending(state)) == 5
    state = return_position()
    assert [(p.player, p.kind, p.seconds) for p in GAME.pending(state)] == [
        ("a", "returnTax", 30),
        ("b", "returnTax", 30),
    ]
    state = position({p: cards(9) for p in FIVE}, options={"turnSeconds": 45}, current="c")
    assert [(p.player, p.kind, p.seconds) for p in GAME.pending(state)] == [("c", "play", 45)]


# --- 정보 유출 -----------------------------------------------------------------------------


def test_no_leak_spectator_and_other_players_see_no_hands_or_tax_cards() -> None:
    state = return_position()
    hands = {p: set(hand_ids(state, p)) for p in FIVE}
    taxed = {"a": set(cards(1, 3)), "e": set(cards(1, 3)), "b": {card(8)}, "d": {card(8)}}
    for viewer in [*FIVE, None]:
        seen = GAME.view(state, viewer)
        visible = ids_in(seen)
        own = hands.get(viewer, set()) if viewer else set()
        assert visible <= own | taxed.get(viewer or "", set())
        assert "rng" not in seen and "hands" not in seen
        assert seen["handCounts"] == {p: len(hands[p]) for p in FIVE}
        for move in seen["tax"]:
            assert ("cardIds" in move) == (viewer in (move["from"], move["to"]))
    assert GAME.view(state, None)["hand"] is None
    paid = {"type": "taxPaid", "from": "e", "to": "a", "count": 2, "cardIds": cards(1, 3)}
    assert GAME.redact_event(paid, "c") == {"type": "taxPaid", "from": "e", "to": "a", "count": 2}
    assert GAME.redact_event(paid, None) == {"type": "taxPaid", "from": "e", "to": "a", "count": 2}
    assert GAME.redact_event(paid, "a") == paid and GAME.redact_event(paid, "e") == paid


# --- 거부되는 행동 -------------------------------------------------------------------------


def test_out_of_turn_play_rejected_state_unchanged() -> None:
    state = position({p: cards(9, 5) for p in FIVE}, current="a")
    err = rejected(state, "b", {"type": "play", "cardIds": cards(9)}, "not_your_turn")
    assert err.message == "지금은 내 차례가 아니에요."
    rejected(state, "zed", {"type": "play", "cardIds": cards(9)}, "not_a_player")


def test_card_not_in_hand_rejected_state_unchanged() -> None:
    state = position({p: cards(9, 5) for p in FIVE}, current="a")
    rejected(state, "a", {"type": "play", "cardIds": [card(12, 3)]}, "not_in_hand")
    rejected(state, "a", {"type": "play", "cardIds": ["99-99"]}, "unknown_card")


def test_duplicate_packet_rejected_state_unchanged() -> None:
    state = position({p: cards(9, 9, 5) for p in FIVE}, current="a")
    rejected(state, "a", {"type": "play", "cardIds": [card(9), card(9)]}, "duplicate_card")
    GAME.apply(state, "a", {"type": "play", "cardIds": cards(9, 9)})
    rejected(state, "a", {"type": "play", "cardIds": cards(9, 9)})  # the same packet again
    state = revolution_position("c")
    GAME.apply(state, "a", {"type": "confirmHand"})
    rejected(state, "a", {"type": "confirmHand"}, "already_confirmed")


def test_scoring_summary_when_the_winner_kept_the_top_rank_every_round() -> None:
    hands = {"a": [], "b": [], "c": cards(4), "d": cards(11, 12), "e": []}
    state = position(
        hands,
        options={"rounds": 3},
        round=3,
        current="c",
        finishOrder=["a", "b", "e"],
        roundResults=[
            {"order": FIVE, "revolution": "none"},
            {"order": FIVE, "revolution": "great"},
        ],
        totals={"a": 8, "b": 6, "c": 4, "d": 2, "e": 0},
    )
    GAME.apply(state, "c", {"type": "play", "cardIds": cards(4)})
    result = GAME.result(state)
    assert result is not None and result["winner"] == ["a"]
    assert result["summary"] == "3라운드 동안 a 님이 가장 높은 신분을 지켰어요!"
    assert GAME.to_json(state)["roundResults"][1]["revolution"] == "great"
