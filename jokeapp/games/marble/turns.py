"""Ending a turn, rounds, and the end of the game (spec 5.1, 5.6)."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.monopoly import monopoly_kind
from jokeapp.games.marble.ranking import game_result
from jokeapp.games.marble.state import FINISHED, TURN_START, MarbleState


def finish_game(state: MarbleState, events: list[Event]) -> None:
    """The game is over; its result is computed from the finished state (spec 6), so the
    ``gameOver`` event and ``result()`` of this or any hand-written finished state agree."""
    state.phase = FINISHED
    state.decision = None
    state.debt = None
    state.pending_trade = None
    state.extra_roll = False
    events.append({"type": "gameOver", "result": game_result(state)})


def check_monopoly(state: MarbleState, events: list[Event], player: str) -> bool:
    """Ends the game at once when ``monopolyWin`` is on and ``player`` holds a monopoly."""
    if not state.options.monopoly_win:
        return False
    kind = monopoly_kind(state, player)
    if kind is None:
        return False
    events.append({"type": "monopoly", "player": player, "kind": kind})
    finish_game(state, events)
    return True


def end_turn(state: MarbleState, events: list[Event]) -> None:
    """Hands the turn to the next survivor; passing the end of the order closes a round. A
    roll again earned by a double is lost (after_landing with no extra roll)."""
    if state.phase == FINISHED:
        return
    state.extra_roll = False
    after_landing(state, events)


def after_landing(state: MarbleState, events: list[Event]) -> None:
    """The arrival is dealt with: roll again after a double, otherwise the turn passes to the
    next survivor (the end of the turn, here: most turns end by this, in one call).

    Wrapping past the end of ``order`` is what makes the first *surviving* seat the round's
    reference when the first seat has gone bankrupt.
    """
    if state.phase == FINISHED:
        return
    state.decision = None
    order, players = state.order, state.players
    current = state.current
    if state.extra_roll and players[order[current]].alive:
        state.phase = TURN_START
        return
    count = len(order)
    nxt = current + 1
    wrapped = False
    if nxt == count:
        nxt = 0
        wrapped = True
    if not players[order[nxt]].alive:  # the next seat is out: on round the table
        for _ in range(count - 1):
            nxt += 1
            if nxt == count:
                nxt = 0
                wrapped = True
            if players[order[nxt]].alive:
                break
    if wrapped:
        events.append({"type": "roundEnd", "round": state.round})
        # maxRounds = 0 is no limit at all (spec 2): such a game ends only by bankruptcy
        # (or a monopoly, with that option); a tool that must stop caps its own steps.
        max_rounds: int = state.options.max_rounds
        if max_rounds and state.round >= max_rounds:
            finish_game(state, events)
            return
        state.round += 1
    state.current = nxt
    state.phase = TURN_START
    state.doubles_this_turn = 0
    state.cards_this_turn = 0
    state.trades_this_turn = 0
    state.extra_roll = False
    state.turn_seq += 1
