"""Enumerating legal moves, for bots and the UI's hints.

A set is described by a choice ``(number, number_cards, jesters)``: ``number_cards`` cards of
``number`` plus ``jesters`` jesters (``number`` is 13 for jesters alone). Cards of the same
number are interchangeable, so each choice stands for one concrete set: the lowest card ids.
That keeps the list bounded (at most a few hundred sets) while covering every distinct play.

The random bot draws one of these sets on every move, so ``lead_count``/``lead_cards`` and
``follow_actions`` (with ``multi_follows``) give the same sets, in the same order, straight
off the sorted hand, without building choices (tests/dalmuti/test_review_bot_sampling.py).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Final, overload

from jokeapp.core.contract import Action, pick_uniformly
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_NUMBERS, FIRST_CARD, JESTER, JESTERS
from jokeapp.games.dalmuti.revolution import holds_both_jesters
from jokeapp.games.dalmuti.state import DalmutiState, Play, RevolutionCheck, TaxReturn

Choice = tuple[int, int, int]
FIRST_JESTER = JESTERS[0]  # jesters are the deck's last cards
# The pass ``pick_legal`` hands a bot: one dict shared by every such move, never changed (a
# record keeps a copy, core.record.Recorder.step); ``apply`` knows it by itself.
PASS: Final[Action] = {"type": "pass"}
CARD_ID = CARD_IDS.__getitem__  # a card's id, mapped over a set without a comprehension's frame


def number_counts(hand: list[int]) -> list[int]:
    """How many cards of each number (index 1..12) and jesters (index 13) a hand holds."""
    counts = [0] * (JESTER + 1)
    for card in hand:
        counts[CARD_NUMBERS[card]] += 1
    return counts


def jester_count(hand: list[int]) -> int:
    """Jesters sort last in a sorted hand (and most hands hold none)."""
    if not hand or hand[-1] < FIRST_JESTER:
        return 0
    return len(hand) - bisect_left(hand, FIRST_JESTER)


def play_choices(counts: list[int], top: Play | None) -> list[Choice]:
    """Every distinct legal set: any count on a lead, else top's count with a lower number."""
    jesters = counts[JESTER]
    choices: list[Choice] = []
    if top is None:
        for number in range(1, JESTER):
            for used in range(1, counts[number] + 1):
                for wild in range(jesters + 1):
                    choices.append((number, used, wild))
        for wild in range(1, jesters + 1):
            choices.append((JESTER, 0, wild))
        return choices
    need = top.count
    most_wild = min(jesters, need - 1)
    for number in range(1, top.rank):
        have = counts[number]
        if have + most_wild < need:
            continue
        for wild in range(most_wild + 1):
            if need - wild <= have:
                choices.append((number, need - wild, wild))
    return choices


def multi_follows(hand: list[int], below_top: int, need: int) -> list[tuple[int, int]]:
    """``play_choices`` on ``need`` cards, as ``(start, used)``: the cards ``hand[start :
    start + used]`` and ``need - used`` jesters, for the numbers among the first
    ``below_top`` cards of a sorted hand (those below top's rank)."""
    fewest = need - min(jester_count(hand), need - 1)
    sets: list[tuple[int, int]] = []
    if below_top < fewest:  # too few cards below top's rank for any set
        return sets
    start = 0
    while start < below_top:  # one number's run of cards at a time
        last = start + fewest - 1  # the run's card that makes the fewest needed
        if last >= below_top:
            break
        number = CARD_NUMBERS[hand[start]]
        if CARD_NUMBERS[hand[last]] != number:  # too short: on to the next number's run
            start = bisect_left(hand, FIRST_CARD[number + 1], start + 1, last)
            continue
        end = bisect_left(hand, FIRST_CARD[number + 1], last + 1, below_top)
        for used in range(min(end - start, need), fewest - 1, -1):
            sets.append((start, used))
        start = end
    return sets


