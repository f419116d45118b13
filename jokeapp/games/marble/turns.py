"""Ending a turn, rounds, and the end of the game (spec 5.1, 5.6)."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.ranking import build_result
from jokeapp.games.marble.state import FINISHED, TURN_START, MarbleState

# maxRounds=0 means "until bankruptcy"; two careful players can out-earn every toll forever,
# so even an unlimited table closes, by total assets, after this many rounds.
UNLIMITED_ROUNDS_CAP = 100


def finish_game(
    state: MarbleState, events: list[Event], reason: str, monopoly: tuple[str, str] | None = None
) -> None:
    state.phase = FINISHED
    state.decision = None
    state.debt = None
    state.pending_trade = None
    state.extra_roll = False
    state.result = build_result(state, reason, monopoly)
    events.append({"type": "gameOver", "result": build_result(state, reason, monopoly)})


def end_turn(state: MarbleState, events: list[Event]) -> None:
    """Hands the turn to the next survivor; passing the end of the order closes a round.

    Wrapping past the end of ``order`` is what makes the first *surviving* seat the round's
    reference when the first seat has gone bankrupt.
    """
    if state.phase == FINISHED:
        return
    order, players = state.order, state.players
    count = len(order)
    nxt = state.current
    wrapped = False
    for _ in range(count):
        nxt += 1
        if nxt >= count:
            nxt = 0
            wrapped = True
        if players[order[nxt]].alive:
            break
    if wrapped:
        events.append({"type": "roundEnd", "round": state.round})
        max_rounds: int = state.options["maxRounds"] or UNLIMITED_ROUNDS_CAP
        if state.round >= max_rounds:
            finish_game(state, events, "roundLimit")
            return
        state.round += 1
    state.current = nxt
    state.phase = TURN_START
    state.decision = None
    state.doubles_this_turn = 0
    state.cards_this_turn = 0
    state.trades_this_turn = 0
    state.extra_roll = False
    state.turn_seq += 1


def after_landing(state: MarbleState, events: list[Event]) -> None:
    """The arrival is dealt with: roll again after a double, otherwise the turn ends."""
    if state.phase == FINISHED:
        return
    state.decision = None
    if state.extra_roll and state.players[state.order[state.current]].alive:
        state.phase = TURN_START
        return
    end_turn(state, events)
