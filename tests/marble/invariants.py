"""Checks that hold after every step of every marble game, shared by the property tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from jokeapp.core.contract import Event
from jokeapp.games.marble.data import CARD_IDS
from jokeapp.games.marble.state import BANK, FUND, MarbleState


def money(state: MarbleState) -> dict[str, int]:
    """Every player's cash, and the fund under the key ``fund``."""
    table = {pid: p.cash for pid, p in state.players.items()}
    table[FUND] = state.fund
    return table


def _move(delta: Counter[str], frm: str | None, to: str | None, amount: int) -> None:
    if frm is not None and frm != BANK:
        delta[frm] -= amount
    if to is not None and to != BANK:
        delta[to] += amount


def money_moved(events: list[Event]) -> Counter[str]:
    """What the events say each player's cash (and the fund) changed by."""
    delta: Counter[str] = Counter()
    for e in events:
        kind = e["type"]
        if kind == "salary":
            _move(delta, None, e["player"], e["amount"])
        elif kind == "bought":
            _move(delta, e["player"], None, e["price"])
        elif kind == "built":
            _move(delta, e["player"], None, e["cost"])
        elif kind == "tollPaid" and not e["waived"]:
            _move(delta, e["from"], e["to"], e["amount"])
        elif kind == "takeover":
            _move(delta, e["player"], e["from"], e["price"])
        elif kind == "transfer":
            _move(delta, e["from"], e["to"], e["amount"])
        elif kind == "fundPaid":
            _move(delta, e["player"], FUND, e["amount"])
        elif kind == "fundReceived":
            _move(delta, FUND, e["player"], e["amount"])
        elif kind == "spaceTravel":
            _move(delta, e["player"], e["to"], e["fee"])
        elif kind == "sold":
            _move(delta, None, e["player"], e["amount"])
        elif kind == "bankrupt":
            _move(delta, e["player"], e["creditor"], e["amount"])
        elif kind == "tradeResolved" and e["accepted"]:
            _move(delta, e["from"], e["to"], e["give"]["cash"])
            _move(delta, e["to"], e["from"], e["take"]["cash"])
    return delta


def assert_money_explained(
    before: dict[str, int], after: dict[str, int], events: list[Event]
) -> None:
    delta = money_moved(events)
    for key in after:
        assert after[key] - before[key] == delta.get(key, 0), (key, before[key], after[key], events)


def assert_cards_intact(state: MarbleState) -> None:
    held = [c for p in state.players.values() for c in p.held_cards]
    cards = state.deck + held
    assert sorted(cards) == sorted(CARD_IDS), cards


def assert_state_sane(state: MarbleState) -> None:
    for pid, p in state.players.items():
        assert p.cash >= 0, (pid, p.cash)
        if not p.alive:
            assert p.cash == 0 and not p.held_cards
            assert all(d.owner != pid for d in state.owners.values())
    for deed in state.owners.values():
        assert state.players[deed.owner].alive


def _walk(value: Any) -> list[str]:
    keys: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            keys.append(k)
            keys.extend(_walk(v))
    elif isinstance(value, list):
        for v in value:
            keys.extend(_walk(v))
    return keys


def assert_nothing_hidden_leaks(state: MarbleState, shown: Any) -> None:
    """No 'deck' or 'rng' key anywhere, and the deck's order is not there as a list."""
    keys = _walk(shown)
    assert "deck" not in keys and "rng" not in keys
    deck = list(state.deck)

    def lists(value: Any) -> list[Any]:
        found: list[Any] = []
        if isinstance(value, dict):
            for v in value.values():
                found.extend(lists(v))
        elif isinstance(value, list):
            found.append(value)
            for v in value:
                found.extend(lists(v))
        return found

    assert all(item != deck for item in lists(shown))
