"""The hard bot's search: information-set MCTS (Cowling, Powley & Whitehouse 2012, SO-ISMCTS).

Each iteration deals the cards the seat has not seen into the other hands, consistently with
what it saw (``determinize``), walks one tree shared by all deals (UCB1 over the moves legal in
this deal, counting how often each was available), plays the round out with a fast policy and
credits the seat its place. The tree covers the rest of the round; the round's places are what
the next round's ranks and the points follow.

Only the seat's own moves branch the tree: the other players move by the rollout policy (normal's
rule with a random slip), an opponent model. Measured against normal at 200 iterations, 4
players, 80 one-round games: 68-70% of head-to-head places with the model, 56% when every
player's moves branched the tree (each opponent playing its own best reply spreads the few
iterations over moves real players rarely make).

The search runs on ``Table``, a small copy of the round's play rules over card counts (cards of
one number are interchangeable): the same turn order, passes, lock-outs and trick ends as
tricks.py, without events or ids. Only the chosen move goes back through the real rules: it is
one of the seat's legal actions or the caller falls back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from jokeapp.core.bots import Budget, SeatKnowledge
from jokeapp.core.contract import Action
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_INDEX, CARD_NUMBERS, JESTER, JESTERS, deck
from jokeapp.games.dalmuti.legal import choice_cards
from jokeapp.games.dalmuti.view_legal import view_hand

Move = tuple[int, int, int]  # (number, number cards, jesters); number 13 with 0: jesters alone
PASS: Final[Move] = (0, 0, 0)
EXPLORATION: Final = 0.7  # UCB1's constant, for rewards in [0, 1]
SLIP: Final = 8  # the rollout policy plays a random move one time in this many
LOW_NUMBER: Final = 3
SHORT_HAND: Final = 4


class Table:
    """One round's play from some moment on, over card counts. Seats are indices in ``order``."""

    __slots__ = (
        "counts",
        "sizes",
        "top_rank",
        "top_count",
        "top_by",
        "passed",
        "locked",
        "current",
        "finished",
        "lock_rule",
    )

    def __init__(
        self,
        counts: list[list[int]],
        top: tuple[int, int, int] | None,
        passed: list[bool],
        locked: list[bool],
        current: int,
        finished: list[int],
        lock_rule: bool,
    ) -> None:
        self.counts = counts
        self.sizes = [sum(c) for c in counts]
        self.top_rank, self.top_count, self.top_by = top if top is not None else (0, 0, -1)
        self.passed = passed
        self.locked = locked
        self.current = current
        self.finished = finished
        self.lock_rule = lock_rule

    def copy(self) -> Table:
        twin = Table.__new__(Table)
        twin.counts = [list(c) for c in self.counts]
        twin.sizes = list(self.sizes)
        twin.top_rank, twin.top_count, twin.top_by = self.top_rank, self.top_count, self.top_by
        twin.passed = list(self.passed)
        twin.locked = list(self.locked)
        twin.current = self.current
        twin.finished = list(self.finished)
        twin.lock_rule = self.lock_rule
        return twin

    @property
    def over(self) -> bool:
        return len(self.finished) >= len(self.sizes) - 1

    def moves(self) -> list[Move]:
        """The moves the search weighs for the current seat, a subset of legal.play_choices:
        a lead plays a whole number, with no jester or all of them (or the jesters alone); a
        follow uses only the jesters it needs; PASS when following. Splitting a number or
        spending a spare jester is almost never better, and a narrow tree is searched deeper."""
        counts = self.counts[self.current]
        jesters = counts[JESTER]
        moves: list[Move] = []
        if self.top_rank == 0:
            for number in range(1, JESTER):
                if counts[number]:
                    moves.append((number, counts[number], 0))
                    if jesters:
                        moves.append((number, counts[number], jesters))
            if jesters:
                moves.append((JESTER, 0, jesters))
            return moves
        need = self.top_count
        for number in range(1, self.top_rank):
            have = counts[number]
            if have >= need:
                moves.append((number, need, 0))
            elif have and have + jesters >= need:
                moves.append((number, have, need - have))
        moves.append(PASS)
        return moves

    def play(self, move: Move) -> None:
        seat = self.current
        if move == PASS:
            self.passed[seat] = True
            if self.lock_rule:
                self.locked[seat] = True
            self._next(seat)
            return
        number, used, wild = move
        counts = self.counts[seat]
        counts[number] -= used
        counts[JESTER] -= wild
        self.sizes[seat] -= used + wild
        self.top_rank = number if used else JESTER
        self.top_count = used + wild
        self.top_by = seat
        self.passed = [False] * len(self.sizes)
        if not self.sizes[seat]:
            self.finished.append(seat)
            if self.over:
                self.finished.append(next(s for s, size in enumerate(self.sizes) if size))
                return
        self._next(seat)

    def _next(self, after: int) -> None:
        """tricks.next_to_answer, then end_trick when nobody has to answer."""
        seats = len(self.sizes)
        sizes, passed, locked, by = self.sizes, self.passed, self.locked, self.top_by
        following = -1
        for step in range(1, seats + 1):
            seat = (after + step) % seats
            if not sizes[seat] or locked[seat]:
                continue
            if following < 0:
                following = seat
            if seat != by and not passed[seat]:
                self.current = following
                return
        leader = by
        if not sizes[leader]:
            leader = next(s for s in ((by + k) % seats for k in range(1, seats + 1)) if sizes[s])
        self.top_rank, self.top_count, self.top_by = 0, 0, -1
        self.passed = [False] * seats
        self.locked = [False] * seats
        self.current = leader

    def rewards(self) -> list[float]:
        """Each seat's place turned into [0, 1]: 1 for first, 0 for last."""
        worst = len(self.sizes) - 1
        reward = [0.0] * len(self.sizes)
        for place, seat in enumerate(self.finished):
            reward[seat] = (worst - place) / worst
        return reward


