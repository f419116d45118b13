"""How long the players watch a step before its next decision starts (the rooms' pause):
the client shows the first draw for seats, and a round-end screen before the next deal."""

from __future__ import annotations

from collections.abc import Sequence

from jokeapp.core.contract import Event

FIRST_DRAW_PAUSE = 4.0  # spec 4.1: the draw is shown as an animation
ROUND_OVER_PAUSE = 6.0  # the round's ranking and points before the next round's deal


def presentation_pause(events: Sequence[Event]) -> float:
    kinds = {event.get("type") for event in events}
    if "gameOver" in kinds:
        return 0.0  # nothing follows
    if "roundOver" in kinds:
        return ROUND_OVER_PAUSE
    if "firstRankDraw" in kinds:
        return FIRST_DRAW_PAUSE
    return 0.0
