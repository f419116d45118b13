"""Each game's wire types (``game.wire``: TypedDicts, standard library only) as msgspec types.

The games declare their actions, events and view as TypedDicts so that ``core`` and
``games`` stay free of third-party imports. msgspec reads TypedDicts, but it cannot hold a
union of several of them, and it does not refuse unknown keys in one. So each TypedDict is
turned, mechanically, into the equivalent msgspec Struct: the same keys, required or not,
``forbid_unknown_fields``, and tagged by its first single-value ``Literal`` key (``type`` of
an action or event, ``kind`` of a phase or a creditor), which makes every union of them a
tagged union. The JSON Schema of ``joke schema`` and the strict check of the tests
(tests/server/test_wire_types.py) both come from these Structs.
"""

from __future__ import annotations

import types
import typing
from dataclasses import fields
from typing import Any, Literal, NotRequired, Required, Union

import msgspec

from jokeapp.core.contract import Game, WireTypes

REF_TEMPLATE = "#/components/schemas/{name}"

_structs: dict[type, type[msgspec.Struct]] = {}


def _tag(hints: dict[str, Any]) -> tuple[str, str] | None:
    """The first key whose type is a Literal of one string: the TypedDict's tag."""
    for key, hint in hints.items():
        if typing.get_origin(hint) is Literal:
            values = typing.get_args(hint)
            if len(values) == 1 and isinstance(values[0], str):
                return key, values[0]
    return None


def _struct(typed_dict: type) -> type[msgspec.Struct]:
    found = _structs.get(typed_dict)
    if found is not None:
        return found
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    required: frozenset[str] = typed_dict.__required_keys__  # type: ignore[attr-defined]
    hints = {
        key: typing.get_args(hint)[0]
        if typing.get_origin(hint) in (NotRequired, Required)
        else hint
        for key, hint in hints.items()
    }
    tag = _tag(hints)
    spec: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for key, hint in hints.items():
        if tag is not None and key == tag[0]:
            continue
        if key in required:
            spec.append((key, lift(hint)))
        else:
            spec.append((key, lift(hint) | msgspec.UnsetType, msgspec.UNSET))
    struct = msgspec.defstruct(
        typed_dict.__name__,
        spec,
        kw_only=True,
        forbid_unknown_fields=True,
        tag_field=None if tag is None else tag[0],
        tag=None if tag is None else tag[1],
        namespace={"__doc__": typed_dict.__doc__},
    )
    _structs[typed_dict] = struct
    return struct


def lift(hint: Any) -> Any:
    """``hint`` with every TypedDict in it replaced by its Struct."""
    if typing.is_typeddict(hint):
        return _struct(hint)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        return Union[tuple(lift(arg) for arg in args)]  # noqa: UP007 - built from a tuple
    if origin in (list, dict, tuple):
        return origin[tuple(lift(arg) for arg in args)]
    return hint


def _name(game: Game[Any], field: str) -> str:
    return game.id.capitalize() + field.capitalize()


def game_schemas(games: list[Game[Any]]) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """``({game id: {"action"|"event"|"view": schema}}, components)``: each game's wire types
    as JSON Schema, a union as a named component of its own (``MarbleAction``, ...)."""
    entries = [
        (game, f.name, lift(getattr(game.wire, f.name)))
        for game in games
        for f in fields(WireTypes)
    ]
    schemas, components = msgspec.json.schema_components(
        [lifted for _, _, lifted in entries], ref_template=REF_TEMPLATE
    )
    found: dict[str, dict[str, Any]] = {game.id: {} for game in games}
    for (game, field, _), schema in zip(entries, schemas, strict=True):
        if "$ref" not in schema:
            name = _name(game, field)
            if name in components:
                raise ValueError(f"{game.id}: the wire type name {name} is taken")
            components[name] = {"title": name, **schema}
            schema = {"$ref": REF_TEMPLATE.format(name=name)}
        found[game.id][field] = schema
    return found, components


def check(game: Game[Any], field: str, value: Any) -> None:
    """Raises msgspec.ValidationError unless ``value`` is exactly of ``game.wire.<field>``:
    types strict (True is not an int), no key missing, no key unknown."""
    msgspec.convert(value, lift(getattr(game.wire, field)), strict=True)
