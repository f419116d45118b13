"""The random bot samples without listing: each legal action must still be exactly one draw."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_NUMBERS, FULL_DECK, JESTER
from jokeapp.games.dalmuti.legal import (
    choice_cards,
    follow_actions,
    lead_cards,
    lead_count,
    multi_follows,
    number_counts,
    play_choices,
    return_choices,
)
from jokeapp.games.dalmuti.state import DalmutiState, Play
from tests.botask import ask
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
    first = ask(GAME, "random", state, player, probe)
    if not probe.asked:
        return [canonical(first)]
    assert len(probe.asked) == 1
    return [
        canonical(ask(GAME, "random", state, player, FixedDraw(v))) for v in range(probe.asked[0])
    ]


def random_play_positions(seed: int, count: int) -> list[tuple[DalmutiState, str]]:
    """Positions of the playing phase met in a random game, with the player to move."""
    state, _ = GAME.start({}, ["a", "b", "c", "d", "e"], seed)
    rng = Rng.from_seed(seed)
    found: list[tuple[DalmutiState, str]] = []
    while not GAME.is_over(state) and len(found) < count:
        player = GAME.pending(state)[0].player
        if state.phase.kind == "playing":
            found.append((GAME.from_json(GAME.to_json(state)), player))
        GAME.apply(state, player, ask(GAME, "random", state, player, rng))
    return found


@pytest.mark.pure_engines  # patches or subclasses an engine module
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_review_random_bot_play_draws_map_one_to_one_onto_legal_actions(seed: int) -> None:
    for state, player in random_play_positions(seed, 60):
        draws = every_draw(state, player)
        legal = [canonical(action) for action in GAME.legal_actions(state, player)]
        assert sorted(draws) == sorted(legal)  # one draw per legal action: uniform


hands = st.lists(st.sampled_from(FULL_DECK), max_size=20, unique=True).map(sorted)


@settings(max_examples=300, deadline=None)
@given(hands, st.integers(1, 5), st.integers(2, JESTER))
def test_review_sampled_sets_are_the_listed_sets_in_order(
    hand: list[int], need: int, rank: int
) -> None:
    """The bot's shortcuts (lead_count/lead_cards, follow_actions, multi_follows) give the
    very sets of play_choices, one index each."""
    counts = number_counts(hand)
    listed = [choice_cards(hand, choice) for choice in play_choices(counts, None)]
    assert lead_count(hand) == len(listed)
    assert [lead_cards(hand, index) for index in range(len(listed))] == listed
    top = Play((), need, rank, "x")
    listed = [choice_cards(hand, c) for c in play_choices(counts, top)]
    follows = [{"type": "play", "cardIds": ids} for ids in listed] + [{"type": "pass"}]
    assert follow_actions(hand, top) == follows
    below_top = sum(1 for card in hand if CARD_NUMBERS[card] < rank)
    sets = []
    for start, used in multi_follows(hand, below_top, need):
        wild = hand[used - need :] if used < need else []
        sets.append([CARD_IDS[card] for card in hand[start : start + used] + wild])
    assert sets == listed


@settings(max_examples=300, deadline=None)
@given(hands, st.integers(0, 4))
def test_tax_return_choices_are_the_first_combination_of_each_multiset_in_order(
    hand: list[int], count: int
) -> None:
    """return_choices lists what walking every combination would: the first set met of each
    multiset of numbers, in the order met (the random bot draws by index)."""
    seen: set[tuple[int, ...]] = set()
    expected: list[list[str]] = []
    for cards in combinations(hand, count):
        numbers = tuple(CARD_NUMBERS[card] for card in cards)
        if numbers not in seen:
            seen.add(numbers)
            expected.append([CARD_IDS[card] for card in cards])
    assert return_choices(hand, count) == expected
