"""Playing one game between bots, with or without writing its record."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jokeapp.core.bots import Bot, Budget, SeatLog
from jokeapp.core.contract import Game, next_player
from jokeapp.core.record import Recorder
from jokeapp.core.rng import Rng

# Bots draw from their own generator, derived from the game's seed by this fixed offset, so a
# game's dice never depend on the bots and a bot's choices never depend on the dice stream.
BOT_SEED_OFFSET = 0x9E3779B97F4A7C15
# A game may legitimately never end (marble with maxRounds = 0 ends only by bankruptcy), so a
# headless run stops a game at this many steps and records it as cut off (DESIGN.md, records).
DEFAULT_MAX_STEPS = 20_000
MAX_STEPS = 100_000  # the benchmark loop's guard: its default-option games always end


class GameDidNotEnd(RuntimeError):
    """A game ran past MAX_STEPS or stopped with no one to act before its end: a rules or bot
    defect, never a normal outcome."""


@dataclass(frozen=True, slots=True)
class PlayedGame:
    seed: int
    players: list[str]
    record: dict[str, Any]
    state: Any
    steps: int
    cut_off: bool = False  # stopped at the step cap, not finished: the record has no result


def player_ids(count: int) -> list[str]:
    return [f"p{i}" for i in range(1, count + 1)]


def bot_rng(seed: int) -> Rng:
    return Rng.from_seed((seed + BOT_SEED_OFFSET) & 0xFFFFFFFFFFFFFFFF)


def play_recorded(
    game: Game[Any],
    options: Mapping[str, Any],
    players: Sequence[str],
    seed: int,
    bots: Mapping[str, Bot],
    with_states: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    budget: Budget | Callable[[], Budget] | None = None,
    on_move: Callable[[str, float], None] | None = None,
) -> PlayedGame:
    """Plays to the end or to ``max_steps`` steps, whichever comes first (then the record is
    cut off); when several players are pending, the first listed acts first.

    Each bot is asked with its seat's knowledge only (core.bots.SeatLog.decider). ``budget`` goes to
    every bot (search bots read it); a callable makes a fresh one per move (a time limit).
    ``on_move(player, seconds)`` hears how long each move took."""
    recorder = Recorder.begin(game, options, players, seed, with_states)
    seats = SeatLog(game, players, recorder.record["setupEvents"], recorder.options)
    rng = bot_rng(seed)
    state = recorder.state
    to_act = next_player(game)
    steps = 0
    while (player := to_act(state)) is not None:
        if steps >= max_steps:
            recorder.cut_off()
            return PlayedGame(seed, list(players), recorder.record, state, steps, cut_off=True)
        decide = seats.decider(bots[player])
        started = time.perf_counter()
        action = decide(state, player, rng, budget() if callable(budget) else budget)
        if on_move is not None:
            on_move(player, time.perf_counter() - started)
        seats.add(recorder.step(player, action))
        steps += 1
    _check_over(game, state, seed)
    return PlayedGame(seed, list(players), recorder.record, state, steps)


def play_fast(
    game: Game[Any],
    options: Mapping[str, Any],
    players: Sequence[str],
    seed: int,
    policy: Bot,
) -> tuple[Any, int]:
    """The benchmark loop: no record, one policy for every seat. Returns (state, steps)."""
    state, setup_events = game.start(options, players, seed)
    seats = SeatLog(game, players, setup_events, options)
    rng = bot_rng(seed)
    apply, to_act = game.apply, next_player(game)
    decide, add = seats.decider(policy), seats.add
    for steps in range(MAX_STEPS):  # noqa: B007 - the count is read after the loop
        if (player := to_act(state)) is None:
            break
        add(apply(state, player, decide(state, player, rng, None)))
    else:
        steps = MAX_STEPS
        if to_act(state) is not None:
            raise GameDidNotEnd(f"{game.id} seed {seed}: no end after {MAX_STEPS} steps")
    _check_over(game, state, seed)
    return state, steps


def _check_over(game: Game[Any], state: Any, seed: int) -> None:
    """No one is left to act: the game must be over (else its rules are stuck)."""
    if not game.is_over(state):
        raise GameDidNotEnd(f"{game.id} seed {seed}: no one to act before the end")
