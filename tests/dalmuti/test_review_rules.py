"""Independent review of spec sections 2-8: rules the checklist files do not pin down yet."""

from __future__ import annotations

import pytest

from jokeapp.games.dalmuti.data import CARD_IDS
from jokeapp.games.dalmuti.state import DalmutiState
from tests.dalmuti.helpers import GAME, J1, J2, cards, hand_ids, position
from tests.dalmuti.positions import declare_then_all_confirm, rejected

SIX = ["p1", "p2", "p3", "p4", "p5", "p6"]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (4, [10, 10, 9, 9]),
        (5, [8, 8, 8, 7, 7]),
        (6, [7, 7, 6, 6, 6, 6]),
        (7, [6, 6, 6, 5, 5, 5, 5]),
        (8, [5, 5, 5, 5, 5, 5, 4, 4]),
    ],
)
def test_review_deal_remove_high_cards_38_cards_earlier_ranks_get_the_extras(
    players: int, expected: list[int]
) -> None:
    ids = [f"p{i}" for i in range(players)]
    for seed in range(3):
        data = GAME.to_json(GAME.setup({"removeHighCards": True}, ids, seed=seed))
        assert [len(data["hands"][p]) for p in data["order"]] == expected
        dealt = {c["id"] for hand in data["hands"].values() for c in hand}
        assert len(dealt) == 38 and all(
            c["n"] <= 8 or c["n"] == 13 for h in data["hands"].values() for c in h
        )


def test_review_first_rank_draw_order_follows_the_first_draw_numbers_for_every_seed() -> None:
    for seed in range(200):
        _, events = GAME.start({}, SIX, seed=seed)
        draws, order = events[0]["draws"], events[0]["order"]
        firsts = [draws[p][0] for p in order]
        assert firsts == sorted(firsts)  # a better first card is never ranked below a worse one
        for player in SIX:
            same = [q for q in SIX if draws[q][0] == draws[player][0]]
            assert (len(draws[player]) > 1) == (len(same) > 1)  # only the tied draw again


def six_revolution_position(holder: str) -> DalmutiState:
    hands = {p: cards(3 + i, 3 + i) for i, p in enumerate(SIX)}
    hands[holder] = [*hands[holder], J1, J2]
    return position(
        hands, phase={"kind": "revolutionCheck", "confirmed": dict.fromkeys(SIX, False)}
    )


def test_review_great_revolution_reverses_commoners_too_and_skips_tax() -> None:
    state = six_revolution_position("p6")
    before = {p: hand_ids(state, p) for p in SIX}
    declare_then_all_confirm(state, "p6")
    view = GAME.view(state, None)
    assert view["order"] == ["p6", "p5", "p4", "p3", "p2", "p1"]
    assert view["titles"] == {
        "p6": "대왕",
        "p5": "소왕",
        "p4": "평민",
        "p3": "평민",
        "p2": "소농노",
        "p1": "대농노",
    }
    assert view["tax"] == [] and view["current"] == "p6" and view["phase"] == {"kind": "playing"}
    assert {p: hand_ids(state, p) for p in SIX} == before


@pytest.mark.parametrize("holder", ["p1", "p2", "p3", "p5"])
def test_review_revolution_by_anyone_but_the_last_rank_keeps_the_order(holder: str) -> None:
    state = six_revolution_position(holder)
    events = declare_then_all_confirm(state, holder)
    assert events == [{"type": "revolution", "player": holder, "kind": "revolution"}]
    view = GAME.view(state, None)
    assert view["order"] == SIX and view["current"] == "p1" and view["tax"] == []


def test_review_tax_jester_taxable_counts_a_jester_above_the_1() -> None:
    hands = {"a": cards(12), "b": cards(11), "c": cards(10), "d": cards(9), "e": [*cards(1, 5), J1]}
    state = position(
        hands,
        options={"jesterTaxable": True},
        phase={"kind": "revolutionCheck", "confirmed": {p: p != "e" for p in hands}},
    )
    events = GAME.apply(state, "e", {"type": "confirmHand"})
    assert events[0] == {
        "type": "taxPaid",
        "from": "e",
        "to": "a",
        "count": 2,
        "cardIds": [J1, *cards(1)],
    }


