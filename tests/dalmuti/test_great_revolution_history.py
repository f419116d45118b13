"""A great revolution turns the new round's ranks around, never the stored past rounds."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from jokeapp.core.contract import Action
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.revolution import can_declare
from jokeapp.games.dalmuti.state import DalmutiState
from tests.botask import ask
from tests.dalmuti.helpers import GAME, cards, give_both_jesters, position

P = ["p1", "p2", "p3", "p4", "p5"]
ROUND_ONE = ["p5", "p2", "p4", "p1", "p3"]


def after_round_one() -> tuple[DalmutiState, list[dict[str, Any]]]:
    """Round 1 of 3 ends [p5, p2, p4, p1, p3] (p1 plays its last card, p3 is left)."""
    hands: dict[str, list[Any]] = {
        "p1": cards(4),
        "p2": [],
        "p3": cards(11, 12),
        "p4": [],
        "p5": [],
    }
    state = position(hands, options={"rounds": 3}, current="p1", finishOrder=["p5", "p2", "p4"])
    events = GAME.apply(state, "p1", {"type": "play", "cardIds": cards(4)})
    return state, events


def test_great_revolution_keeps_the_previous_rounds_order_and_round_ranks() -> None:
    state, events = after_round_one()
    over = next(e for e in events if e["type"] == "roundOver")
    assert over["order"] == ROUND_ONE
    give_both_jesters(state, "p3")  # p3, the new last rank, holds both jesters in round 2
    for player in ["p5", "p2", "p4", "p1"]:
        GAME.apply(state, player, {"type": "confirmHand"})
    revolt = GAME.apply(state, "p3", {"type": "confirmHand", "declareRevolution": True})
    assert revolt[0] == {"type": "revolution", "player": "p3", "kind": "great"}
    assert state.order == ["p3", "p1", "p4", "p2", "p5"]  # this round's ranks turn around
    assert GAME.to_json(state)["roundResults"] == [{"order": ROUND_ONE, "revolution": "none"}]
    for viewer in [*P, None]:
        assert GAME.view(state, viewer)["roundResults"] == [
            {"order": ROUND_ONE, "revolution": "none"}
        ]
    overs = [over]
    while not GAME.is_over(state):
        player = GAME.pending(state)[0].player
        overs += [
            e
            for e in GAME.apply(state, player, GAME.on_timeout(state, player))
            if e["type"] == "roundOver"
        ]
    result = GAME.result(state)
    assert result is not None
    ranks = {entry["player"]: entry["roundRanks"] for entry in result["ranking"]}
    assert ranks["p5"][0] == 1 and ranks["p3"][0] == 5  # p5 won round 1
    assert ranks == {p: [o["order"].index(p) + 1 for o in overs] for p in P}
    assert [r["order"] for r in GAME.to_json(state)["roundResults"]] == [o["order"] for o in overs]


def revolting_bot(state: DalmutiState, player: str, rng: Rng) -> Action:
    """The random bot, except that it always declares when it may (more great revolutions)."""
    if can_declare(state, player):
        return {"type": "confirmHand", "declareRevolution": True}
    return ask(GAME, "random", state, player, rng)


def play_checking_history(options: dict[str, Any], players: list[str], seed: int) -> int:
    """Plays a game; after every step, each stored round equals its ``roundOver`` event.
    Returns how many great revolutions happened after round 1."""
    state, _ = GAME.start(options, players, seed)
    rng = Rng.from_seed(seed)
    overs: list[dict[str, Any]] = []
    greats = 0
    while not GAME.is_over(state):
        player = GAME.pending(state)[0].player
        events = GAME.apply(state, player, revolting_bot(state, player, rng))
        overs += [e for e in events if e["type"] == "roundOver"]
        greats += sum(
            1
            for e in events
            if e["type"] == "revolution" and e["kind"] == "great" and state.round > 1
        )
        stored = GAME.to_json(state)["roundResults"]
        assert [r["order"] for r in stored] == [o["order"] for o in overs]
        assert GAME.view(state, None)["roundResults"] == stored
    result = GAME.result(state)
    assert result is not None
    for entry in result["ranking"]:
        assert entry["roundRanks"] == [o["order"].index(entry["player"]) + 1 for o in overs]
        assert entry["total"] == sum(o["points"][entry["player"]] for o in overs)
    return greats


def test_great_revolution_history_matches_round_over_events_over_many_games() -> None:
    greats = sum(
        play_checking_history({"rounds": 7}, ["a", "b", "c", "d"], seed) for seed in range(40)
    )
    assert greats >= 3  # the sweep really exercises great revolutions after round 1


@settings(max_examples=25, deadline=None)
@given(
    rounds=st.sampled_from([3, 5, 7]),
    count=st.integers(4, 8),
    seed=st.integers(0, 2**32),
    locks=st.booleans(),
)
def test_stored_rounds_always_equal_their_round_over_events(
    rounds: int, count: int, seed: int, locks: bool
) -> None:
    options = {"rounds": rounds, "revolution": True, "passLocksOut": locks}
    play_checking_history(options, [f"p{i}" for i in range(1, count + 1)], seed)