def rollout_move(table: Table, rng: Rng) -> Move:
    """normal's rule on counts, slipping to a random move now and then."""
    if rng.below(SLIP) == 0:
        moves = table.moves()
        return moves[rng.below(len(moves))]
    counts = table.counts[table.current]
    if table.top_rank == 0:
        numbers = [n for n in range(1, JESTER) if counts[n]]
        if not numbers:
            return (JESTER, 0, counts[JESTER])
        worst = numbers[-1]
        return (worst, counts[worst], counts[JESTER] if len(numbers) == 1 else 0)
    need = table.top_count
    closing = table.sizes[table.current] - need <= SHORT_HAND
    for number in range(table.top_rank - 1, 0, -1):  # the worst first
        if counts[number] >= need and (closing or number > LOW_NUMBER):
            return (number, need, 0)
    if closing:
        most_wild = min(counts[JESTER], need - 1)
        for number in range(table.top_rank - 1, 0, -1):
            if counts[number] and counts[number] + most_wild >= need:
                return (number, min(counts[number], need), need - min(counts[number], need))
    return PASS


@dataclass(slots=True)
class Node:
    seat: int  # who made the move leading here
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[Move, Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Seen:
    """What the seat knows of the round: fixed cards, the pool of unseen ones, the rest of the table."""

    me: int
    order: list[str]
    my_hand: list[int]
    sizes: list[int]
    held: dict[int, list[int]]  # seat -> cards it must hold (tax the seat gave, a revolt's jesters)
    unseen: list[int]  # every other card that may be in someone's hand
    top: tuple[int, int, int] | None
    passed: list[bool]
    locked: list[bool]
    current: int
    finished: list[int]
    lock_rule: bool


def played_this_round(view: Mapping[str, Any], events: Any) -> set[int]:
    """Cards played since the round began: the events after the last ``roundOver``, and the
    current trick (in case the seat's history is shorter than the game)."""
    played: set[int] = set()
    for event in reversed(events):
        kind = event.get("type")
        if kind == "roundOver":
            break
        if kind == "played":
            played.update(CARD_INDEX[card] for card in event["cardIds"])
    for shown in view["trick"]["pile"]:
        played.update(CARD_INDEX[card] for card in shown["cardIds"])
    return played


def seen_from(knowledge: SeatKnowledge) -> Seen:
    view, player = knowledge.view, knowledge.player
    order: list[str] = list(view["order"])
    seat_of = {p: i for i, p in enumerate(order)}
    me = seat_of[player]
    hand = view_hand(view)
    played = played_this_round(view, knowledge.events)
    held: dict[int, list[int]] = {}
    # Tax cards I gave are in the receiver's hand unless played since.
    for entry in view.get("tax", ()):
        if entry["from"] == player and "cardIds" in entry:
            cards = [CARD_INDEX[c] for c in entry["cardIds"]]
            held.setdefault(seat_of[entry["to"]], []).extend(
                c for c in cards if c not in played and c not in hand
            )
    # Whoever declared a revolution held both jesters; no tax moved them since.
    by = view.get("revolutionBy")
    if by is not None and by != player and view.get("revolution") != "none":
        held.setdefault(seat_of[by], []).extend(
            j for j in JESTERS if j not in played and j not in hand
        )
    fixed = {card for cards in held.values() for card in cards}
    mine = set(hand)
    unseen = [
        c
        for c in deck(bool(view["options"]["removeHighCards"]))
        if c not in played and c not in mine and c not in fixed
    ]
    sizes = [int(view["handCounts"][p]) for p in order]
    trick = view["trick"]
    top = trick["top"]
    return Seen(
        me=me,
        order=order,
        my_hand=hand,
        sizes=sizes,
        held=held,
        unseen=unseen,
        top=None if top is None else (int(top["rank"]), int(top["count"]), seat_of[top["by"]]),
        passed=[p in trick["passesSinceTop"] for p in order],
        locked=[p in trick["lockedOut"] for p in order],
        current=seat_of[view["current"]],
        finished=[seat_of[p] for p in view["finishOrder"]],
        lock_rule=bool(view["options"]["passLocksOut"]),
    )


def determinize(seen: Seen, rng: Rng) -> Table:
    """One deal of the unseen cards consistent with the seat's knowledge."""
    counts = [[0] * (JESTER + 1) for _ in seen.sizes]
    for card in seen.my_hand:
        counts[seen.me][CARD_NUMBERS[card]] += 1
    need = list(seen.sizes)
    need[seen.me] = 0
    spill: list[int] = []
    for seat, cards in seen.held.items():
        for card in cards:
            if need[seat] > 0:
                counts[seat][CARD_NUMBERS[card]] += 1
                need[seat] -= 1
            else:
                spill.append(card)  # knowledge the view contradicts: let the card go anywhere
    pool = seen.unseen + spill
    rng.shuffle(pool)
    at = 0
    for seat, wanted in enumerate(need):
        for card in pool[at : at + wanted]:
            counts[seat][CARD_NUMBERS[card]] += 1
        at += wanted
    return Table(
        counts,
        seen.top,
        list(seen.passed),
        list(seen.locked),
        seen.current,
        list(seen.finished),
        seen.lock_rule,
    )


def iterate(root: Node, table: Table, rng: Rng, me: int) -> None:
    """One iteration. Only ``me``'s moves branch the tree (UCB1 over the moves this deal
    allows, counting availability); the others play the rollout policy, an opponent model."""
    node, path = root, [root]
    while not table.over:
        if table.current != me:
            table.play(rollout_move(table, rng))
            continue
        moves = table.moves()
        untried = [m for m in moves if m not in node.children]
        for move in moves:
            child = node.children.get(move)
            if child is not None:
                child.available += 1
        seat = table.current
        if untried:
            move = untried[rng.below(len(untried))]
            child = Node(seat, available=1)
            node.children[move] = child
            table.play(move)
            path.append(child)
            break
        best, best_score = PASS, -1.0
        for move in moves:
            child = node.children[move]
            score = child.reward / child.visits + EXPLORATION * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best, best_score = move, score
        node = node.children[best]
        table.play(best)
        path.append(node)
    while not table.over:
        table.play(rollout_move(table, rng))
    rewards = table.rewards()
    for visited in path[1:]:
        visited.visits += 1
        visited.reward += rewards[visited.seat]


def search(knowledge: SeatKnowledge, rng: Rng, budget: Budget) -> Action:
    """The most visited of the seat's moves after the budget's iterations."""
    seen = seen_from(knowledge)
    root = Node(-1)
    done = 0
    while not budget.spent(done):
        iterate(root, determinize(seen, rng), rng, seen.me)
        done += 1
    if not root.children:
        return {"type": "pass"}
    move = max(root.children, key=lambda m: (root.children[m].visits, m))
    if move == PASS:
        return {"type": "pass"}
    return {"type": "play", "cardIds": choice_cards(seen.my_hand, move)}