def test_review_tax_return_both_at_once_in_either_order_then_top_rank_leads() -> None:
    hands = {
        "a": cards(12, 12),
        "b": cards(11),
        "c": cards(10),
        "d": cards(9, 8),
        "e": cards(1, 3, 7),
    }
    state = position(
        hands, phase={"kind": "revolutionCheck", "confirmed": {p: p != "e" for p in hands}}
    )
    GAME.apply(state, "e", {"type": "confirmHand"})
    assert {(p.player, p.kind, p.seconds) for p in GAME.pending(state)} == {
        ("a", "returnTax", 30),
        ("b", "returnTax", 30),
    }
    rejected(state, "b", {"type": "returnTax", "cardIds": cards(11, 8)}, "wrong_return_count")
    GAME.apply(state, "b", {"type": "returnTax", "cardIds": cards(8)})  # the card just received
    assert [p.player for p in GAME.pending(state)] == ["a"]
    GAME.apply(state, "a", {"type": "returnTax", "cardIds": cards(1, 12)})
    assert (
        GAME.to_json(state)["phase"] == {"kind": "playing"} and GAME.pending(state)[0].player == "a"
    )
    assert hand_ids(state, "e") == cards(1, 7, 12) and hand_ids(state, "d") == cards(8, 9)


def test_review_next_leader_skips_every_player_already_out() -> None:
    hands = {"a": [], "b": cards(3), "c": [], "d": cards(10, 10), "e": cards(9)}
    state = position(hands, current="b", finishOrder=["a", "c"])
    GAME.apply(state, "b", {"type": "play", "cardIds": cards(3)})
    GAME.apply(state, "d", {"type": "pass"})
    events = GAME.apply(state, "e", {"type": "pass"})
    assert events[-1] == {"type": "trickWon", "player": "b", "next": "d"}


def test_review_pass_locks_out_trick_ends_at_once_when_every_other_player_is_locked() -> None:
    hands = {
        "a": cards(9, 9, 12),
        "b": cards(11),
        "c": cards(10),
        "d": cards(8, 12),
        "e": cards(7, 12),
    }
    state = position(hands, current="a", options={"passLocksOut": True})
    GAME.apply(state, "a", {"type": "play", "cardIds": cards(12)})
    for player in ["b", "c"]:
        GAME.apply(state, player, {"type": "pass"})
    GAME.apply(state, "d", {"type": "play", "cardIds": cards(8)})
    GAME.apply(state, "e", {"type": "pass"})
    assert GAME.to_json(state)["current"] == "a"  # b and c are locked out
    rejected(state, "b", {"type": "play", "cardIds": cards(11)}, "not_your_turn")
    events = GAME.apply(state, "a", {"type": "pass"})
    assert events[-1] == {"type": "trickWon", "player": "d", "next": "d"}


def test_review_lead_may_mix_a_jester_with_the_1_and_never_two_numbers() -> None:
    hands = {"a": [*cards(1, 2), J1], "b": cards(11), "c": cards(10), "d": cards(9), "e": cards(8)}
    state = position(hands, current="a")
    rejected(state, "a", {"type": "play", "cardIds": [*cards(1, 2)]}, "mixed_numbers")
    rejected(state, "a", {"type": "play", "cardIds": [*cards(1, 2), J1]}, "mixed_numbers")
    events = GAME.apply(state, "a", {"type": "play", "cardIds": [*cards(1), J1]})
    assert events[0] == {
        "type": "played",
        "player": "a",
        "cardIds": [*cards(1), J1],
        "count": 2,
        "rank": 1,
    }


def test_review_timeout_lead_ignores_jesters_while_any_number_is_left() -> None:
    hands = {"a": [*cards(2), J1, J2], "b": cards(11), "c": cards(10), "d": cards(9), "e": cards(8)}
    state = position(hands, current="a")
    assert GAME.on_timeout(state, "a") == {"type": "play", "cardIds": cards(2)}
    rejected(state, "b", {"type": "pass"}, "not_your_turn")
    assert [CARD_IDS[c] for c in state.hands["a"]] == [*cards(2), J1, J2]
