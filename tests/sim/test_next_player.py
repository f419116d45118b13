"""Who acts next in the simulator's loops (core.contract.next_player): the first pending
player, without the Pending list where a game answers itself (marble), and None exactly when
the game is over."""

from __future__ import annotations

import pytest

from jokeapp.core.contract import next_player
from jokeapp.core.rng import Rng
from jokeapp.games import GAME_IDS, get_game
from tests.bots.test_fast_knowledge import random_setup


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_next_player_is_the_first_pending_one_and_none_only_at_the_end(game_id: str) -> None:
    game = get_game(game_id)
    to_act = next_player(game)
    moves = 0
    for seed in range(20):
        options, players = random_setup(game, seed)
        state, _ = game.start(options, players, seed)
        pick = Rng.from_seed(seed)
        while not game.is_over(state):
            pending = game.pending(state)
            assert to_act(state) == pending[0].player
            legal = game.legal_actions(state, pending[0].player)
            action = (
                legal[pick.below(len(legal))]
                if legal
                else game.on_timeout(state, pending[0].player)
            )
            game.apply(state, pending[0].player, action)
            moves += 1
        assert to_act(state) is None
    assert moves > 500
