"""The engines keep no clock: the spec's clock fields (marble ``deadlineAt``, dalmuti
``turnStartedAt``) are in every state's JSON with their fixed values, and nothing in the
engine state stands behind them (the server owns every deadline)."""

from __future__ import annotations

import dataclasses

from jokeapp.games import get_game
from jokeapp.games.dalmuti.state import DalmutiState
from jokeapp.games.marble.state import MarbleState


def test_marble_deadline_at_is_always_null_and_not_state() -> None:
    game = get_game("marble")
    state = game.setup({}, ["p1", "p2"], 1)
    data = game.to_json(state)
    assert data["deadlineAt"] is None
    assert game.to_json(game.from_json({**data, "deadlineAt": 1234}))["deadlineAt"] is None
    assert "deadline_at" not in {f.name for f in dataclasses.fields(MarbleState)}


def test_dalmuti_turn_started_at_is_always_zero_and_not_state() -> None:
    game = get_game("dalmuti")
    state = game.setup({}, ["p1", "p2", "p3", "p4"], 1)
    data = game.to_json(state)
    assert data["turnStartedAt"] == 0
    assert game.to_json(game.from_json({**data, "turnStartedAt": 99}))["turnStartedAt"] == 0
    assert "turn_started_at" not in {f.name for f in dataclasses.fields(DalmutiState)}
