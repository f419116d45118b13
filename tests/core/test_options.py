import pytest

from jokeapp.core import InvalidOptions, OptionSpec, resolve_options

SPECS = (
    OptionSpec("rounds", (1, 3, 5), 3, "라운드 수"),
    OptionSpec("revolution", (True, False), True, "혁명"),
    OptionSpec("turnSeconds", (15, 30, None), 30, "제한 시간"),
)


def test_defaults_are_filled_in() -> None:
    assert resolve_options(SPECS, {"rounds": 5}) == {"rounds": 5, "revolution": True, "turnSeconds": 30}


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
