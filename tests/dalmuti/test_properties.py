"""Invariants over many random games (random options, players, seeds and bots)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from jokeapp.core.errors import IllegalAction
from jokeapp.core.replay import replay, replay_events
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.data import CARD_IDS, deck
from jokeapp.games.dalmuti.options import OPTIONS
from jokeapp.games.dalmuti.state import DalmutiState
from tests.botask import ask
from tests.dalmuti.helpers import GAME, ids_in

MAX_STEPS = 20_000

options_st = st.fixed_dictionaries({spec.key: st.sampled_from(spec.choices) for spec in OPTIONS})
players_st = st.integers(4, 8).map(lambda n: [f"p{i}" for i in range(1, n + 1)])
seeds = st.integers(0, 2**32)
bot_names = st.sampled_from(["random", "heuristic"])

Check = Callable[[DalmutiState, str, dict[str, Any], list[dict[str, Any]]], None]


def random_options(rng: Rng) -> dict[str, Any]:
    return {spec.key: spec.choices[rng.below(len(spec.choices))] for spec in OPTIONS}


def play(
    options: dict[str, Any],
    players: list[str],
    seed: int,
    bot: str = "random",
    check: Check | None = None,
) -> tuple[DalmutiState, list[tuple[str, dict[str, Any]]]]:
    """Plays to the end with the named bot everywhere; ``check`` sees every step."""
    state, _ = GAME.start(options, players, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    log: list[tuple[str, dict[str, Any]]] = []
    while not GAME.is_over(state):
        assert len(log) < MAX_STEPS, "the game did not end"
        player = GAME.pending(state)[0].player
        action = ask(GAME, bot, state, player, rng)
        events = GAME.apply(state, player, action)
        log.append((player, action))
        if check is not None:
            check(state, player, action, events)
    return state, log


def cards_in_play(state: DalmutiState) -> list[int]:
    on_table = [card for played in state.trick.pile for card in played.cards]
    return [*(card for hand in state.hands.values() for card in hand), *on_table, *state.discard]


def assert_all_cards_once(state: DalmutiState, *_: Any) -> None:
    assert sorted(cards_in_play(state)) == list(deck(state.options.remove_high_cards))
    trick = state.trick
    assert trick.top is (trick.pile[-1] if trick.pile else None)


def test_every_card_present_exactly_once_at_every_step_over_thousands_of_rounds() -> None:
    rng = Rng.from_seed(2024)
    rounds = 0
    for seed in range(600):
        options = random_options(rng)
        players = [f"p{i}" for i in range(4 + rng.below(5))]
        bot = "random" if seed % 3 else "heuristic"
        state, _ = play(options, players, seed, bot, assert_all_cards_once)
        assert len(state.round_results) == options["rounds"]
        rounds += options["rounds"]
    assert rounds >= 2000


@settings(max_examples=60, deadline=None)
@given(options=options_st, players=players_st, seed=seeds, bot=bot_names)
def test_every_game_ends_with_a_complete_result(
    options: dict[str, Any], players: list[str], seed: int, bot: str
) -> None:
    state, _ = play(options, players, seed, bot, assert_all_cards_once)
    result = GAME.result(state)
    assert result is not None and GAME.pending(state) == []
    ranking = result["ranking"]
    assert sorted(r["player"] for r in ranking) == sorted(players)
    assert [r["rank"] for r in ranking] == list(range(1, len(players) + 1))
    assert all(len(r["roundRanks"]) == options["rounds"] for r in ranking)
    total_points = sum(r["total"] for r in ranking)
    assert total_points == options["rounds"] * len(players) * (len(players) - 1) // 2
    assert result["winner"] == [ranking[0]["player"]]


@settings(max_examples=25, deadline=None)
@given(options=options_st, players=players_st, seed=seeds, bot=bot_names)
def test_replay_is_exact(options: dict[str, Any], players: list[str], seed: int, bot: str) -> None:
    events: list[list[dict[str, Any]]] = []
    state, log = play(options, players, seed, bot, lambda s, p, a, e: events.append(e))
    again = replay(GAME, options, players, seed, log)
    assert GAME.to_json(again) == GAME.to_json(state)
    _, _, replayed = replay_events(GAME, options, players, seed, log)
    assert replayed == events


def foreign_cards(state: DalmutiState, viewer: str | None) -> set[str]:
    """Cards in other players' hands that ``viewer`` has no right to know."""
    known: set[int] = set()
    for move in state.tax_log:
        if viewer in (move.giver, move.receiver):
            known.update(move.cards)
    return {
        CARD_IDS[card]
        for player, hand in state.hands.items()
        if player != viewer
        for card in hand
        if card not in known
    }


