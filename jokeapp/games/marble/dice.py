"""ROLL (spec 5.1): two dice, doubles, the third double, and the move."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.actions import reject
from jokeapp.games.marble.data import BOARD_SIZE, MAX_DOUBLES
from jokeapp.games.marble.island import island_roll
from jokeapp.games.marble.landing import land
from jokeapp.games.marble.movement import send_to_island
from jokeapp.games.marble.state import TURN_START, MarbleState
from jokeapp.games.marble.turns import end_turn


def roll(state: MarbleState, events: list[Event], actor: str) -> None:
    # require_current(state, actor, TURN_START), its two checks inline (most moves are rolls)
    if state.order[state.current] != actor:
        reject("not_your_turn")
    if state.phase != TURN_START:
        reject("wrong_phase")
    piece = state.players[actor]
    if piece.space_pending:
        reject("space_pending")
    if piece.island_left > 0:
        island_roll(state, events, actor)
        return
    state.last_roll = first, second = state.rng.dice()
    double = first == second
    events.append({"type": "rolled", "player": actor, "dice": [first, second], "double": double})
    state.extra_roll = double
    if double:
        state.doubles_this_turn += 1
        if state.doubles_this_turn >= MAX_DOUBLES:
            send_to_island(state, events, actor, "tripleDouble")
            end_turn(state, events)
            return
    # move_forward(state, events, actor, first + second, "dice"), inline (every roll)
    start = piece.pos
    total = start + first + second
    passed = total >= BOARD_SIZE
    piece.pos = to = total - BOARD_SIZE if passed else total  # total % BOARD_SIZE: below 2 laps
    events.append(
        {
            "type": "moved",
            "player": actor,
            "from": start,
            "to": to,
            "passedStart": passed,
            "by": "dice",
        }
    )
    if passed:
        salary: int = state.options.salary
        piece.cash += salary
        events.append({"type": "salary", "player": actor, "amount": salary})
    land(state, events)
