"""The game contract, seeded RNG, errors and replay. Standard library only, no I/O."""

from jokeapp.core.contract import (
    AbsencePolicy,
    Action,
    Event,
    Game,
    OptionSpec,
    Pending,
    WireTypes,
)
from jokeapp.core.errors import CodedError, GameError, IllegalAction, InvalidOptions
from jokeapp.core.options import options_class, options_from, options_json, resolve_options
from jokeapp.core.replay import replay
from jokeapp.core.rng import Rng

__all__ = [
    "AbsencePolicy",
    "Action",
    "CodedError",
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
    "InvalidOptions",
    "OptionSpec",
    "Pending",
    "Rng",
    "WireTypes",
    "options_class",
    "options_from",
    "options_json",
    "replay",
    "resolve_options",
]
