"""Every level of both games: view-only knowledge, legal moves, budgets, determinism."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from jokeapp.core.bots import Bot, Budget, SeatKnowledge
from jokeapp.core.contract import Action
from jokeapp.core.errors import IllegalAction
from jokeapp.core.rng import Rng
from jokeapp.games import GAME_IDS, get_game
from jokeapp.games.dalmuti.state import DalmutiState
from jokeapp.games.marble.state import MarbleState
from jokeapp.sim.play import play_recorded, player_ids

LEVELS = ["random", "easy", "normal", "hard"]
TINY = Budget(iterations=4)
GAMES_PER_LEVEL = 24
STATE_TYPES = (MarbleState, DalmutiState)


def plain(value: Any) -> Any:
    """The same data as JSON would carry it: dicts, lists, strings, numbers, nothing else."""
    return json.loads(json.dumps(value))


def holds_no_state(value: Any) -> bool:
    if isinstance(value, STATE_TYPES):
        return False
    if isinstance(value, dict):
        return all(holds_no_state(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(holds_no_state(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


class Watched:
    """Wraps a bot: checks what it is handed, hands it a JSON-only copy, checks what it plays."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.asked = 0

    def __call__(self, knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
        assert type(knowledge) is SeatKnowledge
        assert holds_no_state([knowledge.view, list(knowledge.events), list(knowledge.legal)])
        copy = SeatKnowledge(
            knowledge.player,
            plain(knowledge.view),
            tuple(plain(list(knowledge.events))),
            tuple(plain(list(knowledge.legal))),
        )
        action = self.bot(copy, rng, budget)
        # The engine checks every action in full; here: it is one of the listed ones, up to
        # interchangeable cards (dalmuti lists one set per choice of numbers), or a trade
        # beyond the listed simple ones (legal too, marble legal.py).
        listed = [same_up_to_copies(a) for a in knowledge.legal]
        assert same_up_to_copies(action) in listed or action.get("type") == "PROPOSE_TRADE", action
        self.asked += 1
        return action


def same_up_to_copies(action: Action) -> Action:
    """Card ids ``NN-CC`` turned into their sorted numbers ``NN``: copies of a number are alike."""
    if "cardIds" not in action:
        return action
    return {**action, "cardIds": sorted(card.split("-")[0] for card in action["cardIds"])}


def random_setup(game_id: str, seed: int) -> tuple[dict[str, Any], list[str]]:
    game = get_game(game_id)
    pick = Rng.from_seed(seed * 7919 + 1)
    options = {spec.key: spec.choices[pick.below(len(spec.choices))] for spec in game.options}
    if game_id == "marble" and options["maxRounds"] == 0:
        options["maxRounds"] = 15  # keep the test fast; unlimited games are covered elsewhere
    if game_id == "dalmuti":
        options["rounds"] = 1
    players = player_ids(game.min_players + pick.below(game.max_players - game.min_players + 1))
    return options, players


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_actions_from_view_only_knowledge(
    game_id: str, level: str
) -> None:
    game = get_game(game_id)
    for seed in range(GAMES_PER_LEVEL):
        options, players = random_setup(game_id, seed)
        watched = Watched(game.bots[level])
        others = ["normal", "random"]
        bots = {
            p: watched if i % 2 == 0 else game.bots[others[(i // 2) % 2]]
            for i, p in enumerate(players)
        }
        try:
            played = play_recorded(game, options, players, seed, bots, budget=TINY)
        except IllegalAction as exc:  # pragma: no cover - the failure message names the move
            pytest.fail(f"{game_id} {level} seed {seed}: {exc}")
        assert played.record["result"] is not None
        assert watched.asked > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_same_seed_and_iteration_budget_give_the_same_game(game_id: str) -> None:
    game = get_game(game_id)
    players = player_ids(game.min_players)
    bots = {p: game.bots["hard"] for p in players}
    options = {"rounds": 1} if game_id == "dalmuti" else {"maxRounds": 15}
    first = play_recorded(game, options, players, 5, bots, budget=Budget(6))
    again = play_recorded(game, options, players, 5, bots, budget=Budget(6))
    assert first.record == again.record
    if (
        game_id == "dalmuti"
    ):  # marble's search keeps normal's move unless clearly beaten: often equal
        other = play_recorded(game, options, players, 5, bots, budget=Budget(12))
        assert other.record["steps"] != first.record["steps"]  # the budget is really used


def decision_with_a_choice(game_id: str) -> tuple[SeatKnowledge, Bot]:
    """A position where the hard bot must search (more than one move to weigh)."""
    game = get_game(game_id)
    players = player_ids(game.min_players)
    found: list[SeatKnowledge] = []

    class Spy:
        def __call__(
            self, knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None
        ) -> Action:
            kind = (
                knowledge.view["phase"]["kind"] if game_id == "dalmuti" else knowledge.view["phase"]
            )
            if not found and kind in ("playing", "decide") and len(knowledge.legal) >= 2:
                found.append(knowledge)
            return game.bots["normal"](knowledge, rng)

    spy = Spy()
    play_recorded(game, {}, players, 3, {p: spy for p in players})
    assert found
    return found[0], game.bots["hard"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_hard_bots_stop_at_their_iteration_budget(game_id: str) -> None:
    knowledge, hard = decision_with_a_choice(game_id)
    checks = 0

    def out_of_time() -> bool:
        nonlocal checks
        checks += 1
        return False

    hard(knowledge, Rng.from_seed(1), Budget(iterations=9, out_of_time=out_of_time))
    assert checks == 8  # asked after each of iterations 1..8; the 9th ends the search


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_hard_bots_stop_when_their_time_is_up(game_id: str) -> None:
    knowledge, hard = decision_with_a_choice(game_id)
    limit = 0.05
    started = time.perf_counter()
    stop = started + limit
    action = hard(knowledge, Rng.from_seed(1), Budget(10**9, lambda: time.perf_counter() >= stop))
    spent = time.perf_counter() - started
    assert action in knowledge.legal
    assert limit <= spent < limit + 0.25  # one iteration past the limit at most
