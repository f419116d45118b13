"""``from_json`` reads states written by hand in the spec's shape (8.1) and derives every field
the project adds (DESIGN.md: any state a test or a tool writes)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from jokeapp.games.dalmuti.data import CARD_IDS, deck
from tests.dalmuti.helpers import FIVE, GAME, J1, J2, card, cards, hand_ids


def dcards(*ids: str) -> list[dict[str, Any]]:
    """Cards in the spec's DCard shape."""
    return [{"id": i, "n": int(i[:2])} for i in ids]


def spec_play(ids: list[str], rank: int) -> dict[str, Any]:
    return {"cardIds": ids, "count": len(ids), "rank": rank}  # the spec's Play: no player


def mid_trick() -> dict[str, Any]:
    """c led 9, d played 7, e passed, a played 5, b passed: c is to answer a's 5."""
    return {
        "options": {"rounds": 3},
        "players": FIVE,
        "order": FIVE,
        "round": 1,
        "hands": {
            "a": dcards(*cards(11, 11)),
            "b": dcards(*cards(3, 12)),
            "c": dcards(card(4), J1),
            "d": dcards(*cards(8, 8)),
            "e": dcards(*cards(10)),
        },
        "phase": {"kind": "playing"},
        "revolution": "none",
        "taxLog": [],
        "trick": {
            "leader": "c",
            "top": {**spec_play([card(5)], 5), "by": "a"},
            "passesSinceTop": ["b"],
            "lockedOut": [],
            "pile": [spec_play([card(9)], 9), spec_play([card(7)], 7), spec_play([card(5)], 5)],
        },
        "finishOrder": [],
        "roundResults": [],
        "totals": dict.fromkeys(FIVE, 0),
        "turnStartedAt": 0,
    }


def test_from_json_mid_trick_position_in_the_spec_shape() -> None:
    data = mid_trick()  # no rng, discard, seq, revolutionBy, current, nor a player on the pile
    state = GAME.from_json(data)
    written = GAME.to_json(state)
    assert written["current"] == "c"  # derived: the next player still to answer the top set
    assert [entry["by"] for entry in written["trick"]["pile"]] == ["c", "d", "a"]
    assert GAME.view(state, None)["trick"]["pile"][0] == {**spec_play([card(9)], 9), "by": "c"}
    assert written["revolutionBy"] is None and written["seq"] == 0
    # discard derived: every card not in a hand or on the table was played earlier
    on_table = [i for entry in written["trick"]["pile"] for i in entry["cardIds"]]
    held = [c["id"] for hand in written["hands"].values() for c in hand]
    assert Counter(held + on_table + written["discard"]) == Counter(
        CARD_IDS[c] for c in deck(False)
    )
    assert len(written["discard"]) == len(deck(False)) - len(held) - len(on_table)
    assert GAME.view(state, "a")["discardCount"] == len(written["discard"])
    assert GAME.to_json(GAME.from_json(written)) == written
    # and the game goes on from there
    GAME.apply(state, "c", {"type": "pass"})
    GAME.apply(state, "d", {"type": "pass"})
    events = GAME.apply(state, "e", {"type": "pass"})
    assert events[-1] == {"type": "trickWon", "player": "a", "next": "a"}
    assert len(GAME.to_json(state)["discard"]) == len(written["discard"]) + 3


