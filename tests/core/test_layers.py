"""The layers of DESIGN.md hold: dependencies point one way, downwards.

core < games < sim, store, telemetry, wire < rooms < cluster < server < bench, cli. Every
module's whole AST is read, function bodies and ``if TYPE_CHECKING`` blocks included, with
``import x``, ``from x import
y`` (relative ones resolved), and ``import_module("x")`` / ``__import__("x")`` whose argument
is a string literal or an f-string (its literal prefix). Besides: one game never imports
another, and rooms name no game (they may use the registry ``jokeapp.games``, never
``jokeapp.games.<id>``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "jokeapp"

# Layer of each top-level package of jokeapp; a module may import its own package and any
# package of a lower layer, nothing else.
LAYERS: dict[str, int] = {
    "argtypes": 0,  # argparse value types shared by every command line (stdlib only)
    "compiled": 0,  # the loader of the compiled engines: jokeapp/__init__.py runs it first
    "core": 0,
    "games": 1,
    "sim": 2,
    "store": 2,
    "telemetry": 2,
    "wire": 2,
    "rooms": 3,
    "cluster": 4,
    "server": 5,
    "bench": 6,
    "cli": 6,
}
ORDER = "core < games < sim, store, telemetry, wire < rooms < cluster < server < bench, cli"
MODULES = sorted(ROOT.rglob("*.py"))


@dataclass(frozen=True)
class Import:
    line: int
    target: str  # a dotted module name, as far as it is known


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _literal_prefix(node: ast.expr) -> str | None:
    """A string literal, or the literal start of an f-string, cut to whole dotted names."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            text = first.value
            return text.rsplit(".", 1)[0] if "." in text else None
    return None


def imports_of(path: Path, here: str) -> list[Import]:
    """Every import of the module ``here`` (its dotted name), read from ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append(Import(node.lineno, module))
            # ``from jokeapp.games import marble`` imports a module, not just a name
            found.extend(Import(node.lineno, f"{module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("import_module", "__import__"):
                target = _literal_prefix(node.args[0])
                if target:
                    found.append(Import(node.lineno, target))
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "jokeapp" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in LAYERS else None


def game_of(module: str) -> str | None:
    """The game package a module belongs to (``marble`` of jokeapp.games.marble.x)."""
    parts = module.split(".")
    if parts[:2] != ["jokeapp", "games"] or len(parts) < 3:
        return None
    return parts[2] if (ROOT / "games" / parts[2] / "__init__.py").exists() else None


def broken_rules(path: Path, here: str, where: str) -> list[str]:
    """The rules the module ``here`` (read from ``path``, shown as ``where``) breaks."""
    mine = layer_of(here)
    problems: list[str] = []
    for imp in imports_of(path, here):
        theirs = layer_of(imp.target)
        if mine is None or theirs is None:
            continue
        if LAYERS[theirs] > LAYERS[mine] or (LAYERS[theirs] == LAYERS[mine] and theirs != mine):
            problems.append(
                f"{where}:{imp.line}: {mine} imports {imp.target} ({theirs} is not below "
                f"{mine}; lower layers never import higher ones: {ORDER})"
            )
        if mine == "rooms" and game_of(imp.target):
            problems.append(
                f"{where}:{imp.line}: rooms import {imp.target}; rooms name no game "
                "(use the registry jokeapp.games and the game contract)"
            )
        if game_of(here) and game_of(imp.target) and game_of(here) != game_of(imp.target):
            problems.append(f"{where}:{imp.line}: game {game_of(here)} imports {imp.target}")
    return problems


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down_the_layers(path: Path) -> None:
    where = str(path.relative_to(ROOT.parent))
    problems = broken_rules(path, module_name(path), where)
    assert not problems, "\n".join(problems)


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in ROOT.glob("*.py") if p.stem != "__init__"}
    missing = (packages | modules) - set(LAYERS)
    assert not missing, f"no layer for {sorted(missing)}"


def test_the_checker_sees_imports_inside_functions_and_by_name(tmp_path: Path) -> None:
    text = (
        "def later():\n"
        "    from jokeapp.rooms import manager\n"
        "    import importlib\n"
        "    importlib.import_module('jokeapp.server.app')\n"
        "    importlib.import_module(f'jokeapp.store.{name}')\n"
    )
    probe = tmp_path / "probe.py"
    probe.write_text(text, encoding="utf-8")
    targets = [imp.target for imp in imports_of(probe, "jokeapp.core.probe")]
    assert {"jokeapp.rooms", "jokeapp.server.app", "jokeapp.store"} <= set(targets)
    problems = broken_rules(probe, "jokeapp.core.probe", "jokeapp/core/probe.py")
    assert len(problems) == 4  # rooms (the package and the module), server, store
    assert problems[0].startswith("jokeapp/core/probe.py:2: core imports jokeapp.rooms")
    assert problems[2].startswith("jokeapp/core/probe.py:4: core imports jokeapp.server.app")


def test_the_checker_resolves_relative_imports_and_names_a_game_in_rooms(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from ..games.marble import GAME\nfrom . import room\n", encoding="utf-8")
    problems = broken_rules(probe, "jokeapp.rooms.probe", "jokeapp/rooms/probe.py")
    assert problems == [
        "jokeapp/rooms/probe.py:1: rooms import jokeapp.games.marble; rooms name no game "
        "(use the registry jokeapp.games and the game contract)",
        "jokeapp/rooms/probe.py:1: rooms import jokeapp.games.marble.GAME; rooms name no game "
        "(use the registry jokeapp.games and the game contract)",
    ]
    probe.write_text("from jokeapp.games.dalmuti.data import CARD_IDS\n", encoding="utf-8")
    assert broken_rules(probe, "jokeapp.games.marble.probe", "jokeapp/games/marble/probe.py") == [
        "jokeapp/games/marble/probe.py:1: game marble imports jokeapp.games.dalmuti.data",
        "jokeapp/games/marble/probe.py:1: game marble imports jokeapp.games.dalmuti.data.CARD_IDS",
    ]
