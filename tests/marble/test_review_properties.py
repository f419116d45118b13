"""Rules review, invariants over random legal play (many seeds, every option set).

Each check is a rule of the spec that must hold after every step, whatever happened:
salary exactly when a move crosses or reaches 출발 (5.1), dice moves by their sum, 10 is
무인도 (5.2), no roll after a plain roll in one step (5.1), pieces on 무인도 / 우주여행 sit
there (5.4, 5.5), a monopoly never goes unnoticed (5.7), the turn's counters start afresh
(5.1, 5.8, 3.5), the card guard's limit (3.5), and 무인도 / 우주여행 end the turn (5.1).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jokeapp.core.contract import Event
from jokeapp.core.errors import IllegalAction
from jokeapp.core.rng import Rng
from jokeapp.games.marble.data import ISLAND_POS, KIND, MAX_CARDS_PER_TURN, SPACE_POS, TOUR
from jokeapp.games.marble.monopoly import monopoly_kind
from jokeapp.games.marble.state import DECIDE, FINISHED, TURN_START, MarbleState
from jokeapp.sim.play import bot_rng
from tests.botask import ask

from .helpers import GAME

MAX_STEPS = 20_000
UNLIMITED_CAP = 2_000  # maxRounds = 0 may never end: stop such a game here
OPTION_SETS = st.fixed_dictionaries(
    {spec.key: st.sampled_from(spec.choices) for spec in GAME.options}
)


def assert_moves_follow_the_rules(events: list[Event]) -> None:
    salaries = [e for e in events if e["type"] == "salary"]
    crossings = [e for e in events if e["type"] == "moved" and e["passedStart"]]
    assert len(salaries) == len(crossings), events
    dice: list[int] | None = None
    for i, e in enumerate(events):
        kind = e["type"]
        if kind in ("rolled", "islandRoll"):
            dice = e["dice"]
            if kind == "rolled" and not e["double"]:
                later = events[i + 1 :]
                assert not [x for x in later if x["type"] in ("rolled", "islandRoll")], events
        if kind == "moved":
            if e["by"] == "dice":
                assert dice is not None and (e["from"] + sum(dice)) % 40 == e["to"], events
            if e["to"] == ISLAND_POS:
                assert any(x["type"] == "toIsland" for x in events[i:]), events


def assert_island_and_space_end_the_turn(
    state: MarbleState, events: list[Event], turn_before: int
) -> None:
    """Going to 무인도 or reaching 우주여행 ends the turn, a double's extra roll included."""
    stops = [e for e in events if e["type"] == "toIsland"]
    stops += [e for e in events if e["type"] == "moved" and e["to"] == SPACE_POS]
    if stops and state.phase != FINISHED:
        assert state.turn_seq != turn_before, events


def assert_table_follows_the_rules(state: MarbleState, turn_before: int) -> None:
    options = state.options
    top = 4 if options.landmark else 3
    for pos, deed in state.owners.items():
        assert deed.level <= (0 if KIND[pos] == TOUR else top), (pos, deed)
    for pid, piece in state.players.items():
        if not piece.alive:
            continue
        assert piece.island_left == 0 or piece.pos == ISLAND_POS, (pid, piece)
        assert not piece.space_pending or piece.pos == SPACE_POS, (pid, piece)
        if options.monopoly_win and state.phase != FINISHED:
            assert monopoly_kind(state, pid) is None, pid
    assert state.cards_this_turn <= MAX_CARDS_PER_TURN
    if state.phase == FINISHED:
        assert GAME.result(state) is not None
        return
    assert state.players[state.current_player].alive
    if state.phase == DECIDE:
        decision = state.decision
        assert decision is not None and decision.pos == state.players[state.current_player].pos
    if state.phase == TURN_START:
        assert state.debt is None and state.decision is None and state.pending_trade is None
    if state.turn_seq != turn_before:
        assert state.doubles_this_turn == 0 and state.cards_this_turn == 0
        assert state.trades_this_turn == 0 and not state.extra_roll


def play_by_the_rules(options: dict[str, Any], count: int, seed: int, concede_odds: int) -> None:
    players = [f"p{i}" for i in range(1, count + 1)]
    state, _ = GAME.start(options, players, seed)
    rng, chaos = bot_rng(seed), Rng.from_seed(seed + 11)
    bots = [("random", "heuristic")[(seed + i) % 2] for i in range(count)]
    steps = 0
    while not GAME.is_over(state):
        if options["maxRounds"] == 0 and steps >= UNLIMITED_CAP:
            return
        who = GAME.pending(state)[0].player
        action = ask(GAME, bots[players.index(who)], state, who, rng)
        if concede_odds and chaos.below(concede_odds) == 0:
            alive = [p for p in players if state.players[p].alive]
            who, action = alive[chaos.below(len(alive))], {"type": "CONCEDE"}
        turn_before = state.turn_seq
        events = GAME.apply(state, who, action)
        assert_moves_follow_the_rules(events)
        assert_island_and_space_end_the_turn(state, events, turn_before)
        assert_table_follows_the_rules(state, turn_before)
        steps += 1
        assert steps < MAX_STEPS


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=OPTION_SETS,
    count=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    concede_odds=st.sampled_from([0, 0, 60, 300]),
)
def test_random_legal_play_keeps_the_rules_of_moves_and_table(
    options: dict[str, Any], count: int, seed: int, concede_odds: int
) -> None:
    play_by_the_rules(options, count, seed, concede_odds)


def _action_grid(players: list[str]) -> list[dict[str, Any]]:
    """Well-formed actions of every type, most of them wrong for the moment they are tried."""
    grid: list[dict[str, Any]] = [
        {"type": kind} for kind in ("ROLL", "PAY_ISLAND_FEE", "USE_ESCAPE_CARD", "BUY", "TAKEOVER")
    ]
    grid += [{"type": "BUILD", "level": level} for level in range(6)]
    for pos in (-1, 0, 1, 5, 25, 30, 39, 40):
        grid += [{"type": "SELL", "pos": pos, "what": what} for what in ("top", "all")]
        grid.append({"type": "SPACE_TRAVEL", "dest": pos})
    grid += [{"type": "TRADE_RESPOND", "accept": answer} for answer in (True, False)]
    for to in [*players, "nobody"]:
        grid.append(
            {
                "type": "PROPOSE_TRADE",
                "to": to,
                "give": {"lands": [1], "cash": 0},
                "take": {"lands": [], "cash": 999},
            }
        )
    return grid


def test_rejected_actions_in_decide_debt_and_trade_phases_leave_the_state_unchanged() -> None:
    players = ["a", "b", "c"]
    grid = _action_grid(players)
    refused: dict[str, int] = {}
    options = {
        "startMoney": 200,
        "trade": True,
        "takeover": True,
        "landmark": True,
        "buildOnPurchase": True,
    }
    for seed in (1, 8, 36):  # heuristic games of these seeds go through the debt phase
        state, _ = GAME.start(options, players, seed)
        rng = bot_rng(seed)
        while not GAME.is_over(state):
            if state.phase != TURN_START:
                snapshot = GAME.to_json(state)
                for actor in players:
                    for action in grid:
                        probe = GAME.from_json(snapshot)
                        try:
                            GAME.apply(probe, actor, action)
                        except IllegalAction:
                            refused[state.phase] = refused.get(state.phase, 0) + 1
                            assert GAME.to_json(probe) == snapshot, (seed, actor, action)
            who = GAME.pending(state)[0].player
            GAME.apply(state, who, ask(GAME, "heuristic", state, who, rng))
    assert refused.get("debt", 0) > 1000 and refused.get("decide", 0) > 1000
