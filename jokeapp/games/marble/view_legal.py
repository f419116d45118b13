"""What a seat can read off its own view: its legal actions, and a state to think on.

Everything on a marble table is public but the deck's order and the rng (spec 8.3), so a view
gives back the whole state once those two are supplied: ``state_from_view`` puts in the given
deck (by default the unseen cards in card order) and rng. ``legal_actions_from_view`` lists
legal.py's actions straight off the view's JSON (bots ask for it on every move, so it skips
rebuilding a state); ``legal_actions_from_view(view(state, p), p) == legal_actions(state, p)``
(tests/marble/test_view_legal.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.contract import Action
from jokeapp.core.rng import Rng
from jokeapp.games.marble.data import (
    BUILD_COST,
    CARD_IDS,
    ESCAPE_CARD,
    LAND_PRICE,
    MAX_TRADES_PER_TURN,
)
from jokeapp.games.marble.legal import SPACE_DESTS
from jokeapp.games.marble.serial import from_json
from jokeapp.games.marble.state import DEBT, DECIDE, TRADE_RESPONSE, TURN_START, MarbleState

_ANY_RNG = Rng.from_seed(0).to_json()  # a stand-in: listing actions never rolls


def offer(to: str, give: list[int], give_cash: int, take: list[int], take_cash: int) -> Action:
    return {
        "type": "PROPOSE_TRADE",
        "to": to,
        "give": {"lands": give, "cash": give_cash},
        "take": {"lands": take, "cash": take_cash},
    }


def unseen_cards(view: Mapping[str, Any]) -> list[str]:
    """The cards that are in the deck: all but those the players hold, in card order."""
    held = {card for piece in view["players"].values() for card in piece.get("heldCards", ())}
    return [card for card in CARD_IDS if card not in held]


def state_from_view(
    view: Mapping[str, Any], deck: Sequence[str] | None = None, rng: Rng | None = None
) -> MarbleState:
    data = dict(view)
    data["deck"] = list(deck) if deck is not None else unseen_cards(view)
    data["rng"] = rng.to_json() if rng is not None else _ANY_RNG
    return from_json(data)


def pending_player(view: Mapping[str, Any]) -> str | None:
    """timeouts.pending_player, read off the view."""
    phase = view["phase"]
    if phase in (TURN_START, DECIDE):
        return str(view["currentPlayer"])
    if phase == DEBT and view["debt"] is not None:
        return str(view["debt"]["player"])
    if phase == TRADE_RESPONSE and view["pendingTrade"] is not None:
        return str(view["pendingTrade"]["to"])
    return None


def _turn_start(view: Mapping[str, Any], player: str) -> list[Action]:
    piece = view["players"][player]
    if piece["spacePending"]:
        return [{"type": "SPACE_TRAVEL", "dest": dest} for dest in SPACE_DESTS]
    actions: list[Action] = [{"type": "ROLL"}]
    if piece["islandLeft"] > 0:
        if ESCAPE_CARD in piece["heldCards"]:
            actions.append({"type": "USE_ESCAPE_CARD"})
        fee: int = view["options"]["islandFee"]
        if 0 < fee <= piece["cash"]:
            actions.append({"type": "PAY_ISLAND_FEE"})
    return actions


def _decide(view: Mapping[str, Any], player: str) -> list[Action]:
    decision = view["decision"]
    cash = view["players"][player]["cash"]
    pos = decision["pos"]
    actions: list[Action] = []
    if decision["canBuy"] and LAND_PRICE[pos] <= cash:
        actions.append({"type": "BUY"})
    level = decision["canBuild"]
    if level is not None and BUILD_COST[pos][level] <= cash:
        actions.append({"type": "BUILD", "level": level})
    takeover = decision["canTakeover"]
    if takeover is not None and takeover <= cash:
        actions.append({"type": "TAKEOVER"})
    actions.append({"type": "PASS"})
    return actions


def _owners(view: Mapping[str, Any]) -> list[tuple[int, str, int]]:
    """(pos, owner, level), by square."""
    return sorted((int(pos), deed["owner"], deed["level"]) for pos, deed in view["owners"].items())


def _sales(view: Mapping[str, Any], player: str) -> list[Action]:
    actions: list[Action] = []
    for pos, owner, level in _owners(view):
        if owner != player:
            continue
        if level > 0:
            actions.append({"type": "SELL", "pos": pos, "what": "top"})
        actions.append({"type": "SELL", "pos": pos, "what": "all"})
    return actions


def _trades(view: Mapping[str, Any], player: str) -> list[Action]:
    players = view["players"]
    cash = players[player]["cash"]
    owners = _owners(view)
    actions: list[Action] = []
    for other in view["order"]:
        if other == player or not players[other]["alive"]:
            continue
        for pos, owner, _ in owners:
            price = LAND_PRICE[pos]
            if owner == player and price <= players[other]["cash"]:
                actions.append(offer(other, [pos], 0, [], price))
            elif owner == other and price <= cash:
                actions.append(offer(other, [], price, [pos], 0))
    return actions


def legal_actions_from_view(view: Mapping[str, Any], player: str) -> list[Action]:
    """Only from the seat's own view: another's, or a spectator's, lists nothing."""
    if view.get("viewer") != player or pending_player(view) != player:
        return []
    phase = view["phase"]
    if phase == TURN_START:
        actions = _turn_start(view, player)
        if view["options"]["trade"] and view["tradesThisTurn"] < MAX_TRADES_PER_TURN:
            actions.extend(_trades(view, player))
        return actions
    if phase == DECIDE:
        return _decide(view, player)
    if phase == DEBT:
        return _sales(view, player)
    if phase == TRADE_RESPONSE:
        return [
            {"type": "TRADE_RESPOND", "accept": True},
            {"type": "TRADE_RESPOND", "accept": False},
        ]
    return []
