"""The compiled engines' loader (jokeapp/compiled.py): a build is used only for exactly the
sources it was compiled from, and is in use when JOKEAPP_ENGINES=compiled says so."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jokeapp import compiled

PACKAGES = ("pkg/a", "pkg/b")
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def tree(root: Path) -> None:
    for package, names in (("pkg/a", ("__init__", "x")), ("pkg/b", ("y",))):
        (root / package).mkdir(parents=True, exist_ok=True)
        for name in names:
            (root / package / f"{name}.py").write_text(f"# {name}\n")


def test_the_digest_sees_an_edit_a_new_file_and_a_removed_one(tmp_path: Path) -> None:
    tree(tmp_path)
    first = compiled.source_digest(tmp_path, PACKAGES)
    assert compiled.source_digest(tmp_path, PACKAGES) == first
    (tmp_path / "pkg/a/x.py").write_text("# x changed\n")
    edited = compiled.source_digest(tmp_path, PACKAGES)
    (tmp_path / "pkg/b/z.py").write_text("")
    added = compiled.source_digest(tmp_path, PACKAGES)
    (tmp_path / "pkg/b/z.py").unlink()
    (tmp_path / "pkg/b/y.py").unlink()
    removed = compiled.source_digest(tmp_path, PACKAGES)
    assert len({first, edited, added, removed}) == 4


def fake_build(build: Path, root: Path) -> None:
    """A manifest for the real packages' sources under ``root``, with empty module files."""
    modules = {}
    for name in compiled.source_files(root):
        so = name.removesuffix(".py") + SUFFIX
        (build / so).parent.mkdir(parents=True, exist_ok=True)
        (build / so).write_bytes(b"")
        modules[compiled.module_name(name)] = so
    manifest = {
        "format": compiled.FORMAT,
        "abi": compiled._abi(),
        "packages": list(compiled.PACKAGES),
        "python": list(compiled.PYTHON_ONLY),
        "sources": compiled.source_digest(root),
        "modules": modules,
    }
    (build / compiled.MANIFEST).write_text(json.dumps(manifest))


def copy_sources(root: Path) -> None:
    for name in compiled.source_files(compiled.ROOT):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes((compiled.ROOT / name).read_bytes())


def test_a_build_is_used_only_while_the_sources_are_the_ones_compiled(tmp_path: Path) -> None:
    root, build = tmp_path / "src", tmp_path / "build"
    copy_sources(root)
    fake_build(build, root)
    found = compiled.check(build, root)
    assert found.modules is not None and "jokeapp.games.marble.game" in found.modules
    rules = root / "jokeapp/games/marble/movement.py"
    rules.write_text(rules.read_text() + "\n# edited\n")
    stale = compiled.check(build, root)
    assert stale.modules is None and "sources changed" in stale.reason
    assert compiled.check(tmp_path / "none", root).modules is None


def run(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_stale_build_is_never_loaded(tmp_path: Path) -> None:
    # a build made for other sources (its manifest's digest): the pure engines, with a message
    build = tmp_path / "engines"
    fake_build(build, compiled.ROOT)
    manifest = json.loads((build / compiled.MANIFEST).read_text())
    manifest["sources"] = "0" * 64
    (build / compiled.MANIFEST).write_text(json.dumps(manifest))
    code = "import jokeapp.core.rng as r; print(r.__file__)"
    done = run({"JOKEAPP_ENGINES": "auto", "JOKEAPP_ENGINES_DIR": str(build)}, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("rng.py")
    assert "sources changed" in done.stderr
    refused = run({"JOKEAPP_ENGINES": "compiled", "JOKEAPP_ENGINES_DIR": str(build)}, code)
    assert refused.returncode != 0 and "ImportError" in refused.stderr


def test_without_the_setting_the_build_is_not_looked_at(tmp_path: Path) -> None:
    env = {"JOKEAPP_ENGINES": "", "JOKEAPP_ENGINES_DIR": str(tmp_path / "engines")}
    done = run(env, "import jokeapp.core.rng as r; print(r.__file__)")
    assert done.stdout.strip().endswith("rng.py") and done.stderr == ""


@pytest.mark.skipif(
    os.environ.get("JOKEAPP_ENGINES") != "compiled", reason="JOKEAPP_ENGINES=compiled only"
)
def test_the_compiled_build_is_in_use() -> None:
    modules = [compiled.module_name(name) for name in compiled.compiled_files(compiled.ROOT)]
    for name in modules:
        module = __import__(name, fromlist=["_"])
        assert str(module.__file__).endswith(SUFFIX), name
    assert compiled.STATE == "compiled"
