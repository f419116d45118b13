"""Option tables and their validation, shared by every game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.contract import OptionSpec
from jokeapp.core.errors import InvalidOptions


def _show(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
            known = ", ".join(table)
            raise InvalidOptions("unknown_option", f"알 수 없는 옵션이에요: {key} (가능한 옵션: {known})")
        if not any(_same(value, choice) for choice in spec.choices):
            allowed = ", ".join(_show(c) for c in spec.choices)
            raise InvalidOptions(
                "invalid_option_value",
                f"옵션 {key}의 값 {_show(value)}은(는) 쓸 수 없어요 (가능한 값: {allowed})",
            )
        resolved[key] = value
    return resolved
