"""No import cycle hides behind a late import: no module of jokeapp imports another one inside
a function body, and the modules of rooms and server import each other without a cycle
(``if TYPE_CHECKING`` imports count too), so each can be read from the bottom up."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.core.test_layers import MODULES, ROOT, imports_of, module_name

ACYCLIC = ("jokeapp.rooms", "jokeapp.server")


def late_imports(path: Path, where: str) -> list[str]:
    """``where:line: import`` of each jokeapp import inside a function of the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    seen: set[int] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in seen:
                seen.add(id(node))
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                module = node.module if isinstance(node, ast.ImportFrom) else None
                relative = isinstance(node, ast.ImportFrom) and node.level > 0
                if relative or any(n.startswith("jokeapp") for n in [*names, module or ""]):
                    found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda line: int(line.split(":")[1]))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_jokeapp_inside_a_function(path: Path) -> None:
    assert late_imports(path, str(path.relative_to(ROOT.parent))) == []


def _graph(prefixes: tuple[str, ...]) -> dict[str, set[str]]:
    names = {module_name(p): p for p in MODULES}
    inside = {n for n in names if n.startswith(prefixes)}
    graph: dict[str, set[str]] = {}
    for name in inside:
        targets = {imp.target for imp in imports_of(names[name], name)}
        graph[name] = {t for t in targets if t in inside and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in import order, the first repeated), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_rooms_and_server_have_no_import_cycle() -> None:
    cycle = find_cycle(_graph(ACYCLIC))
    assert cycle is None, " -> ".join(cycle or [])


def test_the_checks_see_a_late_import_and_a_cycle(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import uvloop\n"
        "def later():\n"
        "    import uvloop\n"
        "    class Inner:\n"
        "        def deeper(self):\n"
        "            from jokeapp.rooms import room\n"
        "async def later_still():\n"
        "    from . import dispatch\n",
        encoding="utf-8",
    )
    assert late_imports(probe, "probe.py") == [
        "probe.py:6: from jokeapp.rooms import room",
        "probe.py:8: from . import dispatch",
    ]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