def lead_count(hand: list[int]) -> int:
    """``len(play_choices(number_counts(hand), None))`` (``lead_size`` counts them)."""
    return lead_size(hand, jester_count(hand))


def lead_cards(hand: list[int], index: int) -> list[str]:
    """``choice_cards(hand, play_choices(number_counts(hand), None)[index])``, read straight
    off the sorted hand (``lead_play`` reads them)."""
    cards: list[str] = lead_play(hand, jester_count(hand), index)["cardIds"]
    return cards


def lead_size(hand: list[int], jesters: int) -> int:
    """How many sets a sorted hand holding ``jesters`` jesters may lead (``LeadActions``):
    each number card with any number of jesters, then jesters alone."""
    return (len(hand) - jesters) * (jesters + 1) + jesters


def lead_play(hand: list[int], jesters: int, index: int) -> Action:
    """The lead's set ``index`` (0 <= index < ``lead_size``) of a sorted hand holding
    ``jesters`` jesters: set ``index`` ends at the number card at ``index // (jesters + 1)``
    (the card and all lower ids of its number make it) with ``index % (jesters + 1)``
    jesters; past every number card's block, jesters alone."""
    per_card = jesters + 1
    position, wild = index // per_card, index % per_card
    numbers_end = len(hand) - jesters
    if position < numbers_end:
        start = bisect_left(hand, FIRST_CARD[CARD_NUMBERS[hand[position]]])
        cards = hand[start : position + 1]
    else:  # jesters alone, past every number card's block
        cards = []
        wild = index - numbers_end * per_card + 1
    if wild:
        cards += hand[-wild:]
    return {"type": "play", "cardIds": [*map(CARD_ID, cards)]}


def choice_cards(hand: list[int], choice: Choice) -> list[str]:
    """The set a choice stands for in a sorted hand: its lowest ids, jesters last."""
    number, used, wild = choice
    cards: list[int] = []
    if used:
        start = bisect_left(hand, FIRST_CARD[number])
        cards = hand[start : start + used]
    if wild:
        cards += hand[-wild:]  # jesters sort last
    return [CARD_IDS[card] for card in cards]


def return_choices(hand: list[int], count: int) -> list[list[str]]:
    """One set of ``count`` cards per distinct multiset of numbers, each made of the lowest
    ids of its numbers, in the order ``itertools.combinations(hand, count)`` of a sorted hand
    first meets them (by numbers, lexicographically): built straight from the numbers' runs
    of cards, without walking every combination."""
    if count == 0:
        return [[]]
    runs: list[list[int]] = []  # the cards of each number the hand holds, lowest first
    for card in hand:
        if runs and CARD_NUMBERS[runs[-1][0]] == CARD_NUMBERS[card]:
            runs[-1].append(card)
        else:
            runs.append([card])
    choices: list[list[str]] = []

    def extend(cards: list[int], run: int, used: int) -> None:
        # the sets that go on from ``cards``, whose last card is the ``used``-th taken from
        # ``runs[run]``; the set's last card is added here, without a call of its own
        last = len(cards) + 1 == count
        for index in range(run, len(runs)):
            taken = used if index == run else 0
            if taken < len(runs[index]):
                more = [*cards, runs[index][taken]]
                if last:
                    choices.append([CARD_IDS[card] for card in more])
                else:
                    extend(more, index, taken + 1)

    extend([], 0, 0)
    return choices


