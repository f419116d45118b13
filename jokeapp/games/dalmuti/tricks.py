"""Tricks (spec 5.1): leading, following, jesters, passing, and who leads the next trick."""

from __future__ import annotations

from collections.abc import Sequence

from jokeapp.core.contract import Event
from jokeapp.games.dalmuti.actions import reject
from jokeapp.games.dalmuti.data import CARD_INDEX, CARD_NUMBERS, JESTER
from jokeapp.games.dalmuti.rounds import finish_round
from jokeapp.games.dalmuti.state import DalmutiState, Play


def set_rank(cards: Sequence[int]) -> int | None:
    """The rank of a set: its number cards' number (jesters take it on), 13 for jesters
    alone, None when the number cards differ."""
    rank = JESTER
    for card in cards:
        number = CARD_NUMBERS[card]
        if number != JESTER:
            if rank != JESTER and number != rank:
                return None
            rank = number
    return rank


def check_play(state: DalmutiState, actor: str, cards: tuple[int, ...]) -> int:
    """The rank of the set ``actor`` may play now; rejects it otherwise."""
    if not cards:
        reject("empty_play")
    if actor in state.trick.locked_out:
        reject("locked_out")
    rank = set_rank(cards)
    if rank is None:
        reject("mixed_numbers")
    top = state.trick.top
    if top is not None:
        if len(cards) != top.count:
            reject("wrong_count", {"count": top.count})
        if rank >= top.rank:
            reject("not_lower")
    return rank


def try_play(state: DalmutiState, actor: str, card_ids: object) -> list[Event] | None:
    """``play`` of ``card_ids`` by the player whose turn it is, when it is a well-formed
    legal set (the checks of ``cards_from_hand`` and ``check_play`` in one pass over its
    cards); None, with nothing changed, for anything else, which the checked path judges."""
    if type(card_ids) is not list or not card_ids:
        return None
    trick = state.trick
    top = trick.top
    if top is not None and len(card_ids) != top.count:
        return None
    hand = state.hands[actor]
    if len(card_ids) == 1:  # a single card (half of all plays): no set to check
        card_id = card_ids[0]
        card = CARD_INDEX.get(card_id) if type(card_id) is str else None
        if card is None or card not in hand:
            return None
        rank = CARD_NUMBERS[card]
        if (top is not None and rank >= top.rank) or actor in trick.locked_out:
            return None
        return play(state, actor, (card,), rank, [card_id])
    cards: list[int] = []
    rank = JESTER
    for card_id in card_ids:
        if type(card_id) is not str:
            return None
        card = CARD_INDEX.get(card_id)
        if card is None or card in cards or card not in hand:
            return None
        number = CARD_NUMBERS[card]
        if number != JESTER:
            if rank != JESTER and number != rank:
                return None
            rank = number
        cards.append(card)
    if (top is not None and rank >= top.rank) or actor in trick.locked_out:
        return None
    return play(state, actor, tuple(cards), rank, card_ids[:])


def check_pass(state: DalmutiState) -> None:
    if state.trick.top is None:
        reject("cannot_pass_lead")


def play(
    state: DalmutiState, actor: str, cards: tuple[int, ...], rank: int, card_ids: list[str]
) -> list[Event]:
    """Plays ``cards`` (checked) of ``rank``; ``card_ids`` are their ids in the same order, a
    list of the caller's making that the event keeps (the fast path copies the action's)."""
    hand = state.hands[actor]
    for card in cards:
        hand.remove(card)
    trick = state.trick
    played = Play(cards, len(cards), rank, actor)
    trick.top = played
    trick.pile.append(played)
    trick.passes_since_top = []
    events: list[Event] = [
        {
            "type": "played",
            "player": actor,
            "cardIds": card_ids,
            "count": played.count,
            "rank": rank,
        }
    ]
    if not hand:
        state.finish_order.append(actor)
        events.append({"type": "handEmptied", "player": actor, "place": len(state.finish_order)})
        if sum(1 for player in state.order if state.hands[player]) == 1:
            events.extend(finish_round(state))
            return events
    following = next_to_answer(state, actor)
    if following is None:
        events.append(end_trick(state))
    else:
        state.current = following
    return events


def pass_turn(state: DalmutiState, actor: str) -> list[Event]:
    trick = state.trick
    trick.passes_since_top.append(actor)
    if state.options.pass_locks_out:
        trick.locked_out.append(actor)
    following = next_to_answer(state, actor)
    if following is None:
        return [{"type": "passed", "player": actor}, end_trick(state)]
    state.current = following
    return [{"type": "passed", "player": actor}]


def next_to_answer(state: DalmutiState, after: str) -> str | None:
    """Who takes the turn after ``after``: the next player who has cards and is not locked
    out, while any of them still has to answer the top set; None when none has to (everyone
    with cards, bar whoever played it, has passed since it or is locked out): the trick ends."""
    order = state.order
    place = order.index(after) + 1 - len(order)  # a negative index: order[place] wraps around
    player = order[place]
    trick = state.trick
    if (  # the usual case (four moves in five): the next seat still has to answer
        state.hands[player]
        and player not in trick.passes_since_top
        and player != trick.top.by  # type: ignore[union-attr]  # a follow has a top
        and player not in trick.locked_out
    ):
        return player
    hands, answered, locked = state.hands, trick.passes_since_top, trick.locked_out
    by = trick.top.by  # type: ignore[union-attr]
    for player in order:  # does anyone still have to answer? (at a trick's end, no one)
        if hands[player] and player not in answered and player != by and player not in locked:
            break
    else:
        return None
    for offset in range(place, place + len(order)):  # then the next seat that may: ``after`` last
        player = order[offset]
        if hands[player] and player not in locked:
            return player
    return None  # not reached: the seat found above may


def next_player(state: DalmutiState, after: str, skipped: Sequence[str]) -> str:
    """The next player in turn order after ``after`` who still has cards and is not skipped."""
    order = state.order
    seats = len(order)
    start = order.index(after)
    for step in range(1, seats + 1):
        player = order[(start + step) % seats]
        if state.hands[player] and player not in skipped:
            return player
    raise AssertionError("no player left to take the turn")


def end_trick(state: DalmutiState) -> Event:
    """Clears the table; whoever played last leads, or the next player with cards if that
    set emptied their hand."""
    trick = state.trick
    top = trick.top
    assert top is not None
    winner = top.by
    leader = winner if state.hands[winner] else next_player(state, winner, ())
    for played in trick.pile:
        state.discard.extend(played.cards)
    # the table cleared in place (every move changes the trick in place too): cheaper than a
    # new Trick, whose dataclass __init__ is a call of its own
    trick.leader, trick.top = leader, None
    trick.passes_since_top, trick.locked_out, trick.pile = [], [], []
    state.current = leader
    return {"type": "trickWon", "player": winner, "next": leader}