def test_from_json_mid_trick_derives_missing_counts_and_ranks() -> None:
    data = mid_trick()
    data["trick"] = {
        "leader": "c",
        "top": {"cardIds": [card(5)], "by": "a"},
        "passesSinceTop": ["b"],
        "pile": [{"cardIds": [card(9)]}, {"cardIds": [card(7)]}, {"cardIds": [card(5)]}],
    }
    written = GAME.to_json(GAME.from_json(data))
    assert written["trick"]["top"] == {"cardIds": [card(5)], "count": 1, "rank": 5, "by": "a"}
    assert written["trick"]["lockedOut"] == [] and written["current"] == "c"
    assert [entry["by"] for entry in written["trick"]["pile"]] == ["c", "d", "a"]
    lone = GAME.to_json(
        GAME.from_json({**data, "trick": {"top": {"cardIds": [card(5)], "by": "a"}}})
    )
    assert lone["trick"]["leader"] == "a" and lone["trick"]["pile"] == [lone["trick"]["top"]]
    assert lone["current"] == "b"
    with pytest.raises(ValueError, match="top"):  # top is not the pile's last set
        GAME.from_json(
            {**data, "trick": {**data["trick"], "top": {**spec_play([card(9)], 9), "by": "c"}}}
        )
    with pytest.raises(ValueError, match="rank"):
        GAME.from_json(
            {**data, "trick": {**data["trick"], "top": {**spec_play([card(5)], 4), "by": "a"}}}
        )


def test_from_json_refuses_a_card_outside_the_games_deck() -> None:
    data = mid_trick()
    data["options"] = {"removeHighCards": True}  # a holds two 11s
    with pytest.raises(ValueError, match="not in this game's deck"):
        GAME.from_json(data)


def test_from_json_revolution_check_position_in_the_spec_shape() -> None:
    hands = {p: dcards(*cards(3 + i, 3 + i)) for i, p in enumerate(FIVE)}
    hands["c"] += dcards(J1, J2)
    data = {
        "players": FIVE,
        "order": FIVE,
        "hands": hands,
        "phase": {"kind": "revolutionCheck", "confirmed": dict.fromkeys(FIVE, False)},
        "revolution": "none",
    }
    state = GAME.from_json(data)
    assert GAME.view(state, "c")["canDeclareRevolution"] is True
    assert [p.player for p in GAME.pending(state)] == FIVE
    assert GAME.apply(state, "c", {"type": "confirmHand", "declareRevolution": True}) == []
    for player in ["a", "b", "d"]:
        GAME.apply(state, player, {"type": "confirmHand"})
    assert GAME.apply(state, "e", {"type": "confirmHand"}) == [
        {"type": "revolution", "player": "c", "kind": "revolution"}
    ]
    quiet = GAME.from_json(data)
    for player in FIVE:
        events = GAME.apply(quiet, player, {"type": "confirmHand"})
    assert events[0] == {
        "type": "taxPaid",
        "from": "e",
        "to": "a",
        "count": 2,
        "cardIds": cards(7, 7),
    }


def tax_return_data() -> dict[str, Any]:
    """e paid a 1 and a 3 to a, d paid an 8 to b; a holds a jester it got in the deal."""
    return {
        "options": {"rounds": 3},
        "players": FIVE,
        "order": FIVE,
        "round": 2,
        "hands": {
            "a": dcards(*cards(1, 3, 6), J1),
            "b": dcards(*cards(8, 10)),
            "c": dcards(*cards(9)),
            "d": dcards(*cards(7, 12)),
            "e": dcards(*cards(4, 11)),
        },
        "phase": {
            "kind": "taxReturn",
            "owed": {
                "a": {"to": "e", "count": 2, "done": False},
                "b": {"to": "d", "count": 1, "done": False},
            },
        },
        "revolution": "none",
        "taxLog": [
            {"from": "e", "to": "a", "cardIds": cards(1, 3)},
            {"from": "d", "to": "b", "cardIds": cards(8)},
        ],
        "roundResults": [{"order": FIVE, "revolution": "none"}],
    }