def legal_actions(state: DalmutiState, player: str) -> list[Action]:
    phase = state.phase
    hand = state.hands.get(player)
    if hand is None:
        return []
    if isinstance(phase, RevolutionCheck):
        if phase.confirmed.get(player) is not False:
            return []
        actions: list[Action] = [{"type": "confirmHand", "declareRevolution": False}]
        if holds_both_jesters(hand):
            actions.append({"type": "confirmHand", "declareRevolution": True})
        return actions
    if isinstance(phase, TaxReturn):
        owed = phase.owed.get(player)
        if owed is None or owed.done:
            return []
        return [{"type": "returnTax", "cardIds": ids} for ids in return_choices(hand, owed.count)]
    if phase.kind != "playing" or player != state.current:
        return []
    top = state.trick.top
    plays: list[Action] = [
        {"type": "play", "cardIds": choice_cards(hand, choice)}
        for choice in play_choices(number_counts(hand), top)
    ]
    if top is not None:
        plays.append({"type": "pass"})
    return plays


def single_follows(hand: list[int], below_top: int) -> list[int]:
    """The sets of one card that beat a single: the lowest card of each number among the
    first ``below_top`` cards of a sorted hand (those below top's rank)."""
    firsts: list[int] = []
    number = 0
    for card in hand[:below_top]:
        if CARD_NUMBERS[card] != number:
            number = CARD_NUMBERS[card]
            firsts.append(card)
    return firsts


def multi_cards(hand: list[int], start: int, used: int, need: int) -> list[str]:
    """The ids of ``multi_follows``' set ``(start, used)`` of ``need`` cards: the number cards,
    then the jesters (which sort last)."""
    cards = hand[start : start + used]
    if used < need:
        cards += hand[used - need :]
    return [*map(CARD_ID, cards)]


def follow_actions(hand: list[int], top: Play) -> list[Action]:
    """``legal_actions`` of the player whose turn it is when following ``top``, listed
    straight off the sorted hand (``single_follows``, ``multi_follows``): a follow has few
    sets (two or three on average), so listing them costs less than counting them lazily."""
    need = top.count
    below_top = bisect_left(hand, FIRST_CARD[top.rank])
    plays: list[Action]
    if need == 1:
        plays = [
            {"type": "play", "cardIds": [CARD_IDS[card]]}
            for card in single_follows(hand, below_top)
        ]
    else:
        plays = [
            {"type": "play", "cardIds": multi_cards(hand, start, used, need)}
            for start, used in multi_follows(hand, below_top, need)
        ]
    plays.append({"type": "pass"})
    return plays


class LeadActions(Sequence[Action]):
    """``legal_actions`` of the player whose turn it is to lead, the same actions in the same
    order, each built only when read: a lead has many sets (eight on average, up to 44) and
    a random bot reads one of them, so counting the others is enough. Holds a copy of the
    hand, nothing of the state.

    The sets of ``play_choices(number_counts(hand), None)``, counted by ``lead_size`` and
    read by ``lead_play``."""

    __slots__ = ("_hand", "_jesters", "_len")

    def __init__(self, hand: list[int]) -> None:
        self._hand = hand[:]
        self._jesters = jesters = jester_count(hand)
        self._len = lead_size(hand, jesters)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if type(index) is not int or not 0 <= index < self._len:
            return _other_index(self, index)
        return lead_play(self._hand, self._jesters, index)

    def __repr__(self) -> str:
        return f"LeadActions({list(self)!r})"


class ReturnActions(Sequence[Action]):
    """``legal_actions`` of a player giving one or two cards back (the sets of
    ``return_choices``, in its order), each built only when read: a hand has about a hundred
    distinct pairs and a random bot reads one. Holds the lowest card of each number the
    hand holds and the second lowest where there is one, nothing of the state."""

    __slots__ = ("_count", "_firsts", "_len", "_seconds")

    def __init__(self, hand: list[int], count: int) -> None:
        assert count in (1, 2)
        self._count = count
        firsts: list[int] = []
        seconds: list[int | None] = []
        number = 0
        for card in hand:
            if CARD_NUMBERS[card] != number:
                number = CARD_NUMBERS[card]
                firsts.append(card)
                seconds.append(None)
            elif seconds[-1] is None:
                seconds[-1] = card
        self._firsts, self._seconds = firsts, seconds
        runs = len(firsts)
        if count == 1:
            self._len = runs
        else:  # two numbers in order, or one number twice where it is held twice
            self._len = runs * (runs - 1) // 2 + sum(1 for card in seconds if card is not None)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if type(index) is not int or not 0 <= index < self._len:
            return _other_index(self, index)
        firsts = self._firsts
        if self._count == 1:
            cards = [firsts[index]]
        else:
            runs = len(firsts)
            for first in range(runs):  # the sets whose lower card is of run ``first``
                second = self._seconds[first]
                if second is not None:
                    if index == 0:
                        cards = [firsts[first], second]
                        break
                    index -= 1
                later = runs - 1 - first
                if index < later:
                    cards = [firsts[first], firsts[first + 1 + index]]
                    break
                index -= later
        return {"type": "returnTax", "cardIds": [*map(CARD_ID, cards)]}

    def __repr__(self) -> str:
        return f"ReturnActions({list(self)!r})"


