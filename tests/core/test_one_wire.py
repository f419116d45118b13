"""The wire's Structs are the one source of every message: no module of rooms or server
writes a message by hand (a dict literal whose ``"type"`` is a message's tag), and the
client's message types are the tags of the protocol's unions."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import pytest

from jokeapp.wire import protocol as p

ROOT = Path(__file__).resolve().parents[2] / "jokeapp"
TAGS = {
    str(member.__struct_config__.tag)
    for union in (p.ServerMessage, p.ClientMessage)
    for member in get_args(union)
}
MODULES = sorted([*(ROOT / "rooms").rglob("*.py"), *(ROOT / "server").rglob("*.py")])


def hand_made_messages(source: str) -> list[int]:
    """The lines of dict literals with a ``"type"`` key whose value is a message tag."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "type"
                    and isinstance(value, ast.Constant)
                    and value.value in TAGS
                ):
                    lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_message_is_written_by_hand(path: Path) -> None:
    assert hand_made_messages(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_hand_made_message() -> None:
    source = 'a = {"type": "update", "seq": 1}\nb = {"type": "ROLL"}\nc = {"kind": "error"}\n'
    assert hand_made_messages(source) == [1]


def test_the_client_types_are_the_unions_tags() -> None:
    assert {"action", "resync", "ping"} == p.CLIENT_TYPES
    assert p.CLIENT_TYPES | {"snapshot", "update", "error", "pong"} == TAGS