def test_from_json_tax_return_position_and_its_timeout() -> None:
    state = GAME.from_json(tax_return_data())
    written = GAME.to_json(state)
    assert written["totals"] == {"a": 4, "b": 3, "c": 2, "d": 1, "e": 0}  # derived from round 1
    assert [(p.player, p.kind) for p in GAME.pending(state)] == [
        ("a", "returnTax"),
        ("b", "returnTax"),
    ]
    assert GAME.view(state, "e")["tax"][0] == {
        "kind": "paid",
        "from": "e",
        "to": "a",
        "count": 2,
        "cardIds": cards(1, 3),
    }
    assert "cardIds" not in GAME.view(state, "c")["tax"][0]
    action = GAME.on_timeout(state, "a")
    assert action == {"type": "returnTax", "cardIds": cards(6, 3)}  # the highest numbers, no jester
    GAME.apply(state, "a", action)
    GAME.apply(state, "b", GAME.on_timeout(state, "b"))
    assert hand_ids(state, "a") == [card(1), J1] and hand_ids(state, "b") == cards(8)
    data = GAME.to_json(state)
    assert data["phase"] == {"kind": "playing"} and data["current"] == "a"


def finished_data(**extra: Any) -> dict[str, Any]:
    return {
        "options": {"rounds": 3},
        "players": FIVE,
        "order": ["c", "a", "b", "d", "e"],
        "hands": {p: [] for p in FIVE} | {"e": dcards(*cards(12, 12))},
        "phase": {"kind": "finished"},
        "revolution": "none",
        "roundResults": [
            {"order": ["a", "b", "c", "d", "e"], "revolution": "none"},
            {"order": ["a", "c", "b", "e", "d"], "revolution": "none"},
            {"order": ["c", "a", "b", "d", "e"], "revolution": "great"},
        ],
        **extra,
    }


def test_from_json_finished_game_result_is_computed_by_the_scoring_rules() -> None:
    state = GAME.from_json(finished_data())
    assert GAME.is_over(state) and GAME.pending(state) == []
    result = GAME.result(state)
    assert result is not None
    # a: 4+4+3 = 11, c: 2+3+4 = 9, b: 3+2+2 = 7, d: 1+0+1 = 2, e: 0+1+0 = 1
    assert result["ranking"] == [
        {"player": "a", "rank": 1, "total": 11, "roundRanks": [1, 1, 2]},
        {"player": "c", "rank": 2, "total": 9, "roundRanks": [3, 2, 1]},
        {"player": "b", "rank": 3, "total": 7, "roundRanks": [2, 3, 3]},
        {"player": "d", "rank": 4, "total": 2, "roundRanks": [4, 5, 4]},
        {"player": "e", "rank": 5, "total": 1, "roundRanks": [5, 4, 5]},
    ]
    assert (
        result["winner"] == ["a"]
        and result["summary"] == "3라운드 동안 a 님이 11점으로 1등을 했어요!"
    )
    assert GAME.view(state, None)["result"] == result
    assert GAME.to_json(state)["round"] == 3
    last = GAME.from_json(finished_data(options={"rounds": 3, "scoring": "last-round"}))
    result = GAME.result(last)
    assert result is not None and [r["player"] for r in result["ranking"]] == [
        "c",
        "a",
        "b",
        "d",
        "e",
    ]


def test_from_json_refuses_totals_that_disagree_with_the_rounds() -> None:
    with pytest.raises(ValueError, match="totals"):
        GAME.from_json(finished_data(totals={"a": 0, "b": 0, "c": 0, "d": 0, "e": 0}))
    assert GAME.from_json(finished_data(totals={"a": 11, "b": 7, "c": 9, "d": 2, "e": 1}))


def test_from_json_derives_revolution_by_from_the_spec_fields() -> None:
    great = GAME.from_json(
        {**mid_trick(), "revolution": "great", "order": ["e", "d", "c", "b", "a"]}
    )
    assert GAME.view(great, None)["revolutionBy"] == "e"  # the last rank who turned the order
    hands = {**mid_trick()["hands"], "b": dcards(card(3), J1, J2), "c": dcards(card(4))}
    plain = GAME.from_json({**mid_trick(), "revolution": "revolution", "hands": hands})
    assert GAME.view(plain, None)["revolutionBy"] == "b"  # who still shows both jesters
