"""The revolution check ends when everyone has confirmed (spec 8.2); a declaration waits for it
and stays secret until then (spec 4.4, 8.3)."""

from __future__ import annotations

from typing import Any

from jokeapp.games.dalmuti.state import DalmutiState
from tests.dalmuti.helpers import FIVE, GAME, J1, J2, cards, hand_ids, position
from tests.dalmuti.positions import rejected, revolution_position

CONFIRM = {"type": "confirmHand", "declareRevolution": False}
DECLARE = {"type": "confirmHand", "declareRevolution": True}


def test_revolution_check_others_may_still_confirm_after_a_declaration() -> None:
    state = revolution_position("c")
    assert GAME.apply(state, "c", DECLARE) == []
    assert GAME.to_json(state)["phase"]["kind"] == "revolutionCheck"
    rejected(state, "c", CONFIRM, "already_confirmed")
    for player in ["a", "b", "d"]:
        assert GAME.apply(state, player, CONFIRM) == []
    events = GAME.apply(state, "e", CONFIRM)
    assert events == [{"type": "revolution", "player": "c", "kind": "revolution"}]
    data = GAME.to_json(state)
    assert data["phase"] == {"kind": "playing"} and data["current"] == "a" and data["taxLog"] == []
    assert data["revolution"] == "revolution" and data["revolutionBy"] == "c"
    assert GAME.view(state, None)["revolutionBy"] == "c"


def test_revolution_check_nothing_applies_until_the_last_confirmation() -> None:
    state = revolution_position("e")  # the last rank: a great revolution
    hands = {p: hand_ids(state, p) for p in FIVE}
    GAME.apply(state, "b", CONFIRM)
    GAME.apply(state, "e", DECLARE)
    for player in ["a", "c"]:
        GAME.apply(state, player, CONFIRM)
        data = GAME.to_json(state)
        assert data["order"] == FIVE and data["revolution"] == "none" and data["taxLog"] == []
        assert data["phase"]["kind"] == "revolutionCheck"
        assert {p: hand_ids(state, p) for p in FIVE} == hands
        assert GAME.view(state, None)["revolutionBy"] is None
        assert GAME.view(state, None)["current"] is None
    assert [p.player for p in GAME.pending(state)] == ["d"]
    events = GAME.apply(state, "d", CONFIRM)
    assert events == [{"type": "revolution", "player": "e", "kind": "great"}]
    data = GAME.to_json(state)
    assert data["order"] == ["e", "d", "c", "b", "a"] and data["current"] == "e"
    assert data["phase"] == {"kind": "playing"} and data["taxLog"] == []
    assert [(p.player, p.kind) for p in GAME.pending(state)] == [("e", "play")]


def test_revolution_check_timeout_of_the_last_unconfirmed_player_applies_it() -> None:
    state = revolution_position("c")
    for player in ["a", "b"]:
        GAME.apply(state, player, CONFIRM)
    GAME.apply(state, "c", DECLARE)
    GAME.apply(state, "e", CONFIRM)
    assert [p.player for p in GAME.pending(state)] == ["d"]
    action = GAME.on_timeout(state, "d")
    assert action == CONFIRM
    assert GAME.apply(state, "d", action) == [
        {"type": "revolution", "player": "c", "kind": "revolution"}
    ]
    assert GAME.to_json(state)["phase"] == {"kind": "playing"}


def test_revolution_check_timeouts_of_everyone_else_after_a_declaration() -> None:
    state = revolution_position("e")
    GAME.apply(state, "e", DECLARE)
    events: list[dict[str, Any]] = []
    while GAME.to_json(state)["phase"]["kind"] == "revolutionCheck":
        player = GAME.pending(state)[0].player
        assert player != "e"
        events += GAME.apply(state, player, GAME.on_timeout(state, player))
    assert events == [{"type": "revolution", "player": "e", "kind": "great"}]


