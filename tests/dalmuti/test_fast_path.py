"""The fast path of a turn (the common case ``apply`` takes at once, before it hands anything
else to ``apply_checked``) agrees with the fully checked path (``apply_checked``) on random play: for the same action on the same state, the
same events and the same resulting state JSON, or the same refusal (code and message) with
the state left exactly as it was. Actions are legal ones and many illegal ones (cards not in
the hand, mixed numbers, wrong counts, a pass on a lead, bad shapes, the wrong player ...).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti import game as game_module
from jokeapp.games.dalmuti.data import CARD_IDS, CARD_NUMBERS
from jokeapp.games.dalmuti.game import apply_checked
from jokeapp.games.dalmuti.options import OPTIONS
from jokeapp.games.dalmuti.state import DalmutiState
from tests.botask import ask
from tests.dalmuti.helpers import GAME

MAX_STEPS = 20_000

options_st = st.fixed_dictionaries({spec.key: st.sampled_from(spec.choices) for spec in OPTIONS})
players_st = st.integers(4, 8).map(lambda n: [f"p{i}" for i in range(1, n + 1)])


@dataclass
class Tally:
    """How often the fast path itself answered, so the test cannot pass by never using it."""

    fast_accepted: int = 0
    fast_refused: int = 0
    fast_declined: int = 0
    codes: set[str] = field(default_factory=set)


def clone(state: DalmutiState) -> DalmutiState:
    copied: DalmutiState = GAME.from_json(GAME.to_json(state))
    return copied


def outcome(run: Any, state: DalmutiState, actor: Any, action: Any) -> tuple[str, Any]:
    try:
        return "events", run(state, actor, copy.deepcopy(action))
    except Exception as exc:  # noqa: BLE001 - any refusal, typed or not, must match
        return "refused", (
            type(exc).__name__,
            getattr(exc, "code", None),
            getattr(exc, "message", str(exc)),
        )


def checked_apply(state: DalmutiState, actor: Any, action: Any) -> Any:
    """``apply`` without its fast path: the full checks, then the step count."""
    events = apply_checked(state, actor, action)
    state.seq += 1
    return events


class Declined(Exception):
    """Raised in place of ``apply_checked``: ``apply``'s fast path handed the action on."""

    def __init__(self, state: DalmutiState) -> None:
        super().__init__("declined")
        self.state_json = GAME.to_json(state)  # the state as the fast path left it


def fast_path_alone(state: DalmutiState, actor: Any, action: Any) -> Any:
    """``apply`` with ``apply_checked`` replaced by a stop: the fast path's own answer."""

    def stop(state: DalmutiState, actor: Any, action: Any) -> Any:
        raise Declined(state)

    saved = game_module.apply_checked
    game_module.apply_checked = stop
    try:
        return GAME.apply(state, actor, action)
    finally:
        game_module.apply_checked = saved


def compare(state: DalmutiState, actor: Any, action: Any, tally: Tally) -> None:
    before = GAME.to_json(state)
    # The fast path alone: it answers (events or a refusal) or declines, changing nothing.
    alone = clone(state)
    try:
        fast_path_alone(alone, actor, copy.deepcopy(action))
    except Declined as declined:
        tally.fast_declined += 1
        assert declined.state_json == before, (
            "the fast path declined but changed the state",
            action,
        )
    except Exception:  # noqa: BLE001
        tally.fast_refused += 1
        assert GAME.to_json(alone) == before, (
            "the fast path refused but changed the state",
            action,
        )
    else:
        tally.fast_accepted += 1
    # The game's apply (fast path first) against the fully checked path.
    fast, checked = clone(state), clone(state)
    got = outcome(GAME.apply, fast, actor, action)
    want = outcome(checked_apply, checked, actor, action)
    assert got == want, (actor, action)
    assert GAME.to_json(fast) == GAME.to_json(checked), (actor, action)
    if got[0] == "refused":
        assert GAME.to_json(fast) == before, (actor, action)
        tally.codes.add(str(got[1][1]))


