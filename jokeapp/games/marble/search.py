"""The hard bot: Monte Carlo rollouts of each candidate, the dice as chance.

Marble hides only the deck's order, so each iteration rebuilds the state from the view with
a deck consistent with the cards the seat saw drawn (known_deck: the cards that went back
lie at the bottom in the order they went; only those never drawn are shuffled, a
determinization) and a fresh dice stream, makes one candidate
move, lets every seat play on with normal's rules for a short horizon, and scores the seat by
its total assets and the tolls its lands can still earn, against the best opponent (or by
the result, when the game ends within the horizon). Candidates take turns,
so each gets the same share of the budget, and all of them meet the same sampled futures
(common random numbers: the same deck and dice), so the comparison is not drowned by the dice;
normal's choice (listed first) stands unless another beats it clearly (``pick_move``). A budget in iterations gives the same move for the same rng.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from typing import Any, Final

from jokeapp.core.bots import BotLevels, Budget, SeatKnowledge
from jokeapp.core.contract import Action
from jokeapp.core.rng import Rng
from jokeapp.games.marble.bots import _space_score, normal_move, rounds_left
from jokeapp.games.marble.data import CITY, KIND, TOUR
from jokeapp.games.marble.game import MarbleGame
from jokeapp.games.marble.known_deck import KnownDeck, known_deck
from jokeapp.games.marble.landing import toll_of
from jokeapp.games.marble.ranking import game_result, total_assets
from jokeapp.games.marble.state import DEBT, DECIDE, TRADE_RESPONSE, TURN_START, MarbleState
from jokeapp.games.marble.view_legal import state_from_view, unseen_cards

RULES: Final = MarbleGame(BotLevels({}))  # the rules alone, to play rollouts on
HORIZON: Final = 100  # actions per rollout after the candidate (a round or two)
BANKRUPT: Final = -10_000
WON: Final = 1_000
MOST_DESTINATIONS: Final = 6  # space travel: the best few by normal's score
MOST_SALES: Final = 8
CLEAR_BY: Final = 1.0


def candidates(state: MarbleState, player: str, legal: list[Action]) -> list[Action]:
    """The moves worth searching, normal's first; a single one means nothing to search."""
    first = normal_move(state, player)
    phase = state.phase
    if first["type"] == "PROPOSE_TRADE":
        return [first]  # normal's fair group offer: not searched
    if phase == TURN_START and state.players[player].space_pending:
        budget = state.players[player].cash
        dests = sorted(
            (a for a in legal if a["type"] == "SPACE_TRAVEL"),
            key=lambda a: (-_space_score(state, player, a["dest"], budget), a["dest"]),
        )
        moves = dests[:MOST_DESTINATIONS]
    elif phase in (TURN_START, DECIDE, TRADE_RESPONSE):
        moves = [a for a in legal if a["type"] != "PROPOSE_TRADE"]
    elif phase == DEBT:
        moves = legal[:MOST_SALES]
    else:
        moves = []
    return [first, *(m for m in moves if m != first)]


def toll_weight(state: MarbleState) -> float:
    """How many times a land's toll is still likely to be paid: each other survivor's turn
    lands on a given square about one time in 40, for every round left."""
    return (state.alive_count() - 1) * rounds_left(state) / 40


def value(state: MarbleState, player: str, weight: float) -> float:
    """Total assets (ranking.total_assets: what the round limit ranks by) plus expected tolls."""
    piece = state.players[player]
    if not piece.alive:
        return BANKRUPT
    worth = float(total_assets(state, player))
    for pos, deed in state.owners.items():
        if deed.owner == player and KIND[pos] in (CITY, TOUR):
            worth += weight * toll_of(state, pos, deed)
    return worth


def score(state: MarbleState, player: str) -> float:
    """The seat's worth minus the best other's (a win is being ahead of everyone)."""
    result = game_result(state)
    if result is not None:  # the game ended in the rollout: its ranking is what counts
        return WON if player in result["winners"] else BANKRUPT / 10
    weight = toll_weight(state)
    mine = value(state, player, weight)
    others = [
        value(state, p, weight) for p in state.order if p != player and state.players[p].alive
    ]
    return mine - max(others, default=0.0)


def rollout(
    view: Mapping[str, Any], player: str, move: Action, chance: Rng, known: KnownDeck | None
) -> float:
    """One future after ``move``: every die and the order of the cards the seat has not seen
    drawn from ``chance``; the cards that went back to the bottom stay in the order it saw."""
    if known is None:
        deck = unseen_cards(view)
        chance.shuffle(deck)
    else:
        deck = list(known.unknown)
        chance.shuffle(deck)
        deck += known.bottom
    state = state_from_view(view, deck, chance)
    RULES.apply(state, player, move)
    for _ in range(HORIZON):
        if RULES.is_over(state):
            break
        actor = RULES.pending(state)[0].player
        RULES.apply(state, actor, normal_move(state, actor))
    return score(state, player)


def search(knowledge: SeatKnowledge, rng: Rng, budget: Budget) -> Action:
    view, player = knowledge.view, knowledge.player
    state = state_from_view(view)
    moves = candidates(state, player, list(knowledge.legal))
    if len(moves) == 1:
        return moves[0]
    known = known_deck(view, knowledge.events)
    scores: list[list[float]] = [[] for _ in moves]  # per candidate, one per future
    done = 0
    chance = rng.copy()
    while not budget.spent(done):
        pick = done % len(moves)
        if pick == 0:  # a new future, which every candidate then meets (common random numbers)
            chance = Rng(rng.next_u32(), rng.next_u32(), rng.next_u32(), 1)
        scores[pick].append(rollout(view, player, moves[pick], chance.copy(), known))
        done += 1
    return moves[pick_move(scores)]


def pick_move(scores: list[list[float]]) -> int:
    """Normal's move (index 0) unless another beats it clearly: by more than CLEAR_BY standard
    errors of the paired differences over the futures both met. The dice make most
    differences noise; a search that chases noise plays worse than the rule it starts from."""
    base = scores[0]
    best, best_gain = 0, 0.0
    for index in range(1, len(scores)):
        diffs = [a - b for a, b in zip(scores[index], base, strict=False)]
        if len(diffs) < 2:
            continue
        gain = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        if gain > CLEAR_BY * error and gain > best_gain:
            best, best_gain = index, gain
    return best


def hard_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    return search(knowledge, rng, budget or DEFAULT_BUDGET)


DEFAULT_BUDGET: Final = Budget(iterations=120)