def test_revolution_check_without_a_declaration_moves_the_tax_at_the_last_confirmation() -> None:
    state = revolution_position("c")
    for player in ["a", "b", "c", "d"]:
        assert GAME.apply(state, player, CONFIRM) == []
    events = GAME.apply(state, "e", CONFIRM)
    assert [(e["type"], e["from"], e["to"]) for e in events] == [
        ("taxPaid", "e", "a"),
        ("taxPaid", "d", "b"),
    ]
    assert GAME.to_json(state)["revolution"] == "none"


def test_revolution_check_the_declarers_view_says_the_declaration_counts() -> None:
    state = revolution_position("c")
    assert "revolutionDeclared" not in GAME.view(state, "c")
    GAME.apply(state, "c", DECLARE)
    seen = GAME.view(state, "c")
    assert seen["revolutionDeclared"] is True and "canDeclareRevolution" not in seen
    for viewer in ["a", "b", "d", "e", None]:
        assert "revolutionDeclared" not in GAME.view(state, viewer)
    for player in ["a", "b", "d", "e"]:
        GAME.apply(state, player, CONFIRM)
    assert "revolutionDeclared" not in GAME.view(state, "c")  # it took effect: public now
    assert GAME.view(state, "a")["revolution"] == "revolution"


def test_revolution_check_declaration_survives_json() -> None:
    state = revolution_position("c")
    GAME.apply(state, "c", DECLARE)
    copy = GAME.from_json(GAME.to_json(state))
    for player in ["a", "b", "d"]:
        GAME.apply(copy, player, CONFIRM)
    assert GAME.apply(copy, "e", CONFIRM) == [
        {"type": "revolution", "player": "c", "kind": "revolution"}
    ]


# --- 혁명 정보 유출: views during the check ------------------------------------------------


def jester_layout(layout: str) -> DalmutiState:
    """Five hands of three cards; only where the jesters are differs between layouts."""
    hands: dict[str, list[str]] = {p: cards(*[4 + i] * 3) for i, p in enumerate(FIVE)}
    if layout == "c-both":
        hands["c"] = [J1, J2, *cards(6)]
    elif layout == "d-both":
        hands["d"] = [J1, J2, *cards(7)]
    elif layout == "split":
        hands["c"], hands["d"] = [J1, *cards(6, 6)], [J2, *cards(7, 7)]
    return position(
        hands, phase={"kind": "revolutionCheck", "confirmed": dict.fromkeys(FIVE, False)}
    )


LAYOUTS = ["c-both", "d-both", "split", "none"]
BYSTANDERS = ["a", "b", "e", None]  # their own hands are the same in every layout


def without_own_hand(seen: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value
        for key, value in seen.items()
        if key not in ("hand", "canDeclareRevolution", "revolutionDeclared")
    }


def assert_views_alike(states: dict[str, DalmutiState]) -> None:
    for viewer in BYSTANDERS:
        views = {name: GAME.view(state, viewer) for name, state in states.items()}
        assert all(seen == views["none"] for seen in views.values()), viewer
    for holder in ["c", "d"]:  # a non-holder in some layouts: all but its own hand alike
        views = {name: without_own_hand(GAME.view(state, holder)) for name, state in states.items()}
        assert all(seen == views["none"] for seen in views.values()), holder
    pendings = [GAME.pending(state) for state in states.values()]
    assert all(p == pendings[0] for p in pendings)


def test_revolution_check_views_are_equal_whoever_holds_the_jesters() -> None:
    states = {name: jester_layout(name) for name in LAYOUTS}
    assert_views_alike(states)
    for player in ["a", "b"]:
        for state in states.values():
            assert GAME.apply(state, player, CONFIRM) == []
    assert_views_alike(states)
    # c declares where it can; elsewhere c just confirms: nobody else can tell
    assert GAME.apply(states["c-both"], "c", DECLARE) == []
    for name in ["d-both", "split", "none"]:
        assert GAME.apply(states[name], "c", CONFIRM) == []
    assert_views_alike(states)
    assert GAME.apply(states["d-both"], "d", DECLARE) == []
    for name in ["c-both", "split", "none"]:
        assert GAME.apply(states[name], "d", CONFIRM) == []
    assert_views_alike(states)
