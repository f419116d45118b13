"""`python -m jokeapp.sim.foresight`: how much marble's choices can be worth at most.

A seat that sees the future (the real dice and deck, read off the state, which no bot is ever
handed) weighs each of the hard bot's candidate moves (search.candidates) on a copy of the
real state, plays the game out with normal's rules for every seat, and keeps the move that
wins (then the one with the larger margin). Every future it plays is the real one, as long as
everyone then plays as normal would. Its share against normal, seats rotated as in the
tournament, bounds what a search over those choices can gain: an honest seat knows only the
chances of those futures and must choose before the dice fall. ``--only`` limits the foresight
to one kind of choice (buy or build, the space travel destination), normal's move elsewhere.

A measuring tool, not a bot: it reads the state, so it is offered nowhere.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from jokeapp.core.contract import Action
from jokeapp.core.options import resolve_options
from jokeapp.games import get_game
from jokeapp.games.marble.bots import normal_move
from jokeapp.games.marble.game import MarbleGame
from jokeapp.games.marble.legal import legal_actions
from jokeapp.games.marble.ranking import game_result, total_assets
from jokeapp.games.marble.search import RULES, candidates
from jokeapp.games.marble.serial import from_json, to_json
from jokeapp.games.marble.state import DECIDE, TURN_START, MarbleState
from jokeapp.sim.options_arg import parse_option
from jokeapp.sim.play import player_ids
from jokeapp.sim.tournament import seating, wilson

KINDS = ("all", "decide", "space")
LONGEST = 20_000  # actions: the simulator's step cap


def _kind(state: MarbleState, player: str) -> str:
    if state.phase == DECIDE:
        return "decide"
    if state.phase == TURN_START and state.players[player].space_pending:
        return "space"
    return "other"


def played_out(state: MarbleState, player: str) -> tuple[float, int]:
    """Played out with normal's rules: (won, margin over the best other)."""
    for _ in range(LONGEST):
        if RULES.is_over(state):
            break
        actor = RULES.pending(state)[0].player
        RULES.apply(state, actor, normal_move(state, actor))
    result = game_result(state)
    winners = result["winners"] if result is not None else []
    won = 1 / len(winners) if player in winners else 0.0
    mine = total_assets(state, player)
    return won, mine - max(total_assets(state, p) for p in state.order if p != player)


def foresight_move(state: MarbleState, player: str, only: str = "all") -> Action:
    moves = candidates(state, player, legal_actions(state, player))
    if len(moves) == 1 or only not in ("all", _kind(state, player)):
        return moves[0]
    saved = to_json(state)  # with the deck and the rng: the real future

    def future(move: Action) -> tuple[float, int]:
        copy = from_json(saved)
        RULES.apply(copy, player, move)
        return played_out(copy, player)

    return max(moves, key=future)


def play(
    game: MarbleGame,
    options: dict[str, Any],
    players: Sequence[str],
    seed: int,
    seers: set[str],
    only: str,
) -> dict[str, Any] | None:
    state = game.setup(options, players, seed)
    for _ in range(LONGEST):
        if game.is_over(state):
            return game_result(state)
        actor = game.pending(state)[0].player
        move = foresight_move(state, actor, only) if actor in seers else normal_move(state, actor)
        game.apply(state, actor, move)
    return None


def run(games: int, players: int, seed: int, options: dict[str, Any], only: str) -> dict[str, Any]:
    """Seats rotated as in the tournament (each deal once in each rotation); the share is the
    seers' part of the wins the two kinds of seat took."""
    game = get_game("marble")
    assert isinstance(game, MarbleGame)
    ids = player_ids(players)
    won = contested = 0.0
    for index in range(games):
        seats = dict(zip(ids, seating(["foresight", "normal"], players, index), strict=True))
        seers = {p for p, name in seats.items() if name == "foresight"}
        result = play(game, options, ids, seed + index // 2, seers, only)
        if result is None:
            continue
        winners = result["winners"]
        won += sum(1 / len(winners) for p in winners if p in seers)
        contested += 1
    lo, hi = wilson(won, contested)
    share = won / contested if contested else 0.0
    return {"games": games, "share": round(share, 4), "ci": [round(lo, 4), round(hi, 4)]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jokeapp.sim.foresight")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=KINDS, default="all")
    parser.add_argument(
        "--option", action="append", type=parse_option, default=[], metavar="KEY=VALUE"
    )
    args = parser.parse_args(argv)
    options = resolve_options(get_game("marble").options, dict(args.option))
    summary = run(args.games, args.players, args.seed, options, args.only)
    lo, hi = summary["ci"]
    print(
        f"foresight ({args.only}) against normal, {args.players} players, {args.games} games: "
        f"{summary['share']:.1%} [{lo:.1%}, {hi:.1%}]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
