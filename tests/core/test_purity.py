"""core and games are pure: standard library only, no clock, no `random`, no I/O."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "jokeapp"
PURE = sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "games").rglob("*.py")])
FORBIDDEN = {
    "random",
    "time",
    "datetime",
    "os",
    "socket",
    "asyncio",
    "subprocess",
    "secrets",
    "uuid",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_only_the_standard_library(path: Path) -> None:
    for name in _imports(path):
        assert name == "jokeapp" or name in sys.stdlib_module_names, f"{path}: imports {name}"
        assert name not in FORBIDDEN, f"{path}: imports {name}"


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_do_not_open_files(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert "open" not in calls and "print" not in calls and "input" not in calls
