"""독점 승리 (spec 5.7): triple, line and tour monopolies, checked whenever land changes hands."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.data import GROUPS, LINES, TOURS
from jokeapp.games.marble.state import MarbleState
from jokeapp.games.marble.turns import finish_game

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


def check_monopoly(state: MarbleState, events: list[Event], player: str) -> bool:
    """Ends the game at once when ``monopolyWin`` is on and ``player`` holds a monopoly."""
    if not state.options["monopolyWin"]:
        return False
    kind = monopoly_kind(state, player)
    if kind is None:
        return False
    events.append({"type": "monopoly", "player": player, "kind": kind})
    finish_game(state, events, "monopoly", (player, kind))
    return True
