"""Building dalmuti positions by hand (through from_json) and reading them back."""

from __future__ import annotations

import json
import re
from typing import Any

from jokeapp.games import get_game
from jokeapp.games.dalmuti.state import DalmutiState

GAME = get_game("dalmuti")
FIVE = ["a", "b", "c", "d", "e"]
J1, J2 = "13-01", "13-02"
CARD_ID = re.compile(r"\b\d\d-\d\d\b")


def card(number: int, copy: int = 1) -> str:
    """The id of copy ``copy`` of ``number`` (13 is a jester)."""
    return f"{number:02d}-{copy:02d}"


def cards(*numbers: int) -> list[str]:
    """Ids for the given numbers, taking successive copies of a repeated number."""
    used: dict[int, int] = {}
    out = []
    for number in numbers:
        used[number] = used.get(number, 0) + 1
        out.append(card(number, used[number]))
    return out


def position(
    hands: dict[str, list[Any]],  # card ids, or {"id", "n"} objects
    *,
    order: list[str] | None = None,
    options: dict[str, Any] | None = None,
    phase: dict[str, Any] | None = None,
    trick: dict[str, Any] | None = None,
    current: str | None = None,
    **extra: Any,
) -> DalmutiState:
    players = list(hands)
    data: dict[str, Any] = {
        "options": options or {},
        "players": players,
        "order": order or players,
        "hands": hands,
        "phase": phase or {"kind": "playing"},
        **extra,
    }
    if trick is not None:
        data["trick"] = trick
    if current is not None:
        data["current"] = current
    state: DalmutiState = GAME.from_json(data)
    return state


def top(by: str, *ids: str, rank: int) -> dict[str, Any]:
    """A trick whose top (and only) set is ``ids`` played by ``by``."""
    played = {"cardIds": list(ids), "count": len(ids), "rank": rank, "by": by}
    return {"leader": by, "top": played, "passesSinceTop": [], "lockedOut": [], "pile": [played]}


def hand_ids(state: DalmutiState, player: str) -> list[str]:
    return [c["id"] for c in GAME.to_json(state)["hands"][player]]


def ids_in(obj: Any) -> set[str]:
    """Every card id written anywhere in a JSON-able object."""
    return set(CARD_ID.findall(json.dumps(obj)))


def give_both_jesters(state: DalmutiState, player: str) -> None:
    """Moves both jesters into ``player``'s hand in place, each swapped for one of their
    number cards, so every hand keeps its size (the live state, not a JSON copy)."""
    from jokeapp.games.dalmuti.data import JESTERS

    for jester in JESTERS:
        holder = next(p for p, hand in state.hands.items() if jester in hand)
        if holder == player:
            continue
        mine = state.hands[player]
        swapped = next(c for c in mine if c not in JESTERS)
        mine.remove(swapped)
        mine.append(jester)
        state.hands[holder].remove(jester)
        state.hands[holder].append(swapped)
        mine.sort()
        state.hands[holder].sort()
