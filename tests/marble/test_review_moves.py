"""Rules review, moving (spec 3.5 move cards, 5.1, 5.4, 5.5): each test is one rule."""

import pytest

from jokeapp.core.errors import IllegalAction
from jokeapp.games.marble.state import MarbleState

from .helpers import act, at, deck_with, kinds, of_kind, roll, table


def test_space_travel_from_30_to_start_pays_one_salary() -> None:
    s = table({"p1": at(30, spacePending=True), "p2": at(0)})
    events = act(s, "p1", "SPACE_TRAVEL", dest=0)
    assert of_kind(events, "moved") == [
        {"type": "moved", "player": "p1", "from": 30, "to": 0, "passedStart": True, "by": "space"}
    ]
    assert of_kind(events, "salary") == [{"type": "salary", "player": "p1", "amount": 20}]
    assert s.players["p1"].cash == 320 and s.current_player == "p2"


@pytest.mark.parametrize(("dest", "salaries"), [(29, 1), (1, 1), (31, 0), (39, 0)])
def test_space_travel_salary_only_when_the_path_crosses_start(dest: int, salaries: int) -> None:
    s = table({"p1": at(30, spacePending=True), "p2": at(0)})
    events = act(s, "p1", "SPACE_TRAVEL", dest=dest)
    assert len(of_kind(events, "salary")) == salaries and s.players["p1"].pos == dest


@pytest.mark.parametrize(
    ("card", "dest", "salaries"),
    [("L13", 0, 1), ("L14", 30, 1), ("L15", 39, 0), ("L17", 20, 1), ("L18", 35, 0)],
)
def test_forward_cards_from_33_pay_salary_only_across_start(
    card: str, dest: int, salaries: int
) -> None:
    s = table({"p1": at(31), "p2": at(0)}, deck=deck_with(card))
    events = roll(s, "p1", 1, 1)
    assert s.players["p1"].pos == dest
    assert len(of_kind(events, "salary")) == salaries


def test_storm_card_from_33_no_salary_though_clockwise_would_cross_start() -> None:
    s = table({"p1": at(31), "p2": at(0)}, deck=deck_with("L10"))
    events = roll(s, "p1", 1, 1)
    assert of_kind(events, "salary") == []
    assert of_kind(events, "toIsland") == [{"type": "toIsland", "player": "p1", "reason": "card"}]
    assert s.players["p1"].pos == 10 and s.players["p1"].island_left == 3
    assert s.current_player == "p2" and not s.extra_roll  # the double's extra roll is gone


def test_back_three_from_33_onto_space_travel_ends_the_turn_and_the_double() -> None:
    s = table({"p1": at(31), "p2": at(0)}, deck=deck_with("L16"))
    events = roll(s, "p1", 1, 1)
    assert of_kind(events, "moved")[-1]["to"] == 30
    assert s.players["p1"].space_pending and s.current_player == "p2"


def test_space_travel_to_the_island_square_strands_the_traveller() -> None:
    s = table({"p1": at(30, spacePending=True), "p2": at(0)})
    events = act(s, "p1", "SPACE_TRAVEL", dest=10)
    assert kinds(events)[-1] == "toIsland" and s.players["p1"].island_left == 3


def test_passing_the_island_square_does_nothing() -> None:
    s = table({"p1": at(8), "p2": at(0)})
    roll(s, "p1", 1, 2)
    assert s.players["p1"].pos == 11 and s.players["p1"].island_left == 0


def test_third_double_does_not_move_even_when_the_sum_would_pass_start() -> None:
    s = table({"p1": at(35), "p2": at(0)}, doublesThisTurn=2, extraRoll=True)
    events = roll(s, "p1", 3, 3)
    assert kinds(events) == ["rolled", "toIsland"]
    assert s.players["p1"].pos == 10 and s.players["p1"].cash == 300
    assert s.current_player == "p2" and s.players["p1"].island_left == 3


def _other_turn(s: MarbleState) -> None:
    roll(s, "p2", 1, 2)
    if s.phase == "decide":
        act(s, "p2", "PASS")
    assert s.current_player == "p1"


@pytest.mark.parametrize("turns", [1, 2])
def test_island_turns_option_sets_how_many_failed_rolls_before_leaving(turns: int) -> None:
    s = table({"p1": at(7), "p2": at(0)}, options={"islandTurns": turns})
    roll(s, "p1", 1, 2)
    assert s.players["p1"].island_left == turns
    for left in range(turns, 0, -1):
        _other_turn(s)
        events = roll(s, "p1", 1, 2)
        assert kinds(events) == ["islandRoll"] and s.players["p1"].island_left == left - 1
        assert s.players["p1"].pos == 10 and s.current_player == "p2"
    _other_turn(s)
    events = roll(s, "p1", 1, 2)
    assert kinds(events)[:2] == ["rolled", "moved"] and s.players["p1"].pos == 13


def test_island_double_escape_does_not_count_as_a_double_for_the_third_double_rule() -> None:
    s = table({"p1": at(10, islandLeft=2), "p2": at(0)})
    events = roll(s, "p1", 2, 2)
    assert kinds(events)[:3] == ["islandRoll", "escaped", "moved"]
    assert s.doubles_this_turn == 0 and not s.extra_roll


def test_escape_card_goes_to_the_bottom_of_the_deck_and_the_roll_follows() -> None:
    s = table({"p1": at(10, islandLeft=3, heldCards=["L11"]), "p2": at(0)})
    events = act(s, "p1", "USE_ESCAPE_CARD")
    assert events == [{"type": "escaped", "player": "p1", "how": "card"}]
    assert s.deck[-1] == "L11" and s.players["p1"].held_cards == []
    assert s.phase == "turnStart" and s.current_player == "p1"
    with pytest.raises(IllegalAction):
        act(s, "p1", "USE_ESCAPE_CARD")


def test_card_guard_after_five_cards_in_a_turn_card_squares_do_nothing() -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with("L01"), cardsThisTurn=5)
    events = roll(s, "p1", 1, 1)
    assert "cardDrawn" not in kinds(events) and s.deck[0] == "L01"
    assert s.phase == "turnStart" and s.current_player == "p1"  # the double still rolls again


def test_card_guard_counts_cards_across_extra_rolls_and_resets_next_turn() -> None:
    s = table({"p1": at(0), "p2": at(0)}, deck=deck_with("L01", "L02"), cardsThisTurn=4)
    events = roll(s, "p1", 1, 1)
    assert of_kind(events, "cardDrawn") == [{"type": "cardDrawn", "player": "p1", "cardId": "L01"}]
    assert s.cards_this_turn == 5
    events = roll(s, "p1", 2, 3)  # 2 -> 7, a card square, with five cards drawn this turn
    assert "cardDrawn" not in kinds(events) and s.current_player == "p2"
    assert s.cards_this_turn == 0
