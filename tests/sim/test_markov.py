"""The Markov chain solver and the marble board's chain: known answers first, then the board
against the engine's own games."""

from __future__ import annotations

import math
from typing import Any

import pytest

from jokeapp.core.options import resolve_options
from jokeapp.games import get_game
from jokeapp.games.marble.data import (
    BOARD_SIZE,
    CARD,
    CARD_IDS,
    ISLAND_POS,
    KIND,
    nearest_tour_ahead,
)
from jokeapp.games.marble.landing import land
from jokeapp.sim.analysis.marble import AGREE_SE, Analysis
from jokeapp.sim.analysis.marble_chain import (
    BACK,
    HOLD,
    TO,
    TO_ISLAND,
    TOUR,
    BoardChain,
    Choices,
    Rules,
    card_effect,
)
from jokeapp.sim.analysis.markov import NotStochastic, stationary, step
from jokeapp.sim.play import play_recorded, player_ids

TWO_D6 = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}


def test_two_states_have_the_textbook_answer() -> None:
    a, b = 0.3, 0.1
    pi = stationary([{0: 1 - a, 1: a}, {0: b, 1: 1 - b}])
    assert pi == pytest.approx([b / (a + b), a / (a + b)], abs=1e-12)


def test_a_plain_2d6_walk_on_40_squares_is_uniform() -> None:
    rows = [{(i + s) % 40: p for s, p in TWO_D6.items()} for i in range(40)]
    pi = stationary(rows)
    assert pi == pytest.approx([1 / 40] * 40, abs=1e-12)
    assert step(pi, rows) == pytest.approx(pi, abs=1e-12)


def test_the_board_chain_on_a_plain_loop_is_uniform() -> None:
    """The same turn enumeration as the real board, on a loop with nothing on it."""
    chain = BoardChain.build(Rules.plain_loop())
    assert len(chain.states) == 40
    assert chain.stationary_landings() == pytest.approx([1 / 40] * 40, abs=1e-12)
    assert chain.landings_per_turn() == pytest.approx(1.0)


def test_bad_matrices_are_refused() -> None:
    with pytest.raises(NotStochastic):
        stationary([{0: 0.5}, {0: 1.0}])
    with pytest.raises(NotStochastic):
        stationary([{2: 1.0}, {0: 1.0}])
    with pytest.raises(ValueError):
        stationary([{0: 1.0}, {1: 1.0}])  # two closed classes: no unique answer


def test_the_real_board_is_not_uniform_and_sums_to_one() -> None:
    shares = BoardChain.build().stationary_landings()
    assert sum(shares) == pytest.approx(1.0)
    # 무인도 is reached by landing, the storm card and the third double: above a plain square
    assert shares[ISLAND_POS] > 1.2 / 40
    assert max(shares) - min(shares) > 0.01


def test_doubles_give_more_than_one_landing_a_turn() -> None:
    plain = BoardChain.build(Rules(kinds=("plain",) * 40, doubles=True, island_turns=0))
    # a double (1/6) rolls again, the third goes to the island (a landing too, and with no
    # turns to wait there): 1 + 1/6 + 1/36 landings a turn
    assert plain.landings_per_turn() == pytest.approx(1 + 1 / 6 + 1 / 36)


@pytest.mark.parametrize("card", CARD_IDS)
def test_each_cards_move_is_the_engines(card: str) -> None:
    game = get_game("marble")
    options = resolve_options(game.options, {})
    for square in (p for p in range(BOARD_SIZE) if KIND[p] == CARD):
        state, _ = game.start(options, ["a", "b"], 3)
        player = state.order[state.current]
        piece = state.players[player]
        piece.pos = square
        state.deck.remove(card)
        state.deck.insert(0, card)
        land(state, [])
        what, arg = card_effect(card)
        expected = {
            TO: arg,
            BACK: (square - arg) % BOARD_SIZE,
            TOUR: nearest_tour_ahead(square),
            TO_ISLAND: ISLAND_POS,
        }.get(what, square)
        assert piece.pos == expected, (card, square)
        assert (piece.island_left > 0) == (what == TO_ISLAND or expected == ISLAND_POS)
        assert ("L11" in piece.held_cards) == (what == HOLD)


# The engine against the chain. Random bots fly to each of the 39 squares alike and use a
# held escape card half the time (their two legal actions), so the chain needs nothing from
# the games but the number of turns the pieces played (bankrupt pieces stop). The games are
# fixed by their seeds, so the test gives the same answer every run; the tolerance says how
# far apart the two may be by chance: each square's share is within Z standard errors (games
# as the independent units), Z = 4.5 for 40 squares at once, a false alarm about once in
# 4,000 seeds. The chain's approximations (each card drawn uniformly rather than from one
# shuffled cycle) are far below one standard error here: at 4,000 games the largest gap was
# 2.1 SE, the sum of the 40 squared gaps 41.7 (chance alone: 40 on average).
GAMES = 400
Z = AGREE_SE


def test_the_engines_landings_agree_with_the_chain() -> None:
    game = get_game("marble")
    options = resolve_options(game.options, {})
    ids = player_ids(4)
    bots = {p: game.bots["random"] for p in ids}
    collected = Analysis()
    for seed in range(1, GAMES + 1):
        played = play_recorded(game, options, ids, seed, bots)
        collected.add(played.record, played.state)
    assert collected.games == GAMES
    choices = Choices(escape_use=0.5)
    measured = collected.choices()
    assert measured.escape_use == pytest.approx(0.5, abs=0.15)
    chain = BoardChain.build(Rules(), choices)
    expected = chain.horizon_landings(collected.turns_at_least)
    shares, errors = collected.shares(), collected.share_errors()
    z: list[Any] = [abs(s - e) / se for s, e, se in zip(shares, expected, errors, strict=True)]
    worst = max(range(BOARD_SIZE), key=lambda p: z[p])
    assert z[worst] < Z, (worst, shares[worst], expected[worst], errors[worst])
    # and the test can fail: a chain without the lucky cards' moves is rejected
    no_cards = Rules(cards=tuple(("stay", 0) for _ in CARD_IDS), escape_card=None)
    wrong = BoardChain.build(no_cards, choices).horizon_landings(collected.turns_at_least)
    assert max(abs(s - w) / se for s, w, se in zip(shares, wrong, errors, strict=True)) > Z
    assert all(math.isfinite(e) and e > 0 for e in errors)
