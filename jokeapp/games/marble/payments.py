"""Mandatory payments, the debt phase's sales and bankruptcy (spec 5.3)."""

from __future__ import annotations

from jokeapp.core.contract import Event
from jokeapp.games.marble.data import SALE_ALL, SALE_TOP
from jokeapp.games.marble.state import BANK, DEBT, FINISHED, FUND, Debt, MarbleState, Payment
from jokeapp.games.marble.turns import finish_game


def payment_event(payment: Payment) -> Event:
    """The one event that explains a payment's money, by what the payment was for."""
    reason = payment.reason
    if reason == "toll":
        return {
            "type": "tollPaid",
            "from": payment.player,
            "to": payment.to,
            "pos": payment.pos,
            "amount": payment.amount,
            "waived": False,
        }
    if reason == "fund":
        return {"type": "fundPaid", "player": payment.player, "amount": payment.amount}
    if reason == "spaceFee":
        return {
            "type": "spaceTravel",
            "player": payment.player,
            "dest": payment.pos,
            "fee": payment.amount,
            "to": payment.to,
        }
    return {
        "type": "transfer",
        "from": payment.player,
        "to": payment.to,
        "amount": payment.amount,
        "reason": reason,
    }


def receive(state: MarbleState, to: str, amount: int) -> None:
    if to == FUND:
        state.fund += amount
    elif to != BANK:
        state.players[to].cash += amount


def pay_now(state: MarbleState, events: list[Event], payment: Payment) -> None:
    state.players[payment.player].cash -= payment.amount
    receive(state, payment.to, payment.amount)
    events.append(payment_event(payment))


def sale_value(state: MarbleState, pos: int, what: str) -> int:
    deed = state.owners[pos]
    return SALE_ALL[pos][deed.level] if what == "all" else SALE_TOP[pos][deed.level]


def raisable(state: MarbleState, player: str) -> int:
    """최대 확보 가능액: cash plus what selling everything would bring."""
    total = state.players[player].cash
    for pos, deed in state.owners.items():
        if deed.owner == player:
            total += SALE_ALL[pos][deed.level]
    return total


def sell(state: MarbleState, events: list[Event], player: str, pos: int, what: str) -> None:
    """``top``: the highest building level; ``all``: the land with every building on it."""
    amount = sale_value(state, pos, what)
    if what == "all":
        del state.owners[pos]
    else:
        state.owners[pos].level -= 1
    state.players[player].cash += amount
    events.append({"type": "sold", "player": player, "pos": pos, "what": what, "amount": amount})


def _drop_out(state: MarbleState, player: str) -> None:
    piece = state.players[player]
    state.deck.extend(piece.held_cards)
    piece.held_cards = []
    piece.alive = False
    piece.bankrupt_at_round = state.round
    piece.island_left = 0
    piece.space_pending = False
    state.eliminated.append(player)


def go_bankrupt(state: MarbleState, events: list[Event], player: str, creditor: str) -> None:
    """Everything is sold to the bank; the creditor gets all the cash; the player is out."""
    owned = sorted(pos for pos, deed in state.owners.items() if deed.owner == player)
    for pos in owned:
        sell(state, events, player, pos, "all")
    piece = state.players[player]
    amount = piece.cash
    piece.cash = 0
    if creditor not in (BANK, FUND) and not state.players[creditor].alive:
        creditor = BANK
    receive(state, creditor, amount)
    _drop_out(state, player)
    events.append({"type": "bankrupt", "player": player, "creditor": creditor, "amount": amount})
    if state.alive_count() == 1:
        finish_game(state, events)


def settle(state: MarbleState, events: list[Event], payments: list[Payment]) -> bool:
    """Pays ``payments`` in order. False when it stopped: a debt phase began or the game ended.

    A payment whose payer or player creditor is out by now is dropped: after a bankruptcy
    in the middle of L19 the remaining players get nothing.
    """
    players = state.players
    while payments:
        payment = payments.pop(0)
        payer = players[payment.player]
        if payment.amount <= 0 or not payer.alive:
            continue
        if payment.to not in (BANK, FUND) and not players[payment.to].alive:
            continue
        if payer.cash >= payment.amount:  # pay_now and its receive, inline (every toll)
            amount, to = payment.amount, payment.to
            payer.cash -= amount
            if to == FUND:
                state.fund += amount
            elif to != BANK:
                players[to].cash += amount
            events.append(payment_event(payment))
        elif raisable(state, payment.player) < payment.amount:
            go_bankrupt(state, events, payment.player, payment.to)
            if state.phase == FINISHED:
                return False
        else:
            state.debt = Debt(payment, payments)
            state.phase = DEBT
            events.append(
                {
                    "type": "debt",
                    "player": payment.player,
                    "amount": payment.amount,
                    "to": payment.to,
                }
            )
            return False
    return True
