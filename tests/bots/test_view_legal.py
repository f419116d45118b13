"""Each game lists a seat's legal actions from that seat's view alone, exactly as from the state."""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.core.rng import Rng
from jokeapp.games import GAME_IDS, get_game
from jokeapp.sim.play import player_ids

GAMES_PER_ID = 40


def random_options(game: Any, pick: Rng) -> dict[str, Any]:
    return {spec.key: spec.choices[pick.below(len(spec.choices))] for spec in game.options}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_legal_actions_from_view_equal_legal_actions_over_random_play(game_id: str) -> None:
    game = get_game(game_id)
    checked = 0
    for seed in range(GAMES_PER_ID):
        pick = Rng.from_seed(seed)
        options = random_options(game, pick)
        players = player_ids(game.min_players + pick.below(game.max_players - game.min_players + 1))
        if game_id == "marble":
            options["maxRounds"] = 15  # the shortest: long enough for debts, trades and the island
        state, _ = game.start(options, players, seed)
        while not game.is_over(state):
            for player in players:  # every seat, pending or not, and a spectator
                assert game.legal_actions_from_view(
                    game.view(state, player), player
                ) == game.legal_actions(state, player), (seed, player)
            assert game.legal_actions_from_view(game.view(state, None), players[0]) == []
            pending = game.pending(state)[0].player
            legal = game.legal_actions(state, pending)
            action = legal[pick.below(len(legal))] if legal else game.on_timeout(state, pending)
            game.apply(state, pending, action)
            checked += 1
    assert checked > 1000
