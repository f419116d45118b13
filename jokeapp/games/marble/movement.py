"""Moving pieces: dice steps, card and space moves, salary on passing 출발, the island."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.data import BOARD_SIZE, ISLAND_POS
from jokeapp.games.marble.state import MarbleState


def pay_salary(state: MarbleState, events: list[Event], player: str) -> None:
    amount: int = state.options.salary
    state.players[player].cash += amount
    events.append({"type": "salary", "player": player, "amount": amount})


def move_forward(state: MarbleState, events: list[Event], player: str, steps: int, by: str) -> None:
    """Clockwise; passing or landing on 출발 pays one salary."""
    piece = state.players[player]
    start = piece.pos
    total = start + steps
    passed = total >= BOARD_SIZE
    piece.pos = total % BOARD_SIZE
    events.append(
        {
            "type": "moved",
            "player": player,
            "from": start,
            "to": piece.pos,
            "passedStart": passed,
            "by": by,
        }
    )
    if passed:  # pay_salary, inline (every lap)
        amount: int = state.options.salary
        piece.cash += amount
        events.append({"type": "salary", "player": player, "amount": amount})


def move_to(state: MarbleState, events: list[Event], player: str, dest: int, by: str) -> None:
    """Forward to ``dest``; a move onto the square one stands on goes a full lap."""
    steps = (dest - state.players[player].pos) % BOARD_SIZE or BOARD_SIZE
    move_forward(state, events, player, steps, by)


def move_back(state: MarbleState, events: list[Event], player: str, steps: int) -> None:
    """Backwards never pays a salary, even across 출발 (L16)."""
    piece = state.players[player]
    start = piece.pos
    piece.pos = (start - steps) % BOARD_SIZE
    events.append(
        {
            "type": "moved",
            "player": player,
            "from": start,
            "to": piece.pos,
            "passedStart": False,
            "by": "card",
        }
    )


def send_to_island(state: MarbleState, events: list[Event], player: str, reason: str) -> None:
    """Straight to 무인도: no salary on the way, and the run of doubles is broken."""
    piece = state.players[player]
    piece.pos = ISLAND_POS
    piece.island_left = state.options.island_turns
    state.extra_roll = False
    events.append({"type": "toIsland", "player": player, "reason": reason})
