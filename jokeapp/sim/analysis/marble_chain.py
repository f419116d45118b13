"""The board of 세계 여행 땅따먹기 as a Markov chain: where one piece lands, in the long run.

The chain moves from the start of one of a piece's turns to the start of its next one. A
turn-start state is (square, island turns left, space travel pending, holds the escape
card). Within a turn every roll, double, card and move is enumerated exactly (spec 5.1-5.5):
2d6; a double rolls again and the third double goes straight to 무인도 without moving;
landing on 무인도 or 우주여행, or the storm card, ends the turn; on the island a double
frees the piece and moves it (no extra roll), otherwise it waits, at most ``islandTurns``
turns; the escape card frees it and the turn goes on with a normal roll; a space trip goes
to a chosen square; the lucky cards' moves (출발, 우주여행, 서울, 기부 천사, the nearest
관광지, back three, the storm) apply their arrival as well.

What the chain cannot know is taken as given (`Choices`): where a player flies from
우주여행 and whether a player on the island uses the escape card when it holds one, both
measured from the games by the analysis (or uniform and always, by default). Money never
moves a piece, so tolls, purchases and debts are not in the chain.

Approximations, stated in the report: the deck is drawn as if each draw were uniform over
the cards not in this piece's hand (the real deck is a shuffled cycle shared by every
player); a bankrupt piece stops, which only the finite-horizon walk (``horizon_landings``,
weighted by the turns actually played) takes into account.

A *landing* is every arrival on a square: a dice move, a card move, a space trip, and being
sent to 무인도 (by a card or the third double). The stationary landing share of a square is
the long-run fraction of all landings that are on it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from jokeapp.games.marble.cards import BACK_STEPS, FORWARD_TARGETS
from jokeapp.games.marble.data import (
    BOARD_SIZE,
    CARD,
    CARD_IDS,
    ESCAPE_CARD,
    ISLAND,
    ISLAND_POS,
    KIND,
    MAX_CARDS_PER_TURN,
    MAX_DOUBLES,
    SPACE,
    SPACE_POS,
    START_POS,
    nearest_tour_ahead,
)
from jokeapp.sim.analysis.markov import stationary, step

# A card's effect on the piece: stay (money only, or the toll waiver kept), hold (the escape
# card is kept), island (the storm), to (forward to a square), back (three squares), tour.
STAY, HOLD, TO_ISLAND, TO, BACK, TOUR = "stay", "hold", "island", "to", "back", "tour"
STORM_CARD = "L10"  # cards.py: L10 sends to 무인도, L16 goes back, L18 to the nearest 관광지
BACK_CARD = "L16"
TOUR_CARD = "L18"


def card_effect(card: str) -> tuple[str, int]:
    """What drawing ``card`` does to the piece (tests check this against the engine)."""
    if card in FORWARD_TARGETS:
        return (TO, FORWARD_TARGETS[card])
    if card == ESCAPE_CARD:
        return (HOLD, 0)
    if card == STORM_CARD:
        return (TO_ISLAND, 0)
    if card == BACK_CARD:
        return (BACK, BACK_STEPS)
    if card == TOUR_CARD:
        return (TOUR, 0)
    return (STAY, 0)


def _dice() -> tuple[tuple[int, bool, float], ...]:
    counts: defaultdict[tuple[int, bool], int] = defaultdict(int)
    for a in range(1, 7):
        for b in range(1, 7):
            counts[(a + b, a == b)] += 1
    return tuple((total, double, n / 36) for (total, double), n in sorted(counts.items()))


DICE = _dice()
DOUBLES = tuple((total, p) for total, double, p in DICE if double)


@dataclass(frozen=True, slots=True)
class Rules:
    """The board and the rules the chain follows. ``Rules()`` is this game's board; a plain
    loop (every square a plain one, no doubles rule) is the case with a known answer."""

    kinds: tuple[str, ...] = KIND
    island_turns: int = 3
    doubles: bool = True  # a double rolls again, the third goes to the island
    cards: tuple[tuple[str, int], ...] = tuple(card_effect(c) for c in CARD_IDS)
    escape_card: int | None = CARD_IDS.index(ESCAPE_CARD)  # index in ``cards``

    @classmethod
    def plain_loop(cls, size: int = BOARD_SIZE) -> Rules:
        return cls(kinds=("plain",) * size, doubles=False)

    @property
    def size(self) -> int:
        return len(self.kinds)


@dataclass(frozen=True, slots=True)
class Choices:
    """The players' choices the chain takes as given: the space trip's destination
    (square -> probability; default every square but 우주여행 alike) and the chance that a
    player on the island holding the escape card uses it at the start of its turn."""

    space_dest: Mapping[int, float] = field(
        default_factory=lambda: {
            d: 1 / (BOARD_SIZE - 1) for d in range(BOARD_SIZE) if d != SPACE_POS
        }
    )
    escape_use: float = 1.0


# A turn-start state: (square, island turns left, space travel pending, holds escape card)
State = tuple[int, int, bool, bool]
START: State = (START_POS, 0, False, False)


@dataclass(frozen=True, slots=True)
class Outcome:
    """From one state: expected landings per square over the turn, and the next state."""

    landings: dict[int, float]
    nexts: dict[State, float]


def _add(into: Outcome, other: Outcome, weight: float) -> None:
    for pos, n in other.landings.items():
        into.landings[pos] = into.landings.get(pos, 0.0) + weight * n
    for state, p in other.nexts.items():
        into.nexts[state] = into.nexts.get(state, 0.0) + weight * p


def _empty() -> Outcome:
    return Outcome({}, {})


def turn_outcomes(rules: Rules, choices: Choices) -> dict[State, Outcome]:
    """Every turn-start state reachable from the start, with what one turn from it does."""
    size = rules.size
    kinds = rules.kinds

    def island(holds: bool, counted: bool) -> Outcome:
        out = Outcome({ISLAND_POS: 1.0} if counted else {}, {})
        out.nexts[(ISLAND_POS, rules.island_turns, False, holds)] = 1.0
        return out

    @cache
    def roll(pos: int, doubles: int, cards: int, holds: bool) -> Outcome:
        out = _empty()
        for total, double, p in DICE:
            if double and rules.doubles:
                if doubles + 1 >= MAX_DOUBLES:
                    _add(out, island(holds, counted=True), p)
                else:
                    _add(out, land((pos + total) % size, doubles + 1, cards, holds, True), p)
            else:
                _add(out, land((pos + total) % size, doubles, cards, holds, False), p)
        return out

    def after(pos: int, doubles: int, cards: int, holds: bool, extra: bool) -> Outcome:
        if extra:
            return roll(pos, doubles, cards, holds)
        return Outcome({}, {(pos, 0, False, holds): 1.0})

    @cache
    def land(pos: int, doubles: int, cards: int, holds: bool, extra: bool) -> Outcome:
        out = Outcome({pos: 1.0}, {})
        kind = kinds[pos]
        if kind == ISLAND:
            _add(out, island(holds, counted=False), 1.0)
        elif kind == SPACE:
            out.nexts[(pos, 0, True, holds)] = 1.0
        elif kind == CARD and cards < MAX_CARDS_PER_TURN:
            deck = [
                effect
                for i, effect in enumerate(rules.cards)
                if not (holds and i == rules.escape_card)
            ]
            for what, arg in deck:
                weight = 1.0 / len(deck)
                drawn = cards + 1
                if what == HOLD:
                    nxt = after(pos, doubles, drawn, True, extra)
                elif what == TO_ISLAND:
                    nxt = island(holds, counted=True)
                elif what == TO:
                    nxt = land(arg, doubles, drawn, holds, extra)
                elif what == BACK:
                    nxt = land((pos - arg) % size, doubles, drawn, holds, extra)
                elif what == TOUR:
                    nxt = land(nearest_tour_ahead(pos), doubles, drawn, holds, extra)
                else:
                    nxt = after(pos, doubles, drawn, holds, extra)
                _add(out, nxt, weight)
        else:
            _add(out, after(pos, doubles, cards, holds, extra), 1.0)
        return out

    def one_turn(state: State) -> Outcome:
        pos, left, space, holds = state
        out = _empty()
        if space:
            for dest, p in choices.space_dest.items():
                if p:
                    _add(out, land(dest, 0, 0, holds, False), p)
            return out
        if left > 0:
            use = choices.escape_use if holds else 0.0
            if use:
                _add(out, roll(pos, 0, 0, False), use)
            stay = 1.0 - use
            for total, p in DOUBLES:
                _add(out, land((pos + total) % size, 0, 0, holds, False), stay * p)
            waits = stay * (1.0 - sum(p for _, p in DOUBLES))
            out.nexts[(pos, left - 1, False, holds)] = (
                out.nexts.get((pos, left - 1, False, holds), 0.0) + waits
            )
            return out
        return roll(pos, 0, 0, holds)

    found: dict[State, Outcome] = {}
    todo = [START]
    while todo:
        state = todo.pop()
        if state in found:
            continue
        found[state] = one_turn(state)
        todo.extend(s for s in found[state].nexts if s not in found)
    return found


@dataclass(frozen=True, slots=True)
class BoardChain:
    """The chain over turn-start states, its stationary distribution and landing shares."""

    states: list[State]
    outcomes: list[Outcome]
    rows: list[dict[int, float]]
    size: int

    @classmethod
    def build(cls, rules: Rules | None = None, choices: Choices | None = None) -> BoardChain:
        rules = rules or Rules()
        found = turn_outcomes(rules, choices or Choices())
        states = sorted(found)
        index = {s: i for i, s in enumerate(states)}
        outcomes = [found[s] for s in states]
        rows = [{index[s]: p for s, p in o.nexts.items()} for o in outcomes]
        return cls(states, outcomes, rows, rules.size)

    def _landings(self, dist: Sequence[float]) -> list[float]:
        counts = [0.0] * self.size
        for mass, outcome in zip(dist, self.outcomes, strict=True):
            if mass:
                for pos, n in outcome.landings.items():
                    counts[pos] += mass * n
        return counts

    def stationary_landings(self) -> list[float]:
        """The long-run share of landings on each square (sums to 1)."""
        counts = self._landings(stationary(self.rows))
        total = sum(counts)
        return [c / total for c in counts]

    def landings_per_turn(self) -> float:
        """Landings in one turn, on average in the long run."""
        return sum(self._landings(stationary(self.rows)))

    def horizon_landings(self, turns: Sequence[float]) -> list[float]:
        """The share of landings on each square over games that start on 출발, where
        ``turns[t]`` pieces play a (t+1)-th turn (the turns the games actually had)."""
        dist = [1.0 if s == START else 0.0 for s in self.states]
        counts = [0.0] * self.size
        for weight in turns:
            for pos, n in enumerate(self._landings(dist)):
                counts[pos] += weight * n
            dist = step(dist, self.rows)
        total = sum(counts)
        return [c / total for c in counts] if total else counts
