"""What a marble seat knows of the deck's order, checked against the real deck."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from jokeapp.core.bots import Budget, SeatKnowledge
from jokeapp.core.contract import Action
from jokeapp.core.rng import Rng
from jokeapp.games import get_game
from jokeapp.games.marble.known_deck import known_deck
from jokeapp.games.marble.state import MarbleState
from jokeapp.sim.play import play_recorded, player_ids


@pytest.mark.pure_engines  # patches or subclasses an engine module
def test_the_seen_cards_tell_the_bottom_of_the_deck_exactly() -> None:
    game = get_game("marble")
    normal = game.bots["normal"]
    checked = {"bottom": 0, "whole": 0}
    decks: list[list[str]] = []

    class Checker:
        def __call__(
            self, knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None
        ) -> Action:
            deck = known_deck(knowledge.view, knowledge.events)
            assert deck is not None
            real = decks[-1]
            top = len(deck.unknown)
            assert sorted(real[:top]) == sorted(deck.unknown)
            assert real[top:] == deck.bottom
            checked["bottom"] += bool(deck.bottom)
            checked["whole"] += not deck.unknown
            return normal(knowledge, rng)

    checker = Checker()
    # how play_recorded finds the seat it asks (core.contract.next_player)
    original: Callable[[MarbleState], str | None] = game.next_player  # type: ignore[attr-defined]

    def next_player(state: MarbleState) -> str | None:
        decks.append(list(state.deck))  # the real deck, just before each seat is asked
        return original(state)

    game.next_player = next_player  # type: ignore[attr-defined]
    try:
        players = player_ids(4)
        for seed in range(2):
            options = {"maxRounds": 30, "startMoney": 500}  # long games: the deck goes round
            play_recorded(game, options, players, seed, {p: checker for p in players})
    finally:
        del game.next_player  # type: ignore[attr-defined]
    assert checked["bottom"] > 0 and checked["whole"] > 0


def test_events_since_a_snapshot_tell_less_but_nothing_false() -> None:
    game = get_game("marble")
    players = player_ids(2)
    seen: list[SeatKnowledge] = []

    def spy(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
        seen.append(knowledge)
        return game.bots["normal"](knowledge, rng)

    play_recorded(game, {}, players, 1, {p: spy for p in players})
    late = seen[-1]
    whole = known_deck(late.view, late.events)
    assert whole is not None and whole.bottom
    drawn = [i for i, e in enumerate(late.events) if e["type"] == "cardDrawn"]
    since = known_deck(late.view, late.events[drawn[len(drawn) // 2] :])
    # a match restored from a snapshot: the earlier draws are unknown cards again
    assert since is not None
    assert len(since.bottom) < len(whole.bottom)
    assert whole.bottom[len(whole.bottom) - len(since.bottom) :] == since.bottom
