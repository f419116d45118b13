"""One table of error codes: every code raised anywhere is in it, with the values its
message names, and docs/protocol.md's table is the table."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from jokeapp.core import codes
from jokeapp.core.errors import CodedError, IllegalAction
from jokeapp.server import codes_doc
from jokeapp.wire.protocol import error_detail

ROOT = Path(__file__).resolve().parents[2]
# The callables that take a code as their first argument (and a detail as their second).
RAISERS = {
    "IllegalAction",
    "InvalidOptions",
    "GameError",
    "CodedError",
    "RoomError",
    "reject",
    "error_frame",
    "error_response",
    "drop_connection",
    "_refuse",  # turns._refuse(room, conn, code, client_seq, detail)
}


def _calls() -> Iterator[tuple[str, int, str, ast.expr | None]]:
    """(file, line, code, detail argument) for every raiser called with a literal code."""
    for path in sorted((ROOT / "jokeapp").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = (
                node.func.id
                if isinstance(node.func, ast.Name)
                else getattr(node.func, "attr", None)
            )
            if name not in RAISERS:
                continue
            args = node.args[2:] if name in ("drop_connection", "_refuse") else node.args
            if (
                not args
                or not isinstance(args[0], ast.Constant)
                or not isinstance(args[0].value, str)
            ):
                continue
            detail: ast.expr | None = args[1] if len(args) > 1 else None
            if name in ("error_frame", "_refuse"):
                detail = args[2] if len(args) > 2 else None
            for keyword in node.keywords:
                if keyword.arg == "detail":
                    detail = keyword.value
            yield str(path.relative_to(ROOT)), node.lineno, args[0].value, detail


CALLS = list(_calls())


def test_the_scan_sees_the_raise_sites_of_every_layer() -> None:
    files = {file for file, *_ in CALLS}
    for part in (
        "jokeapp/games/marble/",
        "jokeapp/games/dalmuti/",
        "jokeapp/rooms/",
        "jokeapp/server/",
        "jokeapp/core/options.py",
    ):
        assert any(f.startswith(part) for f in files), part
    assert len(CALLS) > 100


def test_every_code_raised_anywhere_is_in_the_table() -> None:
    unknown = [(file, line, code) for file, line, code, _ in CALLS if code not in codes.BY_CODE]
    assert unknown == []


def test_every_code_in_the_table_is_raised_somewhere() -> None:
    raised = {code for _, _, code, _ in CALLS}
    assert sorted(set(codes.BY_CODE) - raised) == []


def test_each_raise_site_gives_the_values_its_message_names() -> None:
    wrong = []
    for file, line, code, detail in CALLS:
        needed = codes.BY_CODE[code].fields() if code in codes.BY_CODE else frozenset()
        if detail is None:
            given: set[str] | None = set()
        elif isinstance(detail, ast.Dict):
            given = {
                k.value
                for k in detail.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            }
        else:
            given = None  # built elsewhere (a variable): checked by the tests of that site
        if given is not None and not needed <= given:
            wrong.append((file, line, code, sorted(needed - given)))
    assert wrong == []


def test_codes_are_unique_and_messages_short_korean_without_value_particles() -> None:
    assert len(codes.BY_CODE) == len(codes.CODES)
    for row in codes.CODES:
        assert row.code.isidentifier() and row.code == row.code.lower()
        assert 400 <= row.status < 600
        assert any("\uac00" <= ch <= "\ud7a3" for ch in row.message), row.code
        assert len(row.message) <= 60, row.code
        assert "(는)" not in row.message and "(가)" not in row.message and "(를)" not in row.message
        for name in row.fields():
            after = row.message.split("{" + name + "}", 1)[1][:1]
            # a value is followed by punctuation, a space, or a counter (장, 명), never a particle
            assert after in ("", " ", ")", ",", ".", "장", "명", "~"), (row.code, name, after)


def wire(error: CodedError) -> Any:
    return msgspec.to_builtins(error_detail(error))


def test_a_message_with_values_is_filled_and_the_detail_goes_on_the_wire() -> None:
    err = IllegalAction("wrong_count", {"count": 3})
    assert err.message == "앞사람과 같은 장수(3장)로 내야 해요."
    assert wire(err) == {"code": "wrong_count", "message": err.message, "detail": {"count": 3}}
    assert wire(CodedError("no_money")) == {"code": "no_money", "message": "돈이 부족해요."}
    with pytest.raises(KeyError):
        IllegalAction("wrong_count")
    with pytest.raises(KeyError):
        IllegalAction("no_such_code")


def test_close_codes_name_table_codes() -> None:
    for row in codes.CLOSES:
        assert row.code is None or row.code in codes.BY_CODE
    assert codes.CLOSE_BY_CODE == {
        "internal": 1011,
        "auth_required": 4400,
        "room_moving": 1012,
        "bad_token": 4401,
        "kicked": 4403,
        "replaced": 4409,
    }


def test_docs_protocol_code_table_is_generated_from_the_table() -> None:
    doc = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    assert codes_doc.replace_section(doc) == doc, "run: joke codes --write docs/protocol.md"
    for row in codes.CODES:
        assert f"| `{row.code}` | {row.status} | {row.message} |" in doc
