"""Invariants over many random games: money explained by events, cards intact, JSON round
trips, illegal actions change nothing, replays match, nothing hidden leaks, games end."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jokeapp.core.errors import IllegalAction
from jokeapp.core.record import verify_record
from jokeapp.core.rng import Rng
from jokeapp.games.marble.state import MarbleState
from jokeapp.sim.play import bot_rng, play_recorded
from tests.botask import ask

from .helpers import GAME
from .invariants import (
    assert_cards_intact,
    assert_money_explained,
    assert_nothing_hidden_leaks,
    assert_state_sane,
    money,
)

MAX_STEPS = 20_000
# maxRounds = 0 has no round limit: such a game ends only by bankruptcy, maybe never, so the
# random games below stop it here (its invariants checked all the way).
UNLIMITED_CAP = 2_000
OPTION_SETS = st.fixed_dictionaries(
    {spec.key: st.sampled_from(spec.choices) for spec in GAME.options}
)

NOT_ACTIONS: list[Any] = [
    None,
    "ROLL",
    ["ROLL"],
    {},
    {"type": "roll"},
    {"type": "NOPE"},
    {"type": 1},
    {"type": "ROLL", "extra": 1},
    {"type": "BUILD"},
    {"type": "BUILD", "level": True},
    {"type": "BUILD", "level": 1.0},
    {"type": "SELL", "pos": "1", "what": "top"},
    {"type": "SELL", "pos": 1},
    {"type": "SPACE_TRAVEL", "dest": False},
    {"type": "TRADE_RESPOND", "accept": 1},
    {"type": "PROPOSE_TRADE", "to": "p2", "give": {}, "take": {}},
    {
        "type": "PROPOSE_TRADE",
        "to": "p2",
        "give": {"lands": [1, 1], "cash": 0},
        "take": {"lands": [], "cash": 0},
    },
    {
        "type": "PROPOSE_TRADE",
        "to": "p2",
        "give": {"lands": [], "cash": -1},
        "take": {"lands": [], "cash": 0},
    },
]


def random_action(rng: Rng, players: list[str]) -> tuple[str, Any]:
    """Some action by someone: often illegal now, sometimes not even an action."""
    actor = (players + ["stranger"])[rng.below(len(players) + 1)]
    pick = rng.below(12)
    if pick < 4:
        return actor, NOT_ACTIONS[rng.below(len(NOT_ACTIONS))]
    kind = [
        "ROLL",
        "PAY_ISLAND_FEE",
        "USE_ESCAPE_CARD",
        "BUY",
        "TAKEOVER",
        "PASS",
        "BUILD",
        "SELL",
        "SPACE_TRAVEL",
        "TRADE_RESPOND",
        "PROPOSE_TRADE",
    ][rng.below(11)]
    pos = rng.below(44) - 2
    by_kind: dict[str, dict[str, Any]] = {
        "BUILD": {"level": rng.below(6)},
        "SELL": {"pos": pos, "what": ("top", "all", "x")[rng.below(3)]},
        "SPACE_TRAVEL": {"dest": pos},
        "TRADE_RESPOND": {"accept": rng.below(2) == 0},
        "PROPOSE_TRADE": {
            "to": players[rng.below(len(players))],
            "give": {"lands": [rng.below(40)], "cash": rng.below(400)},
            "take": {"lands": [], "cash": rng.below(400)},
        },
    }
    return actor, {"type": kind, **by_kind.get(kind, {})}


def check_illegal_leaves_state(state: MarbleState, rng: Rng) -> None:
    snapshot = GAME.to_json(state)
    probe = GAME.from_json(snapshot)
    actor, action = random_action(rng, list(state.order))
    try:
        GAME.apply(probe, actor, action)
    except IllegalAction:
        assert GAME.to_json(probe) == snapshot, action


def play_checked(
    options: dict[str, Any],
    players: list[str],
    seed: int,
    bots: list[str],
    concede_odds: int = 0,
    cap: int | None = None,
) -> int:
    """One game with every invariant checked at every step; returns its length.

    ``cap``: a game with no round limit may run on; stop it there (no result to check)."""
    state, _ = GAME.start(options, players, seed)
    rng, chaos = bot_rng(seed), Rng.from_seed(seed + 7)
    steps = 0
    while not GAME.is_over(state):
        if cap is not None and steps >= cap:
            return steps
        assert steps < MAX_STEPS, "the game did not end"
        pending = GAME.pending(state)
        assert len(pending) == 1
        who = pending[0].player
        action = ask(GAME, bots[players.index(who)], state, who, rng)
        assert action["type"] != "CONCEDE"
        if action["type"] != "PROPOSE_TRADE":
            assert action in GAME.legal_actions(state, who)
        if concede_odds and chaos.below(concede_odds) == 0:
            # somebody leaves the table, at any moment, whoever is to act
            alive = [p for p in players if state.players[p].alive]
            who, action = alive[chaos.below(len(alive))], {"type": "CONCEDE"}
        check_illegal_leaves_state(state, chaos)
        before = money(state)
        events = GAME.apply(state, who, action)
        assert_money_explained(before, money(state), events)
        assert_cards_intact(state)
        assert_state_sane(state)
        data = GAME.to_json(state)
        assert GAME.to_json(GAME.from_json(data)) == data
        assert_nothing_hidden_leaks(state, events)
        assert_nothing_hidden_leaks(state, GAME.view(state, players[steps % len(players)]))
        steps += 1
    result = GAME.result(state)
    assert result is not None and result["winners"]
    assert sorted(e["player"] for e in result["ranking"]) == sorted(players)
    return steps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=OPTION_SETS,
    count=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    bots=st.lists(st.sampled_from(["random", "heuristic"]), min_size=4, max_size=4),
    concede_odds=st.sampled_from([0, 0, 40, 150]),
)
def test_random_games_keep_every_invariant(
    options: dict[str, Any], count: int, seed: int, bots: list[str], concede_odds: int
) -> None:
    cap = UNLIMITED_CAP if options["maxRounds"] == 0 else None
    players = [f"p{i}" for i in range(1, count + 1)]
    play_checked(options, players, seed, bots, concede_odds, cap)


def test_unlimited_rounds_games_keep_every_invariant_past_any_round_limit() -> None:
    for seed in range(12):
        bots = ["heuristic", "heuristic", "random", "random"][: 2 + seed % 3]
        players = [f"p{i}" for i in range(1, len(bots) + 1)]
        play_checked(
            {"maxRounds": 0, "startMoney": 500, "salary": 30},
            players,
            seed,
            bots + ["random"],
            cap=3000,
        )


def test_many_games_money_is_always_explained_by_events() -> None:
    """A plain loop over seeds, cheaper per step: the accounting and the cards only."""
    specs = GAME.options
    for seed in range(2500):
        pick = Rng.from_seed(seed)
        options = {s.key: s.choices[pick.below(len(s.choices))] for s in specs}
        players = [f"p{i}" for i in range(1, 2 + pick.below(3) + 1)]
        bot = ("random", "heuristic")[seed % 2]
        state, _ = GAME.start(options, players, seed)
        rng = bot_rng(seed)
        steps = 0
        while not GAME.is_over(state):
            if options["maxRounds"] == 0 and steps >= UNLIMITED_CAP:
                break
            who = GAME.pending(state)[0].player
            before = money(state)
            events = GAME.apply(state, who, ask(GAME, bot, state, who, rng))
            assert_money_explained(before, money(state), events)
            steps += 1
            assert steps < MAX_STEPS
        assert_cards_intact(state)


def test_records_replay_to_the_same_events_states_and_result() -> None:
    for seed in range(25):
        options = {"trade": seed % 2 == 0, "takeover": seed % 3 == 0, "monopolyWin": seed % 4 == 0}
        bots = {"a": GAME.bots["random"], "b": GAME.bots["heuristic"], "c": GAME.bots["random"]}
        game = play_recorded(GAME, options, ["a", "b", "c"], seed, bots, with_states=True)
        assert game.steps > 20 and len(game.record["steps"]) == game.steps
        assert verify_record(GAME, game.record) == []
        assert game.record["result"] == GAME.result(game.state)


def test_every_listed_legal_action_is_accepted() -> None:
    for seed in range(40):
        options = {
            "trade": True,
            "takeover": True,
            "landmark": True,
            "islandFee": 10,
            "buildOnPurchase": True,
        }
        state, _ = GAME.start(options, ["a", "b", "c"], seed)
        rng = bot_rng(seed)
        steps = 0
        while not GAME.is_over(state) and steps < 400:
            who = GAME.pending(state)[0].player
            data = GAME.to_json(state)
            for action in GAME.legal_actions(state, who)[:12]:
                GAME.apply(GAME.from_json(data), who, action)
            for other in state.order:
                if other != who:
                    assert GAME.legal_actions(state, other) == []
            GAME.apply(state, who, ask(GAME, "random", state, who, rng))
            steps += 1


def test_random_illegal_actions_leave_the_state_unchanged() -> None:
    refused = 0
    for seed in range(30):
        options = {"trade": True, "takeover": seed % 2 == 0, "islandFee": 10}
        state, _ = GAME.start(options, ["p1", "p2", "p3"], seed)
        rng, chaos = bot_rng(seed), Rng.from_seed(seed)
        while not GAME.is_over(state):
            snapshot = GAME.to_json(state)
            for _ in range(3):
                probe = GAME.from_json(snapshot)
                actor, action = random_action(chaos, ["p1", "p2", "p3"])
                try:
                    GAME.apply(probe, actor, action)
                except IllegalAction as err:
                    refused += 1
                    assert err.code and err.message
                    assert GAME.to_json(probe) == snapshot, action
            who = GAME.pending(state)[0].player
            GAME.apply(state, who, ask(GAME, "random", state, who, rng))
    assert refused > 1000
