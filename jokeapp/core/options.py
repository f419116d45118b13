"""Option tables and their validation, shared by every game.

A game writes each option once in its ``OptionSpec`` table (the spec's key, choices, default,
label) and once as a typed field of a frozen dataclass tied to that table by
``options_class``: the rules read ``state.options.start_money`` (a typo fails mypy and
import, not a game at run time), while records, rooms and the State JSON keep the spec's
camelCase dict (``options_json``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast, get_type_hints

from jokeapp.core.contract import OptionSpec
from jokeapp.core.errors import InvalidOptions

Opts = TypeVar("Opts")

# Set on a class by ``options_class``: its table, and (spec key, field name) in table order.
_SPECS = "__option_specs__"
_KEYS = "__option_keys__"
_TABLE = "__option_table__"  # the specs by key with their choices, built once


def _same(a: object, b: object) -> bool:
    # True == 1 in Python; an option's choice must match in type as well.
    return type(a) is type(b) and a == b


# (spec, its choices as (type, value) pairs, or None when one is unhashable) by spec key
_Table = dict[str, tuple[OptionSpec, "frozenset[tuple[type, Any]] | None"]]


def _table(specs: Sequence[OptionSpec]) -> _Table:
    table: _Table = {}
    for spec in specs:
        try:
            allowed: frozenset[tuple[type, Any]] | None = frozenset(
                (type(choice), choice) for choice in spec.choices
            )
        except TypeError:
            allowed = None
        table[spec.key] = (spec, allowed)
    return table


def _is_choice(
    value: object, spec: OptionSpec, allowed: frozenset[tuple[type, Any]] | None
) -> bool:
    if allowed is not None:
        try:
            return (type(value), value) in allowed  # a set lookup: bots rebuild options per move
        except TypeError:
            return False  # an unhashable value is none of these hashable choices
    return any(_same(value, choice) for choice in spec.choices)


def _resolve(table: _Table, given: Mapping[str, Any] | None) -> dict[str, Any]:
    resolved = {key: spec.default for key, (spec, _) in table.items()}
    for key, value in (given or {}).items():
        entry = table.get(key)
        if entry is None:
            raise InvalidOptions("unknown_option", detail={"key": key, "known": list(table)})
        spec, allowed = entry
        if not _is_choice(value, spec, allowed):
            detail = {"key": key, "value": value, "choices": list(spec.choices)}
            raise InvalidOptions("invalid_option_value", detail=detail)
        resolved[key] = value
    return resolved


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The complete options (defaults filled in); rejects unknown keys and values."""
    return _resolve(_table(specs), given)


def option_field(key: str) -> str:
    """The Python field of a spec key: ``startMoney`` -> ``start_money``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()


def _fits(value: object, hint: Any) -> bool:
    """``value`` is exactly of the field's type (a bool is no int here, as in ``_same``)."""
    if isinstance(hint, types.UnionType):
        return any(_fits(value, member) for member in hint.__args__)
    if hint is type(None) or hint is None:
        return value is None
    return type(value) is hint


def check_options_class(specs: Sequence[OptionSpec], cls: type) -> None:
    """Raises TypeError unless ``cls`` is a frozen dataclass with exactly one field per spec
    key (snake_case, in the table's order), no defaults of its own (the table has them), and
    a type that every choice of its key has."""
    name = cls.__qualname__
    if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{name}: options must be a frozen dataclass")
    fields = dataclasses.fields(cls)
    wanted = [option_field(spec.key) for spec in specs]
    have = [f.name for f in fields]
    if have != wanted:
        raise TypeError(f"{name}: fields {have} do not match the options table {wanted}")
    hints = get_type_hints(cls)
    for spec, f in zip(specs, fields, strict=True):
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{name}.{f.name}: the default belongs in the options table only")
        if hints[f.name] is type and not isinstance(cls.__annotations__[f.name], str):
            continue  # compiled (mypyc): a union's annotation is kept as ``type`` only
        for value in (*spec.choices, spec.default):
            if not _fits(value, hints[f.name]):
                raise TypeError(f"{name}.{f.name}: {value!r} of {spec.key} is not {hints[f.name]}")


def options_class(specs: Sequence[OptionSpec]) -> Callable[[type[Opts]], type[Opts]]:
    """Class decorator: ties a game's typed options to its table, checked at import time."""
    table = tuple(specs)

    def bind(cls: type[Opts]) -> type[Opts]:
        check_options_class(table, cls)
        setattr(cls, _SPECS, table)
        setattr(cls, _KEYS, tuple((spec.key, option_field(spec.key)) for spec in table))
        setattr(cls, _TABLE, _table(table))
        return cls

    return bind


def option_specs(cls: type) -> tuple[OptionSpec, ...]:
    """The options table an ``options_class`` was declared with."""
    specs: tuple[OptionSpec, ...] = getattr(cls, _SPECS)
    return specs


def options_from(cls: type[Opts], given: Mapping[str, Any] | None) -> Opts:
    """The typed options of ``given`` (spec keys), validated by ``resolve_options``.

    Every game starts by this and a run plays thousands with the same options: the typed
    options are frozen, so the ones of equal ``given`` are made once and shared."""
    given = given or {}
    made: type = cls  # as a plain class: lru_cache takes hashable arguments
    try:
        # with the values' types, so that 1 does not find the options made for True
        return cast(
            Opts, _typed_options(made, tuple(given.items()), tuple(map(type, given.values())))
        )
    except TypeError:  # an unhashable value: no option's choice, _resolve says which
        return _options_from(cls, given)


@functools.lru_cache(maxsize=256)
def _typed_options(cls: type, items: tuple[tuple[str, Any], ...], types: tuple[type, ...]) -> Any:
    return _options_from(cls, dict(items))


def _options_from(cls: type[Opts], given: Mapping[str, Any] | None) -> Opts:
    resolved = _resolve(getattr(cls, _TABLE), given)
    keys: tuple[tuple[str, str], ...] = getattr(cls, _KEYS)
    return cast(Callable[..., Opts], cls)(**{field: resolved[key] for key, field in keys})


def options_json(options: object) -> dict[str, Any]:
    """The complete options by spec key (camelCase), in the table's order: records, State JSON."""
    keys: tuple[tuple[str, str], ...] = getattr(type(options), _KEYS)
    return {key: getattr(options, field) for key, field in keys}
