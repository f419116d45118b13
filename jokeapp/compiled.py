"""The compiled engines: ``jokeapp/core`` and the games' packages built with mypyc. Opt-in.

``make engines`` runs ``ensure``: unless the build in ``build/engines`` is up to date it copies
those packages' sources to a staging directory, compiles the copy with mypyc and, only when
that succeeds, puts the result in ``build/engines`` with a manifest naming the digest of the
sources it was compiled from. A failed compile leaves no build (the message says why).

``JOKEAPP_ENGINES``: unset or ``pure``, the pure-Python engines, always (the build is not
looked at). ``auto``: the build when it is up to date, else the pure-Python engines with a
message on stderr. ``compiled``: the build, or ImportError when there is none up to date.
At import (``jokeapp/__init__.py`` calls ``install``) the manifest is checked against the
sources as they are now (every ``.py`` of those packages, names and contents): only an exact
match installs the finder that loads the compiled modules, all of them or none, so a build of
other sources never runs. The compiled modules live apart from the sources, so Python never
finds them on its own. ``JOKEAPP_ENGINES_DIR`` names another build directory.

Not the default (docs/bots.md, "Compiled engines"): some tests patch or subclass the engines'
modules, which compiled code does not see or allow.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

# The rest of the standard library this needs is imported where it is used: without
# JOKEAPP_ENGINES every start of the program runs only ``install``'s first lines.

ROOT = Path(__file__).resolve().parent.parent  # the checkout (or site-packages)
BUILD = ROOT / "build" / "engines"
# The packages compiled, every module of each; the registry (jokeapp/games/__init__.py) stays
# Python (its GameLoadError subclasses ImportError, which mypyc's native classes cannot).
PACKAGES = ("jokeapp/core", "jokeapp/games/marble", "jokeapp/games/dalmuti")
# Left to Python: the games' wire types (TypedDicts read at run time by ``joke schema`` and the
# wire checks; compiled, mypyc keeps their fields' types only as ``type``). Not hot.
PYTHON_ONLY = ("jokeapp/games/marble/wire.py", "jokeapp/games/dalmuti/wire.py")
MANIFEST = "manifest.json"
FORMAT = 1


def _abi() -> str:
    """What a compiled module is tied to: the interpreter and the extension suffix."""
    import importlib.machinery

    return f"{sys.implementation.cache_tag} {importlib.machinery.EXTENSION_SUFFIXES[0]}"


def source_files(root: Path, packages: Sequence[str] = PACKAGES) -> list[str]:
    """The ``.py`` files of ``packages`` under ``root``, as sorted relative paths."""
    found = []
    for package in packages:
        for entry in os.scandir(root / package):
            if entry.name.endswith(".py") and entry.is_file():
                found.append(f"{package}/{entry.name}")
    return sorted(found)


def compiled_files(root: Path) -> list[str]:
    """The source files mypyc compiles: all but ``PYTHON_ONLY``."""
    return [name for name in source_files(root) if name not in PYTHON_ONLY]


def source_digest(root: Path, packages: Sequence[str] = PACKAGES) -> str:
    """sha256 over every source file's path and contents: any edit, new or removed file
    changes it."""
    import hashlib

    digest = hashlib.sha256()
    for name in source_files(root, packages):
        data = (root / name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def module_name(path: str) -> str:
    """``jokeapp/core/rng.py`` -> ``jokeapp.core.rng``; a package's ``__init__.py`` -> its name."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class Check:
    """What ``check`` found: the modules to load (name -> (.so, package dir or None)) when
    ``modules`` is not None, else the reason the build is not used."""

    def __init__(self, modules: dict[str, tuple[str, str | None]] | None, reason: str) -> None:
        self.modules = modules
        self.reason = reason


def check(build: Path = BUILD, root: Path = ROOT) -> Check:
    """Whether ``build`` holds the compiled engines of exactly the sources under ``root``."""
    import json

    try:
        manifest = json.loads((build / MANIFEST).read_text())
    except FileNotFoundError:
        return Check(None, f"no build in {build}")
    except (OSError, ValueError) as exc:
        return Check(None, f"unreadable manifest in {build}: {exc}")
    if manifest.get("format") != FORMAT or manifest.get("abi") != _abi():
        return Check(None, f"the build in {build} is for another interpreter or format")
    if manifest.get("packages") != list(PACKAGES) or manifest.get("python") != list(PYTHON_ONLY):
        return Check(None, f"the build in {build} compiled other packages")
    try:
        digest = source_digest(root)
    except OSError as exc:
        return Check(None, f"the sources cannot be read: {exc}")
    if manifest.get("sources") != digest:
        return Check(None, f"the sources changed since the build in {build} was made")
    modules: dict[str, tuple[str, str | None]] = {}
    for name, so in manifest["modules"].items():
        path = build / so
        if not path.is_file():
            return Check(None, f"the build in {build} lacks {so}")
        package = (
            str(root / name.replace(".", "/"))
            if so.rsplit("/", 1)[-1].startswith("__init__.")
            else None
        )
        modules[name] = (str(path), package)
    return Check(modules, "up to date")


