"""독점 (spec 5.7): which monopoly, if any, a player holds (triple, line or tour).

Pure detection; ending the game on a monopoly is turns.check_monopoly, and the result of a
finished game (ranking.game_result) asks the same question.
"""

from __future__ import annotations

from jokeapp.games.marble.data import GROUPS, LINES, TOURS
from jokeapp.games.marble.state import MarbleState

TRIPLE_GROUPS = 3


def monopoly_kind(state: MarbleState, player: str) -> str | None:
    owned = {pos for pos, deed in state.owners.items() if deed.owner == player}
    if all(pos in owned for pos in TOURS):
        return "tour"
    if any(all(pos in owned for pos in line) for line in LINES):
        return "line"
    full_groups = sum(1 for cities in GROUPS.values() if all(pos in owned for pos in cities))
    if full_groups >= TRIPLE_GROUPS:
        return "triple"
    return None
