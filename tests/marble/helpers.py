"""Setting up marble positions by hand, with dice fixed in advance.

``rng_rolling`` finds a real SFC32 state whose next rolls are the dice asked for, by sliding
along one generator's stream: the engine under test uses the genuine generator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.contract import Event
from jokeapp.core.rng import Rng
from jokeapp.games import get_game
from jokeapp.games.marble.game import MarbleGame
from jokeapp.games.marble.state import MarbleState

GAME = get_game("marble")
assert isinstance(GAME, MarbleGame)
MARBLE: MarbleGame = GAME  # the same object, typed for mypy inside functions

Dice = tuple[int, int]


def _yields(rng: Rng, dice: Sequence[Dice]) -> bool:
    probe = rng.copy()
    return all(probe.die() == a and probe.die() == b for a, b in dice)


def rng_rolling(*dice: Dice, start_seed: int = 1) -> Rng:
    """An Rng whose next ``len(dice)`` rolls are exactly ``dice`` (two dice each)."""
    stream = Rng.from_seed(start_seed)
    for _ in range(50_000_000):
        if _yields(stream, dice):
            return stream.copy()
        stream.next_u32()
    raise AssertionError(f"no stream position rolls {dice}")


def table(
    players: Mapping[str, Mapping[str, Any]],
    *,
    dice: Sequence[Dice] = (),
    owners: Mapping[int, tuple[str, int]] | None = None,
    options: Mapping[str, Any] | None = None,
    deck: Sequence[str] | None = None,
    **fields: Any,
) -> MarbleState:
    """A state from the spec's JSON shape; players act in the order given, first to move."""
    data: dict[str, Any] = {
        "options": dict(options or {}),
        "order": list(players),
        "players": {pid: dict(p) for pid, p in players.items()},
        "owners": {str(pos): {"owner": o, "level": lv} for pos, (o, lv) in (owners or {}).items()},
        **fields,
    }
    if deck is not None:
        data["deck"] = list(deck)
    state = MARBLE.from_json(data)
    if dice:
        state.rng = rng_rolling(*dice)
    return state


def act(state: MarbleState, player: str, kind: str, **fields: Any) -> list[Event]:
    return GAME.apply(state, player, {"type": kind, **fields})


def kinds(events: Sequence[Event]) -> list[str]:
    return [e["type"] for e in events]


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def deck_with(*top: str) -> list[str]:
    """A full deck with these cards on top in this order."""
    from jokeapp.games.marble.data import CARD_IDS

    return list(top) + [c for c in CARD_IDS if c not in top]


def roll(state: MarbleState, player: str, first: int, second: int) -> list[Event]:
    """ROLL with the dice fixed to (first, second)."""
    state.rng = rng_rolling((first, second))
    return act(state, player, "ROLL")


def at(pos: int, cash: int = 300, **fields: Any) -> dict[str, Any]:
    """One player's JSON, standing on ``pos``."""
    return {"pos": pos, "cash": cash, **fields}