class _Finder:
    """Finds exactly the compiled modules of an up-to-date build (and their shared library)."""

    def __init__(self, modules: dict[str, tuple[str, str | None]]) -> None:
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        import importlib.machinery
        import importlib.util

        found = self.modules.get(fullname)
        if found is None:
            return None
        so, package = found
        loader = importlib.machinery.ExtensionFileLoader(fullname, so)
        return importlib.util.spec_from_file_location(
            fullname,
            so,
            loader=loader,
            submodule_search_locations=None if package is None else [package],
        )


STATE = "pure"  # "compiled" once install() put the finder in place


def install() -> str:
    """Puts the compiled engines in use when their build is up to date (see the module's
    docstring); returns "compiled" or "pure". Called once, before any engine is imported."""
    global STATE
    wanted = os.environ.get("JOKEAPP_ENGINES", "pure")
    if wanted not in ("auto", "compiled") or STATE == "compiled":
        return STATE
    build = Path(os.environ.get("JOKEAPP_ENGINES_DIR") or BUILD)
    found = check(build)
    if found.modules is None:
        if wanted == "compiled":
            raise ImportError(f"JOKEAPP_ENGINES=compiled, but {found.reason}")
        if (build / MANIFEST).exists() or wanted == "auto":
            sys.stderr.write(
                f"jokeapp: not using the compiled engines: {found.reason}; the pure-Python "
                "engines run instead (`make engines` rebuilds them)\n"
            )
        return STATE
    sys.meta_path.insert(0, _Finder(found.modules))
    STATE = "compiled"
    return STATE


def build(target: Path = BUILD, root: Path = ROOT) -> bool:
    """Compiles a copy of the packages' sources into ``target`` (replacing any build there);
    False, with no build left, when the compile fails."""
    import shutil  # only the build needs these, not every start of the program
    import subprocess
    import tempfile

    shutil.rmtree(target, ignore_errors=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="engines-", dir=target.parent))
    try:
        for name in ("jokeapp/__init__.py", "jokeapp/games/__init__.py", *source_files(root)):
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / name, staging / name)
        (staging / "jokeapp/__init__.py").write_text('"""The packages compiled."""\n')
        digest = source_digest(staging)
        env = {**os.environ, "JOKEAPP_ENGINES": "pure", "MYPYC_OPT_LEVEL": "3"}
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *compiled_files(staging)],
            cwd=staging,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-4000:])
            return False
        modules = {}
        for name in compiled_files(staging):
            matches = sorted(
                p.relative_to(staging).as_posix()
                for p in (staging / name).parent.glob(Path(name).stem + ".*.so")
            )
            if len(matches) != 1:
                sys.stderr.write(f"mypyc left no single module for {name}: {matches}\n")
                return False
            modules[module_name(name)] = matches[0]
        for shared in staging.glob("*__mypyc.*.so"):
            modules[shared.name.split(".", 1)[0]] = shared.name
        shutil.rmtree(staging / "build", ignore_errors=True)
        shutil.rmtree(staging / ".mypy_cache", ignore_errors=True)
        manifest = {
            "format": FORMAT,
            "abi": _abi(),
            "packages": list(PACKAGES),
            "python": list(PYTHON_ONLY),
            "sources": digest,
            "modules": modules,
        }
        import json

        (staging / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
        staging.rename(target)
        return True
    finally:
        shutil.rmtree(staging, ignore_errors=True)


FAILED = "engines-failed.txt"  # next to the build: the digest and abi a compile failed for


def ensure(target: Path = BUILD, root: Path = ROOT) -> str:
    """Builds unless ``target`` is up to date, or a compile already failed for these very
    sources (``FAILED``, so a machine that cannot compile does not retry on every ``make``)."""
    if check(target, root).modules is not None:
        return f"the compiled engines in {target} are up to date"
    failed = target.parent / FAILED
    tried = f"{_abi()} {source_digest(root)}\n"
    if failed.is_file() and failed.read_text() == tried:
        return (
            "compiling the engines (mypyc) failed for these sources before (see "
            f"{failed}): the pure-Python engines are used"
        )
    print(f"compiling the engines with mypyc into {target} (a minute or two)", flush=True)
    if build(target, root):
        failed.unlink(missing_ok=True)
        return f"compiled engines built in {target}"
    target.parent.mkdir(parents=True, exist_ok=True)
    failed.write_text(tried)
    return "compiling the engines (mypyc) failed, see above: the pure-Python engines are used"


def main(argv: Sequence[str] | None = None) -> int:
    """``build`` (always), ``ensure`` (when out of date) or ``status``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["build"]:
        print(ensure() if build() else "compiling the engines failed, see above", flush=True)
        return 0
    if args == ["ensure"]:
        print(ensure(), flush=True)
        return 0
    if args == ["status"]:
        build_dir = Path(os.environ.get("JOKEAPP_ENGINES_DIR") or BUILD)
        print(f"{STATE}: {check(build_dir).reason}")
        return 0
    print("usage: python -m jokeapp.compiled build|ensure|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
