"""Setting up a game and each round (spec section 4): first ranks, seats, the deal."""

from __future__ import annotations

from collections.abc import Sequence

from jokeapp.core.contract import Event
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_NUMBERS, deck
from jokeapp.games.dalmuti.options import DalmutiOptions
from jokeapp.games.dalmuti.state import (
    NO_REVOLUTION,
    DalmutiState,
    Playing,
    RevolutionCheck,
    Trick,
)
from jokeapp.games.dalmuti.tax import collect_tax


def draw_first_ranks(
    players: Sequence[str], rng: Rng, cards: Sequence[int]
) -> tuple[list[str], dict[str, list[int]]]:
    """Everyone draws a card, lowest number ranks highest; the tied alone draw again.

    Draws come off one shuffled deck; should it run out during re-draws, a fresh deck is
    shuffled. Returns the rank order and each player's drawn numbers, in draw order.
    """
    pile = list(cards)
    rng.shuffle(pile)
    draws: dict[str, list[int]] = {player: [] for player in players}

    def rank_group(group: list[str]) -> list[str]:
        nonlocal pile
        if len(pile) < len(group):
            pile = list(cards)
            rng.shuffle(pile)
        by_number: dict[int, list[str]] = {}
        for player in group:
            number = CARD_NUMBERS[pile.pop()]
            draws[player].append(number)
            by_number.setdefault(number, []).append(player)
        ordered: list[str] = []
        for number in sorted(by_number):
            tied = by_number[number]
            ordered.extend(tied if len(tied) == 1 else rank_group(tied))
        return ordered

    return rank_group(list(players)), draws


def first_order(
    options: DalmutiOptions, players: Sequence[str], rng: Rng
) -> tuple[list[str], dict[str, list[int]]]:
    if options.first_ranking == "draw":
        return draw_first_ranks(players, rng, deck(options.remove_high_cards))
    order = list(players)
    rng.shuffle(order)
    return order, {}


def deal(order: Sequence[str], rng: Rng, cards: Sequence[int]) -> dict[str, list[int]]:
    """One card at a time from the top rank down, so earlier ranks get any extra cards."""
    shuffled = list(cards)
    rng.shuffle(shuffled)
    seats = len(order)
    return {player: sorted(shuffled[place::seats]) for place, player in enumerate(order)}


def start_round(state: DalmutiState) -> list[Event]:
    """Deals for ``state.order`` and opens the round: revolution check, or tax at once."""
    hands = deal(state.order, state.rng, deck(state.options.remove_high_cards))
    state.hands = hands
    state.revolution = NO_REVOLUTION
    state.revolution_by = None
    state.tax_log = []
    state.trick = Trick(leader=state.order[0])
    state.current = state.order[0]
    state.finish_order = []
    state.discard = []
    events: list[Event] = [{"type": "dealt", "counts": {p: len(hands[p]) for p in state.order}}]
    if state.options.revolution:
        state.phase = RevolutionCheck(confirmed={p: False for p in state.order})
    else:
        events.extend(collect_tax(state))
    return events


def new_state(options: DalmutiOptions, players: Sequence[str], rng: Rng) -> DalmutiState:
    return DalmutiState(
        options=options,
        rng=rng,
        players=list(players),
        order=list(players),
        round=1,
        hands={},
        phase=Playing(),
        revolution=NO_REVOLUTION,
        revolution_by=None,
        tax_log=[],
        trick=Trick(leader=players[0]),
        current=players[0],
        finish_order=[],
        round_results=[],
        totals={player: 0 for player in players},
    )


def start_game(
    options: DalmutiOptions, players: Sequence[str], seed: int
) -> tuple[DalmutiState, list[Event]]:
    state = new_state(options, players, Rng.from_seed(seed))
    order, draws = first_order(options, players, state.rng)
    state.order = order
    events: list[Event] = [{"type": "firstRankDraw", "draws": draws, "order": list(order)}]
    events.extend(start_round(state))
    return state, events
