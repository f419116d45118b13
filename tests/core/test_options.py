from __future__ import annotations

from dataclasses import dataclass

import pytest

from jokeapp.core import (
    InvalidOptions,
    OptionSpec,
    options_class,
    options_from,
    options_json,
    resolve_options,
)
from jokeapp.core.options import option_specs
from jokeapp.games import get_game


def game_players(count: int) -> list[str]:
    return [f"p{i}" for i in range(1, count + 1)]


SPECS = (
    OptionSpec("rounds", (1, 3, 5), 3, "라운드 수"),
    OptionSpec("revolution", (True, False), True, "혁명"),
    OptionSpec("turnSeconds", (15, 30, None), 30, "제한 시간"),
)


def test_defaults_are_filled_in() -> None:
    assert resolve_options(SPECS, {"rounds": 5}) == {
        "rounds": 5,
        "revolution": True,
        "turnSeconds": 30,
    }


def test_unknown_key_names_the_key_and_the_known_keys() -> None:
    with pytest.raises(InvalidOptions) as err:
        resolve_options(SPECS, {"roundz": 5})
    assert err.value.code == "unknown_option"
    assert "roundz" in err.value.message and "rounds" in err.value.message


def test_value_outside_choices_names_key_and_choices() -> None:
    with pytest.raises(InvalidOptions) as err:
        resolve_options(SPECS, {"rounds": 4})
    assert err.value.code == "invalid_option_value"
    assert "rounds" in err.value.message and "1, 3, 5" in err.value.message


def test_bool_is_not_an_int_choice() -> None:
    with pytest.raises(InvalidOptions):
        resolve_options(SPECS, {"rounds": True})
    with pytest.raises(InvalidOptions):
        resolve_options(SPECS, {"revolution": 1})


def test_null_choice() -> None:
    assert resolve_options(SPECS, {"turnSeconds": None})["turnSeconds"] is None


# ---------------------------------------------------------------- typed options


@options_class(SPECS)
@dataclass(frozen=True, slots=True)
class Typed:
    rounds: int
    revolution: bool
    turn_seconds: int | None


def test_typed_options_fill_defaults_and_read_as_fields() -> None:
    options = options_from(Typed, {"turnSeconds": None})
    assert options == Typed(rounds=3, revolution=True, turn_seconds=None)
    assert options_json(options) == {"rounds": 3, "revolution": True, "turnSeconds": None}


def test_typed_options_validate_like_the_table() -> None:
    with pytest.raises(InvalidOptions) as err:
        options_from(Typed, {"turn_seconds": 30})
    assert err.value.code == "unknown_option"
    with pytest.raises(InvalidOptions):
        options_from(Typed, {"rounds": True})


def test_typed_options_refuse_unhashable_and_float_values_like_the_table() -> None:
    # options_from checks choices by set lookup: what the table refuses it refuses too
    for value in ([3], {"n": 3}, 3.0):
        with pytest.raises(InvalidOptions) as err:
            options_from(Typed, {"rounds": value})
        assert err.value.code == "invalid_option_value"
        with pytest.raises(InvalidOptions):
            resolve_options(SPECS, {"rounds": value})
    assert options_from(Typed, {"rounds": 5, "revolution": False}).rounds == 5


def test_equal_options_are_made_once_and_an_equal_value_of_another_type_is_still_refused() -> None:
    first = options_from(Typed, {"rounds": 1, "revolution": False})
    assert options_from(Typed, dict({"rounds": 1, "revolution": False})) is first
    # True == 1 and hash(True) == hash(1): the options made for 1 must not answer for True
    with pytest.raises(InvalidOptions):
        options_from(Typed, {"rounds": True, "revolution": False})
    with pytest.raises(InvalidOptions):
        options_from(Typed, {"rounds": 1, "revolution": 0})


def test_a_field_that_is_not_in_the_table_fails_at_declaration() -> None:
    with pytest.raises(TypeError, match="do not match the options table"):

        @options_class(SPECS)
        @dataclass(frozen=True)
        class Typo:
            rounds: int
            revolutoin: bool
            turn_seconds: int | None


def test_a_field_whose_type_misses_a_choice_fails_at_declaration() -> None:
    with pytest.raises(TypeError, match="None of turnSeconds"):

        @options_class(SPECS)
        @dataclass(frozen=True)
        class NoNull:
            rounds: int
            revolution: bool
            turn_seconds: int


def test_a_default_written_twice_or_a_mutable_class_fails_at_declaration() -> None:
    with pytest.raises(TypeError, match="default belongs in the options table"):

        @options_class(SPECS)
        @dataclass(frozen=True)
        class Twice:
            rounds: int
            revolution: bool
            turn_seconds: int | None = 30

    with pytest.raises(TypeError, match="frozen dataclass"):

        @options_class(SPECS)
        @dataclass
        class Mutable:
            rounds: int
            revolution: bool
            turn_seconds: int | None


@pytest.mark.parametrize("game_id", ["marble", "dalmuti"])
def test_each_game_keeps_typed_options_that_match_its_table(game_id: str) -> None:
    game = get_game(game_id)
    state = game.setup({}, game_players(game.min_players), seed=1)
    assert option_specs(type(state.options)) == tuple(game.options)
    assert game.to_json(state)["options"] == resolve_options(game.options, {})