def candidates(state: DalmutiState, rng: Rng) -> list[tuple[Any, Any]]:
    """Legal and illegal actions for the current player, and some by others."""
    players = state.players
    current = state.current
    hand = state.hands[current]
    others = [p for p in players if p != current]
    other = others[rng.below(len(others))]
    out: list[tuple[Any, Any]] = []
    legal = GAME.legal_actions(state, current)
    for _ in range(min(3, len(legal))):
        out.append((current, legal[rng.below(len(legal))]))
    for pending in GAME.pending(state):
        out.append((pending.player, GAME.on_timeout(state, pending.player)))
    ids = [CARD_IDS[card] for card in hand]
    foreign = [CARD_IDS[card] for card in state.hands[other]]
    top = state.trick.top
    out += [
        (current, {"type": "pass"}),
        (current, {"type": "pass", "extra": 1}),
        (current, {"type": "play"}),
        (current, {"type": "play", "cardIds": []}),
        (current, {"type": "play", "cardIds": "01-01"}),
        (current, {"type": "play", "cardIds": ["99-99"]}),
        (current, {"type": "play", "cardIds": [1]}),
        (current, {"type": "play", "cardIds": ids[:1], "more": True}),
        (current, {"type": "confirmHand", "declareRevolution": False}),
        (current, {"type": "returnTax", "cardIds": ids[:1]}),
        (current, {"type": "dance"}),
        (current, "pass"),
        (current, None),
        ("nobody", {"type": "pass"}),
        ("nobody", {"type": "play", "cardIds": ids[:1]}),
        (other, {"type": "pass"}),
    ]
    if ids:
        out.append((current, {"type": "play", "cardIds": [ids[0], ids[0]]}))
        pick = rng.below(len(ids))
        out.append((current, {"type": "play", "cardIds": ids[pick : pick + 1 + rng.below(3)]}))
        out.append((current, {"type": "play", "cardIds": ids[-1:]}))
        numbers = {CARD_NUMBERS[card] for card in hand}
        if len(numbers) > 1:  # two different numbers, no jester among them unless both are
            out.append((current, {"type": "play", "cardIds": [ids[0], ids[-1]]}))
        if top is not None:
            out.append((current, {"type": "play", "cardIds": ids[: top.count + 1]}))
    if foreign:
        out.append((current, {"type": "play", "cardIds": foreign[:1]}))
        out.append((other, {"type": "play", "cardIds": foreign[:1]}))
        out.append((current, {"type": "play", "cardIds": [*ids[:1], foreign[0]]}))
    return out


def walk(options: dict[str, Any], players: list[str], seed: int, every: int, tally: Tally) -> None:
    """Plays one random game; on every ``every``-th step in play, compares both paths on
    each candidate action. Other phases (revolution check, tax return) go through the
    checked path alone and are compared too, for the fast path must decline them."""
    state, _ = GAME.start(options, players, seed)
    rng = Rng.from_seed(seed ^ 0xFA57)
    steps = 0
    while not GAME.is_over(state):
        assert steps < MAX_STEPS, "the game did not end"
        if steps % every == 0:
            for actor, action in candidates(state, rng):
                compare(state, actor, action, tally)
        player = GAME.pending(state)[0].player
        action = (
            GAME.on_timeout(state, player)
            if rng.below(10) == 0
            else ask(GAME, "random", state, player, rng)
        )
        GAME.apply(state, player, action)
        steps += 1
    for actor in [state.current, "nobody"]:  # a finished game refuses alike on both paths
        compare(state, actor, {"type": "pass"}, tally)


@pytest.mark.pure_engines  # patches or subclasses an engine module
@settings(max_examples=8, deadline=None)
@given(options=options_st, players=players_st, seed=st.integers(0, 2**32))
def test_fast_and_checked_paths_agree_on_random_games(
    options: dict[str, Any], players: list[str], seed: int
) -> None:
    tally = Tally()
    walk(options, players, seed, every=13, tally=tally)
    # It never refuses itself: anything it cannot take, it leaves to the checked path.
    assert tally.fast_accepted and tally.fast_declined and not tally.fast_refused


@pytest.mark.pure_engines  # patches or subclasses an engine module
def test_fast_and_checked_paths_agree_over_seeds_with_random_options() -> None:
    tally = Tally()
    for seed in range(8):
        pick = Rng.from_seed(seed + 1000)
        options = {spec.key: spec.choices[pick.below(len(spec.choices))] for spec in OPTIONS}
        players = [f"p{i}" for i in range(1, 4 + pick.below(5) + 1)]
        walk(options, players, seed, every=5, tally=tally)
    # The refusals met cover the card and set checks the fast path runs (and declines on).
    assert {
        "not_in_hand",
        "duplicate_card",
        "unknown_card",
        "mixed_numbers",
        "empty_play",
    } <= tally.codes
    assert tally.fast_accepted > 200 and tally.fast_declined > 200 and not tally.fast_refused