def _other_index(actions: Sequence[Action], index: int | slice) -> Action | list[Action]:
    """A lazy list's read other than a bot's: a slice, a negative index, or out of range."""
    size = len(actions)
    if isinstance(index, slice):
        return [actions[i] for i in range(*index.indices(size))]
    if index < 0:
        index += size
    if not 0 <= index < size:
        raise IndexError("legal action index out of range")
    return actions[index]


def legal_sequence(state: DalmutiState, player: str) -> Sequence[Action]:
    """``legal_actions`` for a bot that reads nothing else; a lead's and a tax return's
    built lazily."""
    if player != state.current or state.phase.kind != "playing":
        phase = state.phase
        hand = state.hands.get(player)
        if hand is not None and isinstance(phase, TaxReturn):
            owed = phase.owed.get(player)
            if owed is not None and not owed.done and owed.count in (1, 2):
                return ReturnActions(hand, owed.count)
        return legal_actions(state, player)
    hand = state.hands[player]  # the player whose turn it is: one of the players
    top = state.trick.top
    if top is None:
        return LeadActions(hand)
    if not hand or hand[0] >= FIRST_CARD[top.rank]:  # nothing beats it (a third of all
        return [{"type": "pass"}]  # moves): the pass alone, no need to look further
    return follow_actions(hand, top)


def pick_legal(state: DalmutiState, player: str, rng: Rng, draw_single: bool) -> Action | None:
    """``pick_uniformly(legal_sequence(state, player), rng, draw_single)``, None when that
    list is empty (core.contract.pick_legal). With ``draw_single`` (dalmuti's random bot)
    that is ``legal[rng.below(n)]`` for the n legal actions, which the turn's moves take in
    one call: a lead's and a follow's sets are counted and only the drawn one made an
    action; a turn that cannot beat the table draws ``below(1)`` all the same and is the
    shared ``PASS``."""
    if not draw_single or player != state.current or state.phase.kind != "playing":
        actions = legal_sequence(state, player)
        return pick_uniformly(actions, rng, draw_single) if actions else None
    hand = state.hands[player]
    top = state.trick.top
    if top is None:
        jesters = jester_count(hand)
        size = lead_size(hand, jesters)
        return lead_play(hand, jesters, rng.below(size)) if size else None
    if not hand or hand[0] >= FIRST_CARD[top.rank]:  # the pass alone
        rng.below(1)
        return PASS
    need = top.count
    below_top = bisect_left(hand, FIRST_CARD[top.rank])
    if need == 1:
        firsts = single_follows(hand, below_top)
        index = rng.below(len(firsts) + 1)
        if index == len(firsts):
            return PASS
        return {"type": "play", "cardIds": [CARD_IDS[firsts[index]]]}
    sets = multi_follows(hand, below_top, need)
    index = rng.below(len(sets) + 1)
    if index == len(sets):
        return PASS
    start, used = sets[index]
    return {"type": "play", "cardIds": multi_cards(hand, start, used, need)}
