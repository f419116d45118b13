"""Spec section 10, setup half: deck, first ranks, tax, revolution. Named after the items."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.dalmuti.helpers import FIVE, GAME, J1, J2, card, cards, hand_ids, position
from tests.dalmuti.positions import (
    declare_then_all_confirm,
    rejected,
    return_position,
    revolution_position,
    tax_position,
)

SIX = ["p1", "p2", "p3", "p4", "p5", "p6"]


# --- 덱 / 분배 ---------------------------------------------------------------------------


def test_deck_80_cards_and_six_player_deal_14_14_13_13_13_13() -> None:
    state, events = GAME.start({"revolution": True}, SIX, seed=3)
    data = GAME.to_json(state)
    dealt = [c for player in SIX for c in data["hands"][player]]
    assert len(dealt) == 80 and len({c["id"] for c in dealt}) == 80
    numbers = Counter(c["n"] for c in dealt)
    assert numbers == Counter({n: n for n in range(1, 13)} | {13: 2})
    counts = [len(data["hands"][player]) for player in data["order"]]
    assert counts == [14, 14, 13, 13, 13, 13]  # earlier ranks take the extra cards
    assert events[1] == {"type": "dealt", "counts": dict(zip(data["order"], counts, strict=True))}


@pytest.mark.parametrize(
    ("players", "expected"),
    [(4, [20] * 4), (5, [16] * 5), (7, [12, 12, 12, 11, 11, 11, 11]), (8, [10] * 8)],
)
def test_deck_deal_sizes_of_the_spec_table(players: int, expected: list[int]) -> None:
    ids = [f"p{i}" for i in range(players)]
    data = GAME.to_json(GAME.setup({}, ids, seed=11))
    assert [len(data["hands"][p]) for p in data["order"]] == expected


def test_deck_remove_high_cards_leaves_38_cards_without_9_to_12() -> None:
    data = GAME.to_json(GAME.setup({"removeHighCards": True}, FIVE, seed=5))
    dealt = [c for hand in data["hands"].values() for c in hand]
    assert len(dealt) == 38 and {c["n"] for c in dealt} == {1, 2, 3, 4, 5, 6, 7, 8, 13}
    assert [len(data["hands"][p]) for p in data["order"]] == [8, 8, 8, 7, 7]


# --- 첫 신분 뽑기 -------------------------------------------------------------------------


def test_first_rank_draw_same_seed_same_result() -> None:
    first = GAME.start({}, FIVE, seed=99)
    again = GAME.start({}, FIVE, seed=99)
    assert first[1] == again[1]
    assert GAME.to_json(first[0]) == GAME.to_json(again[0])


def test_first_rank_draw_ties_redraw_among_the_tied_until_order_is_settled() -> None:
    ties_seen = 0
    for seed in range(60):
        _, events = GAME.start({}, SIX, seed=seed)
        draw = events[0]
        assert draw["type"] == "firstRankDraw"
        draws, order = draw["draws"], draw["order"]
        assert sorted(order) == sorted(SIX)
        # Lower first number ranks higher; tied players drew again, so comparing the sequences
        # of numbers reproduces the order exactly.
        assert order == sorted(SIX, key=lambda p: draws[p])
        for player, numbers in draws.items():
            if len(numbers) > 1:
                ties_seen += 1
                tied = [
                    q for q in SIX if q != player and draws[q][: len(numbers) - 1] == numbers[:-1]
                ]
                assert tied, "only the tied players draw again"
            else:
                others = [q for q in SIX if q != player]
                assert all(draws[q][0] != numbers[0] for q in others)
    assert ties_seen > 0


def test_first_rank_random_shuffles_players_and_draws_nothing() -> None:
    _, events = GAME.start({"firstRanking": "random"}, FIVE, seed=4)
    assert events[0]["draws"] == {} and sorted(events[0]["order"]) == FIVE


# --- 세금 -------------------------------------------------------------------------------


def test_tax_jester_not_taxable_gives_3_3() -> None:
    state = tax_position([J1, J2, *cards(3, 3, 7)], jester_taxable=False)
    events = GAME.apply(state, "e", {"type": "confirmHand", "declareRevolution": False})
    assert events[0] == {
        "type": "taxPaid",
        "from": "e",
        "to": "a",
        "count": 2,
        "cardIds": cards(3, 3),
    }
    assert events[1] == {"type": "taxPaid", "from": "d", "to": "b", "count": 1, "cardIds": cards(8)}
    assert hand_ids(state, "e") == [card(7), J1, J2]
    assert hand_ids(state, "a") == [*cards(3, 3), *cards(12, 12)]


def test_tax_jester_taxable_gives_both_jesters() -> None:
    state = tax_position([J1, J2, *cards(3, 3, 7)], jester_taxable=True)
    events = GAME.apply(state, "e", {"type": "confirmHand", "declareRevolution": False})
    assert events[0]["cardIds"] == [J1, J2]
    assert hand_ids(state, "e") == cards(3, 3, 7)


def test_tax_same_number_ties_go_by_card_id() -> None:
    state = tax_position([card(5, 4), card(5, 2), card(5, 3), card(9)], jester_taxable=False)
    events = GAME.apply(state, "e", {"type": "confirmHand", "declareRevolution": False})
    assert events[0]["cardIds"] == [card(5, 2), card(5, 3)]


def test_tax_with_four_players_only_the_two_pairs() -> None:
    hands = {"a": cards(12), "b": cards(11), "c": cards(2, 10), "d": cards(1, 9)}
    state = position(
        hands, options={"revolution": False}, phase={"kind": "revolutionCheck", "confirmed": {}}
    )
    from jokeapp.games.dalmuti.tax import collect_tax

    events = collect_tax(state)
    assert [(e["from"], e["to"], e["count"]) for e in events] == [("d", "a", 2), ("c", "b", 1)]
    assert GAME.to_json(state)["phase"] == {
        "kind": "taxReturn",
        "owed": {
            "a": {"to": "d", "count": 2, "done": False},
            "b": {"to": "c", "count": 1, "done": False},
        },
    }


def test_tax_applied_at_once_when_revolution_is_off() -> None:
    state, events = GAME.start({"revolution": False}, FIVE, seed=8)
    assert [e["type"] for e in events] == ["firstRankDraw", "dealt", "taxPaid", "taxPaid"]
    assert GAME.to_json(state)["phase"]["kind"] == "taxReturn"


# --- 세금 돌려주기 -------------------------------------------------------------------------


def test_tax_return_may_give_back_just_received_cards() -> None:
    state = return_position()
    events = GAME.apply(state, "a", {"type": "returnTax", "cardIds": cards(1, 3)})
    assert events == [
        {"type": "taxReturned", "from": "a", "to": "e", "count": 2, "cardIds": cards(1, 3)}
    ]
    assert sorted(hand_ids(state, "e")) == sorted([J1, *cards(1, 3, 7)])
    assert GAME.to_json(state)["phase"]["kind"] == "taxReturn"  # b still owes a card
    GAME.apply(state, "b", {"type": "returnTax", "cardIds": cards(8)})
    data = GAME.to_json(state)
    assert data["phase"] == {"kind": "playing"} and data["current"] == "a"


def test_tax_return_wrong_count_rejected() -> None:
    state = return_position()
    err = rejected(state, "a", {"type": "returnTax", "cardIds": cards(1)}, "wrong_return_count")
    assert err.message == "돌려줄 카드 2장을 골라 주세요."
    rejected(
        state, "b", {"type": "returnTax", "cardIds": [card(8), card(11)]}, "wrong_return_count"
    )
    rejected(state, "b", {"type": "returnTax", "cardIds": []}, "wrong_return_count")


def test_tax_return_twice_or_by_a_payer_rejected() -> None:
    state = return_position()
    GAME.apply(state, "b", {"type": "returnTax", "cardIds": cards(11)})
    rejected(state, "b", {"type": "returnTax", "cardIds": cards(8)}, "already_returned")
    rejected(state, "e", {"type": "returnTax", "cardIds": [J1]}, "nothing_owed")


# --- 혁명 -------------------------------------------------------------------------------


def test_revolution_by_commoner_no_tax_ranks_unchanged() -> None:
    state = revolution_position("c")
    GAME.apply(state, "a", {"type": "confirmHand"})
    events = declare_then_all_confirm(state, "c")
    assert events == [{"type": "revolution", "player": "c", "kind": "revolution"}]
    data = GAME.to_json(state)
    assert data["order"] == FIVE and data["revolution"] == "revolution"
    assert GAME.view(state, None)["revolutionBy"] == "c"  # the declarer is public
    assert data["phase"] == {"kind": "playing"} and data["current"] == "a" and data["taxLog"] == []
    assert hand_ids(state, "e") == cards(8, 8)


def test_great_revolution_by_last_rank_reverses_order_and_new_first_leads() -> None:
    state = revolution_position("e")
    events = declare_then_all_confirm(state, "e")
    assert events == [{"type": "revolution", "player": "e", "kind": "great"}]
    data = GAME.to_json(state)
    assert data["order"] == ["e", "d", "c", "b", "a"] and data["revolution"] == "great"
    assert data["revolutionBy"] == "e"
    assert data["current"] == "e" and data["taxLog"] == []
    assert GAME.pending(state)[0].player == "e"
    assert GAME.view(state, "a")["titles"] == {
        "e": "대왕",
        "d": "소왕",
        "c": "평민",
        "b": "소농노",
        "a": "대농노",
    }
    # turn order is reversed too: after e comes d
    GAME.apply(state, "e", {"type": "play", "cardIds": [card(8)]})
    assert GAME.to_json(state)["current"] == "d"


def test_revolution_declared_without_both_jesters_rejected() -> None:
    state = revolution_position("c")
    err = rejected(state, "b", {"type": "confirmHand", "declareRevolution": True}, "no_two_jesters")
    assert err.message == "광대 2장이 있어야 혁명할 수 있어요."


def test_revolution_not_declared_then_tax_after_all_confirm() -> None:
    state = revolution_position("e")
    for player in FIVE[:-1]:
        assert GAME.apply(state, player, {"type": "confirmHand", "declareRevolution": False}) == []
    events = GAME.apply(state, "e", {"type": "confirmHand"})
    assert [e["type"] for e in events] == ["taxPaid", "taxPaid"]
    assert GAME.to_json(state)["revolution"] == "none"
    assert GAME.view(state, "a")["revolutionBy"] is None


# --- 혁명 정보 유출 -------------------------------------------------------------------------


def test_revolution_check_looks_the_same_with_or_without_a_jester_pair() -> None:
    with_pair = revolution_position("c")
    hands = {p: cards(4 + i, 4 + i) for i, p in enumerate(FIVE)}
    hands["c"] += [J1]
    hands["d"] += [J2]
    without = position(
        hands, phase={"kind": "revolutionCheck", "confirmed": dict.fromkeys(FIVE, False)}
    )
    for viewer in ["a", "b", "d", "e", None]:
        seen_with, seen_without = GAME.view(with_pair, viewer), GAME.view(without, viewer)
        assert seen_with.keys() == seen_without.keys()
        assert seen_with["phase"] == seen_without["phase"]
        assert "canDeclareRevolution" not in seen_with
    assert GAME.pending(with_pair) == GAME.pending(without)
    phases = {GAME.to_json(GAME.setup({}, FIVE, seed=s))["phase"]["kind"] for s in range(30)}
    assert phases == {"revolutionCheck"}


def test_can_declare_revolution_only_in_the_holders_own_view() -> None:
    state = revolution_position("c")
    assert GAME.view(state, "c")["canDeclareRevolution"] is True
    for viewer in ["a", "b", "d", "e", None]:
        assert "canDeclareRevolution" not in GAME.view(state, viewer)
    GAME.apply(state, "a", {"type": "confirmHand"})
    assert GAME.view(state, "b")["phase"]["confirmed"] == {
        "a": True,
        "b": False,
        "c": False,
        "d": False,
        "e": False,
    }
