"""Option tables and their validation, shared by every game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.contract import OptionSpec
from jokeapp.core.errors import InvalidOptions


def _same(a: object, b: object) -> bool:
    # True == 1 in Python; an option's choice must match in type as well.
    return type(a) is type(b) and a == b


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The complete options (defaults filled in); rejects unknown keys and values."""
    table = {spec.key: spec for spec in specs}
    resolved = {spec.key: spec.default for spec in specs}
    for key, value in (given or {}).items():
        spec = table.get(key)
        if spec is None:
            raise InvalidOptions("unknown_option", detail={"key": key, "known": list(table)})
        if not any(_same(value, choice) for choice in spec.choices):
            detail = {"key": key, "value": value, "choices": list(spec.choices)}
            raise InvalidOptions("invalid_option_value", detail=detail)
        resolved[key] = value
    return resolved
