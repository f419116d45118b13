"""The foresight ceiling: a seat that sees the real future picks the move whose future wins."""

from __future__ import annotations

from jokeapp.core.contract import Action
from jokeapp.core.options import resolve_options
from jokeapp.games import get_game
from jokeapp.games.marble.bots import normal_move
from jokeapp.games.marble.legal import legal_actions
from jokeapp.games.marble.search import RULES, candidates
from jokeapp.games.marble.serial import from_json, to_json
from jokeapp.games.marble.state import DECIDE, MarbleState
from jokeapp.sim.foresight import foresight_move, played_out, run
from jokeapp.sim.play import player_ids


def _choices(seed: int) -> list[tuple[MarbleState, str]]:
    """Positions of a normal game where the seat has more than one move to weigh."""
    game = get_game("marble")
    options = resolve_options(game.options, {})
    state = game.setup(options, player_ids(2), seed)
    found = []
    while not game.is_over(state):
        actor = game.pending(state)[0].player
        if state.phase == DECIDE and len(candidates(state, actor, legal_actions(state, actor))) > 1:
            found.append((from_json(to_json(state)), actor))
        game.apply(state, actor, normal_move(state, actor))
    return found


def _future(state: MarbleState, player: str, move: Action) -> tuple[float, int]:
    copy = from_json(to_json(state))
    RULES.apply(copy, player, move)
    return played_out(copy, player)


def test_the_seer_picks_a_move_whose_real_future_is_best_and_leaves_the_state_alone() -> None:
    positions = _choices(3)[:5]
    assert positions
    for state, player in positions:
        before = to_json(state)
        chosen = foresight_move(state, player)
        assert to_json(state) == before
        moves = candidates(state, player, legal_actions(state, player))
        assert chosen in moves
        assert _future(state, player, chosen) == max(_future(state, player, m) for m in moves)


def test_the_ceiling_is_measured_over_rotated_seats() -> None:
    options = resolve_options(get_game("marble").options, {})
    summary = run(4, 2, 1, options, "all")
    assert summary["games"] == 4
    lo, hi = summary["ci"]
    assert 0 <= lo <= summary["share"] <= hi <= 1
