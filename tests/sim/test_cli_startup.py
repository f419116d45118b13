"""`joke --help` and `joke simulate` start without the server stack (issue 11, item 4)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SERVER_STACK = ("sqlalchemy", "uvicorn", "alembic", "starlette")

# Runs the real entry point in a fresh interpreter, then lists what it imported.
PROBE = """
import json, sys
from jokeapp.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _imported(*argv: str) -> tuple[object, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=60, check=True
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["code"], {m.split(".")[0] for m in result["modules"]}


@pytest.mark.parametrize(
    "argv",
    [
        ("--help",),
        ("simulate", "--help"),
        ("simulate", "marble", "--games", "1", "--quiet"),
        ("replay", "--help"),
    ],
)
def test_the_command_line_does_not_load_the_server_stack(argv: tuple[str, ...]) -> None:
    code, top_level = _imported(*argv)
    assert code == 0
    assert top_level.isdisjoint(SERVER_STACK), sorted(top_level & set(SERVER_STACK))


def test_serve_still_loads_its_stack_when_it_runs() -> None:
    code, top_level = _imported("serve", "--help")
    assert code == 0 and "uvicorn" in top_level


@pytest.mark.parametrize(
    "argv",
    [("--help",), ("analyze", "--help"), ("simulate", "marble", "--games", "1", "--quiet")],
)
def test_the_command_line_does_not_load_matplotlib(argv: tuple[str, ...]) -> None:
    """Only drawing a report's pictures loads it (jokeapp.sim.analysis.plots)."""
    code, top_level = _imported(*argv)
    assert code == 0
    assert "matplotlib" not in top_level and "numpy" not in top_level
