"""The random bot samples without listing: each legal action must still be exactly one draw."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_NUMBERS, FULL_DECK, JESTER
from jokeapp.games.dalmuti.legal import (
    choice_at,
    choice_cards,
    choice_count,
    lead_cards,
    lead_count,
    number_counts,
    play_choices,
    single_follows,
)
from jokeapp.games.dalmuti.state import DalmutiState, Play
from tests.dalmuti.helpers import GAME


class FixedDraw(Rng):
    """An Rng whose ``below`` returns a chosen value and remembers the range it was asked for."""

    def __init__(self, value: int) -> None:
        super().__init__(1, 2, 3, 4)
        self.value = value
        self.asked: list[int] = []

    def below(self, n: int) -> int:
        self.asked.append(n)
        return self.value


def canonical(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def every_draw(state: DalmutiState, player: str) -> list[str]:
    """The bot's action for each value its one draw can take (no draw: its only action)."""
    probe = FixedDraw(0)
    first = GAME.bots["random"](state, player, probe)
    if not probe.asked:
        return [canonical(first)]
    assert len(probe.asked) == 1
    return [canonical(GAME.bots["random"](state, player, FixedDraw(v))) for v in range(probe.asked[0])]


def random_play_positions(seed: int, count: int) -> list[tuple[DalmutiState, str]]:
    """Positions of the playing phase met in a random game, with the player to move."""
    state, _ = GAME.start({}, ["a", "b", "c", "d", "e"], seed)
    rng = Rng.from_seed(seed)
    found: list[tuple[DalmutiState, str]] = []
    while not GAME.is_over(state) and len(found) < count:
        player = GAME.pending(state)[0].player
        if state.phase.kind == "playing":
            found.append((GAME.from_json(GAME.to_json(state)), player))
        GAME.apply(state, player, GAME.bots["random"](state, player, rng))
    return found


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_review_random_bot_play_draws_map_one_to_one_onto_legal_actions(seed: int) -> None:
    for state, player in random_play_positions(seed, 60):
        draws = every_draw(state, player)
        legal = [canonical(action) for action in GAME.legal_actions(state, player)]
        assert sorted(draws) == sorted(legal)  # one draw per legal action: uniform


hands = st.lists(st.sampled_from(FULL_DECK), max_size=20, unique=True).map(sorted)


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(1, 4), st.integers(2, JESTER))
def test_review_counted_choices_equal_the_listed_ones(hand: list[int], count: int, rank: int) -> None:
    counts = number_counts(hand)
    listed = play_choices(counts, None)
    assert lead_count(hand) == choice_count(counts, None) == len(listed)
    for index, choice in enumerate(listed):
        assert choice_at(counts, None, index) == choice
        assert lead_cards(hand, index) == choice_cards(hand, choice)
    top = Play((), count, rank, "x")
    listed = play_choices(counts, top)
    assert choice_count(counts, top) == len(listed)
    assert [choice_at(counts, top, index) for index in range(len(listed))] == listed
    if count == 1:
        below_top = sum(1 for card in hand if CARD_NUMBERS[card] < rank)
        singles = single_follows(hand, below_top)
        assert [[CARD_IDS[card]] for card in singles] == [choice_cards(hand, c) for c in listed]