def assert_no_leaks(
    state: DalmutiState, actor: str, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    for viewer in [*state.players, None]:
        seen = GAME.view(state, viewer)
        assert not ids_in(seen) & foreign_cards(state, viewer)
        assert "rng" not in json.dumps(seen) and "deck" not in seen
        for event in events:
            copy = GAME.redact_event(event, viewer)
            assert copy is not None
            if event["type"] in ("taxPaid", "taxReturned") and viewer not in (
                event["from"],
                event["to"],
            ):
                assert not ids_in(copy)
            elif event["type"] not in ("played", "taxPaid", "taxReturned"):
                assert not ids_in(copy), event
    for viewer in state.players:
        if "canDeclareRevolution" in GAME.view(state, viewer):
            others = [p for p in state.players if p != viewer]
            assert all("canDeclareRevolution" not in GAME.view(state, p) for p in others)


@settings(max_examples=12, deadline=None)
@given(options=options_st, players=players_st, seed=seeds, bot=bot_names)
def test_no_view_or_redacted_event_shows_another_players_cards(
    options: dict[str, Any], players: list[str], seed: int, bot: str
) -> None:
    state, setup_events = GAME.start(options, players, seed)
    assert_no_leaks(state, "", {}, setup_events)
    play(options, players, seed, bot, assert_no_leaks)


def assert_round_trip(
    state: DalmutiState, _actor: str, _action: Any, events: list[dict[str, Any]]
) -> None:
    assert json.loads(json.dumps(events)) == events
    data = GAME.to_json(state)
    assert json.loads(json.dumps(data)) == data
    assert GAME.to_json(GAME.from_json(data)) == data


@settings(max_examples=15, deadline=None)
@given(options=options_st, players=players_st, seed=seeds)
def test_json_round_trip_identity(options: dict[str, Any], players: list[str], seed: int) -> None:
    state, setup_events = GAME.start(options, players, seed)
    assert_round_trip(state, "", {}, setup_events)
    play(options, players, seed, "random", assert_round_trip)


def illegal_candidates(state: DalmutiState, rng: Rng) -> list[tuple[str, Any]]:
    """Actions that are often, but not always, illegal right now."""
    players = state.players
    someone = players[rng.below(len(players))]
    hand = [CARD_IDS[c] for c in state.hands[someone]]
    picked = [hand[rng.below(len(hand))] for _ in range(rng.below(4))] if hand else []
    other = CARD_IDS[rng.below(len(CARD_IDS))]
    return [
        (someone, {"type": "play", "cardIds": picked}),
        (someone, {"type": "play", "cardIds": [*picked, other]}),
        (someone, {"type": "pass"}),
        (someone, {"type": "returnTax", "cardIds": picked}),
        (someone, {"type": "confirmHand", "declareRevolution": rng.below(2) == 1}),
        (someone, {"type": "confirmHand", "declareRevolution": "yes"}),
        (someone, {"type": "play"}),
        (someone, {"type": "play", "cardIds": picked, "extra": 1}),
        (someone, {"type": "dance"}),
        (someone, ["play"]),
        ("stranger", {"type": "pass"}),
    ]


@settings(max_examples=8, deadline=None)
@given(options=options_st, players=players_st, seed=seeds)
def test_illegal_actions_change_nothing_and_legal_ones_match_legal_actions(
    options: dict[str, Any], players: list[str], seed: int
) -> None:
    rng = Rng.from_seed(seed)
    refused = 0

    def probe(state: DalmutiState, *_: Any) -> None:
        nonlocal refused
        if GAME.is_over(state) or state.seq % 3:
            return
        before = GAME.to_json(state)
        for actor, action in illegal_candidates(state, rng):
            copy = GAME.from_json(before)
            seated = actor in players
            legal = GAME.legal_actions(copy, actor) if seated else []
            hand = {CARD_IDS[card] for card in copy.hands[actor]} if seated else set()
            try:
                GAME.apply(copy, actor, action)
            except IllegalAction as err:
                refused += 1
                assert err.message and err.code
                assert GAME.to_json(copy) == before
                assert not any(same_action(action, known, hand) for known in legal), (
                    action,
                    err.code,
                )
            else:
                assert any(same_action(action, known, hand) for known in legal), action

    play(options, players, seed, "random", probe)
    assert refused > 0


def same_action(action: Any, known: dict[str, Any], hand: set[str]) -> bool:
    """Equal up to the order of card ids and the choice of interchangeable copies in hand."""
    if not isinstance(action, dict) or action.get("type") != known["type"]:
        return False
    if not set(action) <= set(known) | {"declareRevolution"}:
        return False
    if "cardIds" in known:
        ids = action.get("cardIds", [])
        if len(set(ids)) != len(ids) or not set(ids) <= hand:
            return False
        numbers = sorted(card_id[:2] for card_id in action.get("cardIds", []))
        return numbers == sorted(card_id[:2] for card_id in known["cardIds"])
    return bool(action.get("declareRevolution", False) == known.get("declareRevolution", False))


@settings(max_examples=20, deadline=None)
@given(options=options_st, players=players_st, seed=seeds)
def test_every_listed_legal_action_is_accepted_and_timeouts_finish_the_game(
    options: dict[str, Any], players: list[str], seed: int
) -> None:
    state, _ = GAME.start(options, players, seed)
    steps = 0
    while not GAME.is_over(state):
        assert steps < MAX_STEPS
        pending = GAME.pending(state)
        for entry in pending:
            legal = GAME.legal_actions(state, entry.player)
            assert legal, entry
            if steps % 7 == 0:
                for action in legal:
                    GAME.apply(GAME.from_json(GAME.to_json(state)), entry.player, action)
        player = pending[-1].player
        GAME.apply(state, player, GAME.on_timeout(state, player))
        steps += 1
    assert GAME.result(state) is not None
