"""The wire shape of every action of spec 8.2, checked before any rule is looked at."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from jokeapp.core.errors import IllegalAction
from jokeapp.games.marble.data import BOARD_SIZE
from jokeapp.games.marble.state import MarbleState

ROLL = "ROLL"
PAY_ISLAND_FEE = "PAY_ISLAND_FEE"
USE_ESCAPE_CARD = "USE_ESCAPE_CARD"
SPACE_TRAVEL = "SPACE_TRAVEL"
BUY = "BUY"
BUILD = "BUILD"
TAKEOVER = "TAKEOVER"
PASS = "PASS"
SELL = "SELL"
PROPOSE_TRADE = "PROPOSE_TRADE"
TRADE_RESPOND = "TRADE_RESPOND"
CONCEDE = "CONCEDE"

# type -> {field: python type}; exact types, so True is not a level and 1 is not an answer.
FIELDS: dict[str, dict[str, type]] = {
    ROLL: {},
    PAY_ISLAND_FEE: {},
    USE_ESCAPE_CARD: {},
    SPACE_TRAVEL: {"dest": int},
    BUY: {},
    BUILD: {"level": int},
    TAKEOVER: {},
    PASS: {},
    SELL: {"pos": int, "what": str},
    PROPOSE_TRADE: {"to": str, "give": dict, "take": dict},
    TRADE_RESPOND: {"accept": bool},
    CONCEDE: {},
}
SELL_WHAT = ("top", "all")

# One action of each type without fields, shared: the legal actions a bot is handed alone
# (legal.legal_sequence) are these very dicts, and apply tells a ROLL by identity first.
# Nobody may change them (a caller that keeps or edits an action copies it: on_timeout).
SHARED: dict[str, dict[str, Any]] = {kind: {"type": kind} for kind, f in FIELDS.items() if not f}


def reject(code: str, detail: Mapping[str, Any] | None = None) -> NoReturn:
    """Raises the refusal ``code`` (its message comes from jokeapp.core.codes)."""
    raise IllegalAction(code, detail)


def malformed() -> NoReturn:
    reject("malformed_action")


def action_type(action: Any) -> str:
    """The action's type once its fields are exactly right; IllegalAction otherwise."""
    if type(action) is not dict:
        malformed()
    kind = action.get("type")
    if type(kind) is not str or (fields := FIELDS.get(kind)) is None:
        reject("unknown_action")
    if len(action) != len(fields) + 1:
        malformed()
    if fields:  # most actions have none
        for name, expected in fields.items():
            if type(action.get(name)) is not expected:
                malformed()
    return kind


def board_pos(value: int) -> int:
    if not 0 <= value < BOARD_SIZE:
        reject("bad_pos")
    return value


def trade_side(side: dict[str, Any]) -> tuple[list[int], int]:
    """One side of a trade, ``{"lands": [pos, ...], "cash": n}``, checked for shape only."""
    if len(side) != 2:
        malformed()
    lands, cash = side.get("lands"), side.get("cash")
    if type(lands) is not list or type(cash) is not int or cash < 0:
        malformed()
    if any(type(p) is not int or not 0 <= p < BOARD_SIZE for p in lands) or len(set(lands)) != len(
        lands
    ):
        malformed()
    return list(lands), cash


def require_current(state: MarbleState, actor: str, phase: str) -> None:
    """The actor holds the turn and the game is in ``phase``."""
    if state.order[state.current] != actor:
        reject("not_your_turn")
    if state.phase != phase:
        reject("wrong_phase")
