"""The options in each game's view are typed on the wire from the same table: every key of the
game's OptionSpec table, and every choice of each, passes the view's ``options`` type (and a
key the table does not have fails it), so the wire type cannot drift from the table."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest

from jokeapp.core.options import options_from, options_json
from jokeapp.games import get_game
from jokeapp.wire.game_types import lift


@pytest.mark.parametrize("game_id", ["marble", "dalmuti"])
def test_every_choice_of_the_table_fits_the_wire_options(game_id: str) -> None:
    game = get_game(game_id)
    wire_options = lift(typing.get_type_hints(game.wire.view)["options"])
    state = game.setup({}, [f"p{i}" for i in range(1, game.min_players + 1)], seed=1)
    cls: Any = type(state.options)
    for spec in game.options:
        for choice in spec.choices:
            shown = options_json(options_from(cls, {spec.key: choice}))
            msgspec.convert(shown, wire_options, strict=True)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(
            {**options_json(state.options), "notAnOption": 1}, wire_options, strict=True
        )
