"""Bots: always legal, deterministic from their own generator, blind to hidden cards."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.core.bots import Budget
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.state import DalmutiState
from tests.botask import ask
from tests.dalmuti.helpers import FIVE, GAME, J1, J2, cards, position, top

BOT_NAMES = ["random", "easy", "normal", "hard"]
TINY = Budget(iterations=8)


def states_along_a_game(seed: int, options: dict[str, Any]) -> list[DalmutiState]:
    """Snapshots of a timeout-driven game, one every few steps."""
    state, _ = GAME.start(options, FIVE, seed)
    snapshots = []
    while not GAME.is_over(state):
        if state.seq % 5 == 0:
            snapshots.append(GAME.from_json(GAME.to_json(state)))
        player = GAME.pending(state)[0].player
        GAME.apply(state, player, GAME.on_timeout(state, player))
    return snapshots


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_is_legal_in_every_phase_and_uses_only_its_own_generator(name: str) -> None:
    phases = set()
    for options in ({"rounds": 1}, {"rounds": 1, "revolution": False, "passLocksOut": True}):
        for state in states_along_a_game(7, options):
            for entry in GAME.pending(state):
                before = GAME.to_json(state)
                action = ask(GAME, name, state, entry.player, Rng.from_seed(3), budget=TINY)
                assert GAME.to_json(state) == before  # the game's own rng untouched
                assert action == ask(GAME, name, state, entry.player, Rng.from_seed(3), budget=TINY)
                GAME.apply(GAME.from_json(before), entry.player, action)
                phases.add(state.phase.kind)
    assert phases == {"revolutionCheck", "taxReturn", "playing"}


def shuffle_hidden_cards(state: DalmutiState, player: str, rng: Rng) -> DalmutiState:
    """The same position as ``player`` sees it, with the other hands dealt differently."""
    copy: DalmutiState = GAME.from_json(GAME.to_json(state))
    others = [p for p in copy.players if p != player]
    pool = [c for p in others for c in copy.hands[p]]
    rng.shuffle(pool)
    for p in others:
        size = len(copy.hands[p])
        copy.hands[p], pool = sorted(pool[:size]), pool[size:]
    return copy


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_decides_only_on_what_its_player_may_see(name: str) -> None:
    rng = Rng.from_seed(11)
    for state in states_along_a_game(12, {"rounds": 1, "revolution": False}):
        if state.phase.kind != "playing":
            continue  # tax cards moved are known to the pair; keep the check to play
        player = state.current
        other = shuffle_hidden_cards(state, player, rng)
        mine = ask(GAME, name, state, player, Rng.from_seed(1), budget=TINY)
        assert mine == ask(GAME, name, other, player, Rng.from_seed(1), budget=TINY)


def test_heuristic_sheds_the_worst_whole_set_on_a_lead() -> None:
    hands = {
        "a": [*cards(2, 7, 7, 11, 11, 11), J1],
        "b": cards(12),
        "c": cards(11),
        "d": cards(10),
        "e": cards(9),
    }
    state = position(hands, current="a")
    assert ask(GAME, "heuristic", state, "a", Rng.from_seed(0)) == {
        "type": "play",
        "cardIds": cards(11, 11, 11),
    }


def test_heuristic_empties_its_hand_in_one_set_when_it_can() -> None:
    hands = {"a": [*cards(6, 6), J1], "b": cards(12), "c": cards(11), "d": cards(10), "e": cards(9)}
    state = position(hands, current="a")
    assert ask(GAME, "heuristic", state, "a", Rng.from_seed(0)) == {
        "type": "play",
        "cardIds": [*cards(6, 6), J1],
    }


def test_heuristic_follows_with_the_worst_beating_set_and_keeps_jesters_and_low_cards() -> None:
    hand = [*cards(2, 2, 5, 5, 5, 7, 7, 10, 10, 11, 11, 11), J1, J2]
    hands = {"a": cards(12, 12), "b": hand, "c": cards(11), "d": cards(10), "e": cards(9)}
    state = position(hands, trick=top("a", *cards(9, 9), rank=9), current="b")
    assert ask(GAME, "heuristic", state, "b", Rng.from_seed(0)) == {
        "type": "play",
        "cardIds": cards(7, 7),
    }
    state = position(hands, trick=top("a", *cards(3, 3), rank=3), current="b")
    assert ask(GAME, "heuristic", state, "b", Rng.from_seed(0)) == {"type": "pass"}


def test_heuristic_returns_the_worst_cards_and_revolts_when_it_pays() -> None:
    hands = {
        "a": [*cards(1, 3, 12, 12)],
        "b": cards(12),
        "c": cards(11),
        "d": cards(10),
        "e": [*cards(9), J1, J2],
    }
    owed = {
        "a": {"to": "e", "count": 2, "done": False},
        "b": {"to": "d", "count": 1, "done": False},
    }
    state = position(hands, phase={"kind": "taxReturn", "owed": owed})
    action = ask(GAME, "heuristic", state, "a", Rng.from_seed(0))
    assert sorted(action["cardIds"]) == cards(12, 12)
    check = position(
        hands, phase={"kind": "revolutionCheck", "confirmed": dict.fromkeys(FIVE, False)}
    )
    assert ask(GAME, "heuristic", check, "e", Rng.from_seed(0))["declareRevolution"] is True
    top_holder = position({**hands, "a": [*cards(1), J1, J2], "e": cards(9)}, phase=check_phase())
    assert ask(GAME, "heuristic", top_holder, "a", Rng.from_seed(0))["declareRevolution"] is False


def check_phase() -> dict[str, Any]:
    return {"kind": "revolutionCheck", "confirmed": dict.fromkeys(FIVE, False)}


def test_heuristic_finishes_ahead_of_random_bots_on_average() -> None:
    places: list[int] = []
    for seed in range(30):
        state, _ = GAME.start({"rounds": 3}, FIVE, seed)
        rng = Rng.from_seed(seed + 77)
        while not GAME.is_over(state):
            player = GAME.pending(state)[0].player
            name = "heuristic" if player == "a" else "random"
            GAME.apply(state, player, ask(GAME, name, state, player, rng))
        result = GAME.result(state)
        assert result is not None
        places += [r["rank"] for r in result["ranking"] if r["player"] == "a"]
    assert sum(places) / len(places) < 2.0  # a random seat averages 3.0
