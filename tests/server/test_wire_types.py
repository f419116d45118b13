"""Each game's declared wire types (``game.wire``, exported by ``joke schema``) hold for what
the engine really sends and accepts.

Over random legal play of many seeds with random options, every legal action, every timeout
action, every event (unredacted, and as redacted for each seat and a spectator) and every
view (each seat and a spectator) must be exactly of the declared type: strict types, no key
missing, no key the type does not declare. An engine that emits a key its type lacks fails
here, so the TypedDicts in jokeapp/games/*/wire.py stay the one source of truth.
"""

from __future__ import annotations

import random
import typing
from collections import Counter
from typing import Any

import msgspec
import pytest

from jokeapp.core.contract import Game
from jokeapp.games import GAME_IDS, get_game
from jokeapp.games.marble.data import TOURS
from jokeapp.games.marble.state import Deed
from jokeapp.games.marble.turns import check_monopoly
from jokeapp.server.schema import document
from jokeapp.wire.game_types import check, lift

SEEDS = range(24)
MAX_STEPS = 1500  # per game; enough to reach debts, trades and round ends, bounded in time
CONCEDE_CHANCE = 0.003  # marble: CONCEDE is always legal but not listed; try it now and then


def random_options(game: Game[Any], rnd: random.Random) -> dict[str, Any]:
    return {spec.key: rnd.choice(spec.choices) for spec in game.options}


def players_for(game: Game[Any], rnd: random.Random) -> list[str]:
    return [f"p{i}" for i in range(1, rnd.randint(game.min_players, game.max_players) + 1)]


def tag(typed_dict: Any, key: str) -> str:
    value: str = typing.get_args(typed_dict.__annotations__[key])[0]
    return value


def pick(rnd: random.Random, actions: list[Any]) -> Any:
    """A random action, each kind of action as likely as any other (by type and flags), so
    that a rare choice such as declaring a revolution is not drowned by 40 destinations."""
    kinds: dict[tuple[Any, ...], list[Any]] = {}
    for action in actions:
        flags = tuple(sorted((k, v) for k, v in action.items() if isinstance(v, bool | str)))
        kinds.setdefault(flags, []).append(action)
    return rnd.choice(kinds[rnd.choice(sorted(kinds))])


def checked(game: Game[Any], field: str, value: Any, where: str) -> None:
    try:
        check(game, field, value)
    except msgspec.ValidationError as exc:
        pytest.fail(f"{game.id} {field} at {where} is not its declared type: {exc}\n{value!r}")


def check_events(game: Game[Any], events: list[Any], viewers: list[str | None], where: str) -> None:
    for event in events:
        checked(game, "event", event, where)
        for viewer in viewers:
            copy = game.redact_event(event, viewer)
            if copy is not None:
                checked(game, "event", copy, f"{where}, as sent to {viewer}")


def check_views(game: Game[Any], state: Any, viewers: list[str | None], where: str) -> None:
    for viewer in viewers:
        checked(game, "view", game.view(state, viewer), f"{where}, seen by {viewer}")


def play_checked(game: Game[Any], seed: int, seen: Counter[str]) -> None:
    """One random game, every wire value on the way checked; counts the event types seen."""
    rnd = random.Random(seed)
    players = players_for(game, rnd)
    viewers: list[str | None] = [*players, None]
    state, events = game.start(random_options(game, rnd), players, seed)
    check_events(game, events, viewers, f"seed {seed} setup")
    check_views(game, state, viewers, f"seed {seed} setup")
    seen.update(e["type"] for e in events)
    for step in range(MAX_STEPS):
        if game.is_over(state):
            return
        where = f"seed {seed} step {step}"
        actor = rnd.choice(game.pending(state)).player
        legal = game.legal_actions(state, actor)
        for each in legal:
            checked(game, "action", each, f"{where} (legal for {actor})")
        auto = game.on_timeout(state, actor)
        checked(game, "action", auto, f"{where} (timeout of {actor})")
        if game.id == "marble" and rnd.random() < CONCEDE_CHANCE:
            action: Any = {"type": "CONCEDE"}
        else:
            action = pick(rnd, [*legal, auto])
        events = game.apply(state, actor, action)
        seen.update(e["type"] for e in events)
        check_events(game, events, viewers, where)
        check_views(game, state, viewers, where)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_play_matches_the_declared_wire_types(game_id: str) -> None:
    game = get_game(game_id)
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        play_checked(game, seed, seen)
    declared = {tag(t, "type") for t in typing.get_args(game.wire.event)}
    # Random play reaches every event but a monopoly, which the next test builds directly.
    assert declared - set(seen) <= {"monopoly"}, "declared events random play never checked"


def test_a_monopoly_and_its_game_over_match_the_declared_event_types() -> None:
    game = get_game("marble")
    state, _ = game.start({"monopolyWin": True}, ["p1", "p2"], 5)
    for pos in TOURS:
        state.owners[pos] = Deed("p1")
    events: list[Any] = []
    assert check_monopoly(state, events, "p1")
    assert [e["type"] for e in events] == ["monopoly", "gameOver"]
    check_events(game, events, ["p1", "p2", None], "a tour monopoly")
    check_views(game, state, ["p1", "p2", None], "a tour monopoly")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_check_refuses_an_unknown_key_a_missing_key_and_a_wrong_type(game_id: str) -> None:
    game = get_game(game_id)
    state, _ = game.start({}, [f"p{i}" for i in range(1, game.min_players + 1)], 3)
    view = game.view(state, "p1")
    check(game, "view", view)
    broken: list[dict[str, Any]] = [
        {**view, "secret": 1},
        {key: value for key, value in view.items() if key != "round"},
        {**view, "round": True},
        {**view, "players": {"p1": {"surprise": 1}}}
        if game_id == "marble"
        else {**view, "hand": [{"id": "x"}]},
    ]
    for value in broken:
        with pytest.raises(msgspec.ValidationError):
            check(game, "view", value)
    action = game.legal_actions(state, game.pending(state)[0].player)[0]
    with pytest.raises(msgspec.ValidationError):
        check(game, "action", {**action, "extra": 1})
    with pytest.raises(msgspec.ValidationError):
        check(game, "event", {"type": "noSuchEvent"})


def test_the_schema_document_names_each_games_action_event_and_view() -> None:
    doc = document()
    components = doc["components"]["schemas"]  # type: ignore[index]
    for game_id in GAME_IDS:
        prefix = game_id.capitalize()
        entry = doc["games"][game_id]  # type: ignore[index]
        for field in ("action", "event", "view"):
            name = f"{prefix}{field.capitalize()}"
            assert entry[field] == {"$ref": f"#/components/schemas/{name}"}
            assert name in components
    # Unknown keys are refused in the document too, as in the check above.
    assert components["MarbleView"]["additionalProperties"] is False
    assert components["DalmutiPlayedEvent"]["additionalProperties"] is False


def test_lifting_keeps_keys_optional_exactly_where_the_typeddict_says() -> None:
    marble = get_game("marble")
    view = lift(marble.wire.view)
    schema = msgspec.json.schema(view)
    body = schema["$defs"]["MarbleView"]
    optional = set(body["properties"]) - set(body["required"])
    assert optional == {"choices", "spaceTravel", "saleCandidates", "shortfall", "raisable"}
