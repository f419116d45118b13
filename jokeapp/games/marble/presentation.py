"""How long the players watch a step before its next decision starts (the rooms' pause).

The client walks a token square by square (``client/src/games/marble/animation.ts``: 110 ms
a square); giving 120 ms a square, at most 2 s, keeps the walk from eating the decision time.
"""

from __future__ import annotations

from collections.abc import Sequence

from jokeapp.core.contract import Event
from jokeapp.games.marble.data import BOARD_SIZE

SECONDS_PER_SQUARE = 0.12
MAX_PAUSE = 2.0


def presentation_pause(events: Sequence[Event]) -> float:
    squares = 0
    for event in events:
        if event.get("type") != "moved":
            continue
        walk = (int(event["to"]) - int(event["from"])) % BOARD_SIZE
        if event.get("by") == "space":
            walk = 1  # a jump
        elif event.get("by") == "card" and walk > BOARD_SIZE // 2:
            walk = BOARD_SIZE - walk  # a card that sends the token back walks backwards
        squares += walk
    return min(MAX_PAUSE, squares * SECONDS_PER_SQUARE)
