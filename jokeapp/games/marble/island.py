"""무인도 (spec 5.4): rolling to escape, the escape card and the escape fee."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.actions import reject, require_current
from jokeapp.games.marble.data import ESCAPE_CARD
from jokeapp.games.marble.landing import land
from jokeapp.games.marble.movement import move_forward
from jokeapp.games.marble.state import BANK, TURN_START, MarbleState
from jokeapp.games.marble.turns import end_turn


def island_roll(state: MarbleState, events: list[Event], player: str) -> None:
    """A double frees the piece and moves it (no extra roll); otherwise one turn less to wait."""
    piece = state.players[player]
    state.last_roll = first, second = state.rng.dice()
    escaped = first == second
    events.append(
        {"type": "islandRoll", "player": player, "dice": [first, second], "escaped": escaped}
    )
    if not escaped:
        piece.island_left -= 1
        end_turn(state, events)
        return
    piece.island_left = 0
    state.extra_roll = False
    events.append({"type": "escaped", "player": player, "how": "double"})
    move_forward(state, events, player, first + second, "dice")
    land(state, events)


def _require_on_island(state: MarbleState, actor: str) -> None:
    require_current(state, actor, TURN_START)
    if state.players[actor].island_left <= 0:
        reject("not_on_island")


def use_escape_card(state: MarbleState, events: list[Event], actor: str) -> None:
    _require_on_island(state, actor)
    piece = state.players[actor]
    if ESCAPE_CARD not in piece.held_cards:
        reject("no_escape_card")
    piece.held_cards.remove(ESCAPE_CARD)
    state.deck.append(ESCAPE_CARD)
    piece.island_left = 0
    events.append({"type": "escaped", "player": actor, "how": "card"})


def pay_island_fee(state: MarbleState, events: list[Event], actor: str) -> None:
    _require_on_island(state, actor)
    fee: int = state.options.island_fee
    piece = state.players[actor]
    if fee <= 0:
        reject("no_island_fee")
    if piece.cash < fee:
        reject("no_money")
    piece.cash -= fee
    piece.island_left = 0
    events.append(
        {"type": "transfer", "from": actor, "to": BANK, "amount": fee, "reason": "islandFee"}
    )
    events.append({"type": "escaped", "player": actor, "how": "fee"})
