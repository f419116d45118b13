"""README.md, docs/*.md and deploy/ say what the code does: every flag of the `joke`
commands with its variable and default, every metric with its labels, every route, the
status and close code of every error they name, every repository path, module, `make`
target and tool flag, and what deploy/ sets."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jokeapp import cli
from jokeapp.core import codes
from jokeapp.server import http_api, readiness
from jokeapp.server.app import create_app
from jokeapp.server.cli import env_name
from jokeapp.server.settings import Settings
from jokeapp.store.memory import MemoryStore
from jokeapp.telemetry.metrics import Metrics

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "docs/analysis/README.md"]
# Commands whose every flag the README lists; `joke serve`'s are in tables (below).
README_COMMANDS = ("simulate", "tournament", "analyze", "replay", "schema", "tables", "codes")


def read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def section(document: str, heading: str) -> str:
    """The text under ``## heading`` up to the next heading of that level or higher."""
    pattern = "^## " + re.escape(heading) + r"\n(.*?)(?=^#{1,2} |\Z)"
    found = re.search(pattern, document, re.M | re.S)
    assert found, heading
    return found.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row in ``text``, headers (a row above a |---| line) left out."""
    lines = text.splitlines()
    rows = []
    for line, below in zip(lines, [*lines[1:], ""], strict=True):
        separator = re.compile(r"\|[-: |]+\|")
        if not line.startswith("|") or separator.fullmatch(line) or separator.fullmatch(below):
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def code_spans(text: str) -> Iterator[str]:
    """Fenced blocks, then inline spans (which may run over a line break)."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)
    yield from blocks
    rest = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.M | re.S)
    yield from re.findall(r"`([^`]+)`", rest)


@pytest.fixture(autouse=True)
def _no_joke_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """`joke serve`'s parser takes its defaults from JOKE_* variables: the code's own here."""
    for name in list(os.environ):
        if name.startswith("JOKE_"):
            monkeypatch.delenv(name)


def subcommand(name: str) -> argparse.ArgumentParser:
    parser = cli.build_parser([name])
    assert parser._subparsers is not None
    choices = parser._subparsers._group_actions[0].choices
    assert isinstance(choices, dict)
    child = choices[name]
    assert isinstance(child, argparse.ArgumentParser)
    return child


def flags(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {
        option: action
        for action in parser._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }


def takes_variable(action: argparse.Action) -> bool:
    """What jokeapp.server.cli._from_environment gives a variable: one value, not repeatable."""
    return action.nargs is None and action.const is None and not isinstance(action.default, list)


def shown_default(action: argparse.Action) -> str | None:
    """A default as the docs write it (None: a computed or absent default, described in words)."""
    value = action.default
    if value is None or isinstance(value, bool | list):
        return None
    if isinstance(value, tuple):
        return ",".join(str(part) for part in value)
    if isinstance(value, float | int):
        return f"{value:g}"
    return str(value)


def serve_rows() -> dict[str, list[list[str]]]:
    """The flag tables of `joke serve`: docs/server.md's "Running it", docs/cluster.md's "Flags"
    (which repeats `--redis` and `--node`): each flag's rows."""
    rows = table_rows(section(read("docs/server.md"), "Running it"))
    rows += table_rows(section(read("docs/cluster.md"), "Flags"))
    by_flag: dict[str, list[list[str]]] = {}
    for cells in rows:
        assert len(cells) == 4, cells  # flag | environment | default | what
        for flag in re.findall(r"`(--[a-z0-9-]+)", cells[0]):
            by_flag.setdefault(flag, []).append(cells)
    return by_flag


def test_every_serve_flag_has_a_row_with_its_variable_and_default() -> None:
    given = flags(subcommand("serve"))
    rows = serve_rows()
    assert sorted(set(given) - set(rows)) == [], "flags of `joke serve` no table lists"
    assert sorted(set(rows) - set(given)) == [], "rows for flags `joke serve` does not have"
    wrong = []
    for flag, action in given.items():
        for _, variables, default_cell, _ in rows[flag]:
            variable = env_name(action)
            if takes_variable(action) != (f"`{variable}`" in variables):
                wrong.append((flag, "variable", variable, variables))
            default = shown_default(action)
            if default is not None and not re.search(
                rf"(?<![\w.]){re.escape(default)}(?![\w.])", default_cell
            ):
                wrong.append((flag, "default", default, default_cell))
    assert wrong == []


def test_every_joke_variable_the_docs_and_deploy_name_is_a_serve_flag_s() -> None:
    known = {env_name(a) for a in flags(subcommand("serve")).values() if takes_variable(a)}
    texts = [p.read_text(encoding="utf-8") for p in DOCS]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "deploy").iterdir())]
    named = {name for text in texts for name in re.findall(r"\bJOKE_[A-Z0-9_]+\b", text)}
    assert named, "the scan found no variable"
    assert sorted(named - known) == []


def synopses(text: str, name: str) -> list[str]:
    """What follows ``joke NAME`` in each code span, up to the span's next `joke` command."""
    found = []
    for span in code_spans(text):
        for part in re.split(r"(?<![\w./-])(?=joke [a-z]+\b)", span):
            if part.startswith(f"joke {name}") and not part[len(f"joke {name}") :][:1].isalnum():
                found.append(part[len(f"joke {name}") :])
    return found


def test_the_readme_lists_every_flag_of_each_command() -> None:
    readme = read("README.md")
    missing = []
    for name in README_COMMANDS:
        wanted = set(flags(subcommand(name)))
        listed = [set(re.findall(r"--[a-z0-9-]+", s)) for s in synopses(readme, name)]
        assert listed, f"README.md has no `joke {name}` synopsis"
        best = max(listed, key=lambda got: len(got & wanted))
        missing += [(name, flag) for flag in sorted(wanted - best)]
    assert missing == []


def test_every_flag_a_doc_gives_a_command_is_a_flag_of_that_command() -> None:
    unknown = []
    seen = 0
    given_by = {name: set(flags(subcommand(name))) | {"--help"} for name in cli.SUBCOMMANDS}
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for name, given in given_by.items():
            for synopsis in synopses(text, name):
                seen += 1
                for flag in re.findall(r"(?<![\w-])--[a-z0-9-]+", synopsis):
                    if flag not in given:
                        unknown.append((path.name, f"joke {name}", flag))
    assert seen > 10, "the scan found no command"
    assert unknown == []


def test_the_readme_gives_the_game_choices_of_each_game_command() -> None:
    readme = read("README.md")
    for name in ("simulate", "tournament", "analyze"):
        game = next(a for a in subcommand(name)._actions if a.dest == "game")
        assert game.choices is not None
        choices = "|".join(str(choice) for choice in game.choices)
        assert any(s.startswith(f" {choices} ") for s in synopses(readme, name)), name


def test_every_flag_a_doc_gives_a_python_m_tool_is_in_its_help() -> None:
    """`python -m jokeapp.bench.load --rooms …` and the like: each flag is one the tool's
    --help lists (the benches and measuring tools build their parsers in main)."""
    helps: dict[str, set[str]] = {}
    unknown = []
    for path in DOCS:
        for span in code_spans(path.read_text(encoding="utf-8")):
            for part in re.split(r"(?=python -m jokeapp)", span):
                found = re.match(r"python -m (jokeapp[\w.]*)", part)
                if found is None:
                    continue
                module = found.group(1)
                if module not in helps:
                    shown = subprocess.run(
                        [sys.executable, "-m", module, "--help"],
                        capture_output=True,
                        text=True,
                        check=True,
                        cwd=ROOT,
                    ).stdout
                    helps[module] = set(re.findall(r"(?<![\w-])--[a-z0-9-]+", shown))
                for flag in re.findall(r"(?<![\w-])--[a-z0-9-]+", part[found.end() :]):
                    if flag not in helps[module]:
                        unknown.append((path.name, module, flag))
    assert len(helps) >= 5, "the scan found too few tools"
    assert unknown == []


def registered_metrics() -> dict[str, tuple[str, ...]]:
    """Every metric a server's /metrics shows (its exposed name: a counter's with ``_total``),
    with its labels: the app's registry once the server has set up every reader."""
    metrics = Metrics()
    metrics.watch_rooms(lambda: [("marble", "lobby")])
    metrics.watch_round_trips(lambda: 0, lambda: 0)
    metrics.watch_keepalive(lambda: 0, lambda: 0)
    found: dict[str, tuple[str, ...]] = {}
    collectors: dict[Any, Any] = metrics.registry._collector_to_names
    for collector in list(collectors):
        labels = tuple(getattr(collector, "_labelnames", ()))
        for family in collector.collect():
            name = family.name + "_total" if family.type == "counter" else family.name
            from_samples = {key for sample in family.samples for key in sample.labels}
            found[name] = labels or tuple(sorted(from_samples - {"le"}))
    return found


def metric_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for cells in table_rows(section(read("docs/server.md"), "Metrics")):
        assert len(cells) == 3, cells  # metric | labels | what
        for name in re.findall(r"`(joke_[a-z0-9_]+)`", cells[0]):
            assert name not in rows, f"{name} has two rows"
            rows[name] = cells
    return rows


def test_every_metric_has_one_row_in_docs_server_md_with_its_labels() -> None:
    registered = registered_metrics()
    assert len(registered) > 20
    rows = metric_rows()
    assert sorted(set(registered) - set(rows)) == [], "metrics docs/server.md does not list"
    assert sorted(set(rows) - set(registered)) == [], "rows for metrics nothing registers"
    wrong = []
    for name, labels in registered.items():
        cell = rows[name][1]
        documented = re.findall(r"`([a-z_]+)`", cell.split("(")[0])
        if sorted(documented) != sorted(labels) or (not labels and cell != "–"):
            wrong.append((name, labels, cell))
    assert wrong == []


def test_every_metric_the_docs_name_exists() -> None:
    exposed = set(registered_metrics())
    # the names nginx.conf gives its upstreams and maps are no metrics
    nginx = set(re.findall(r"\bjoke_[a-z_]+", read("deploy/nginx.conf")))
    unknown = []
    for path in DOCS:
        for name in re.findall(r"\bjoke_[a-z0-9_]+", path.read_text(encoding="utf-8")):
            base = re.sub(r"_(bucket|sum|count)$", "", name)
            if name not in exposed and base not in exposed and name not in nginx:
                unknown.append((path.name, name))
    assert unknown == []


def _route_key(method: str, path: str) -> tuple[str, str]:
    return method, re.sub(r"\{[^}]*\}", "{}", path)


def served_routes() -> set[tuple[str, str]]:
    app = create_app(Settings())
    served = set()
    for route in app.routes:
        path = getattr(route, "path", "")
        methods = getattr(route, "methods", None) or {"GET"}  # a WebSocket's upgrade, a mount
        served |= {_route_key(method, path) for method in methods}
    return served


def documented_routes(text: str) -> set[tuple[str, str]]:
    return {
        _route_key(method, path)
        for method, path in re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`\s?…]*)", text)
    }


def test_every_http_route_and_the_websocket_are_in_docs_protocol_md() -> None:
    documented = documented_routes(read("docs/protocol.md"))
    wanted = {_route_key(e.method, e.path) for e in http_api.ENDPOINTS}
    wanted |= {("GET", "/openapi.json"), ("GET", "/metrics"), ("GET", "/ws/{}")}
    assert wanted <= served_routes()
    assert sorted(wanted - documented) == []


def test_every_route_the_docs_name_is_served() -> None:
    served = served_routes()
    unknown = [
        (path.name, route)
        for path in DOCS
        for route in sorted(documented_routes(path.read_text(encoding="utf-8")))
        if route not in served
    ]
    assert unknown == []


def test_each_error_the_docs_name_has_the_status_and_close_code_they_give_it() -> None:
    wrong = []
    seen = 0
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for status, code in re.findall(r"`(\d{3}) ([a-z_]+)`", text):
            seen += 1
            row = codes.BY_CODE.get(code)
            if row is None or row.status != int(status):
                wrong.append((path.name, status, code))
        named = re.findall(r"`error ([a-z_]+)`", text)
        named += re.findall(r'error \{code:\s*"([a-z_]+)"\}', text)
        seen += len(named)
        wrong += [(path.name, "error", code) for code in named if code not in codes.BY_CODE]
        for code, close in re.findall(
            r'error \{code:\s*"([a-z_]+)"\}`[^`{]{0,30}?(?:close code |\()(\d{4})', text
        ):
            seen += 1
            if codes.CLOSE_BY_CODE.get(code) != int(close):
                wrong.append((path.name, code, close))
    assert seen > 20
    assert wrong == []


async def test_docs_protocol_md_s_readiness_answer_has_every_check_of_a_cluster_node() -> None:
    """The checks of /api/ready: the database, Redis (with --redis), and what the server adds
    (the cluster node's own, in jokeapp/server/app.py)."""
    ready = readiness.Readiness(Settings(redis="redis://127.0.0.1:1/0"), MemoryStore())
    try:
        names = set(ready.checks)
    finally:
        await ready.close()
    names |= set(re.findall(r'readiness\.checks\["(\w+)"\]', read("jokeapp/server/app.py")))
    assert {"db", "redis", "cluster"} <= names
    section_text = section(read("docs/protocol.md"), "HTTP API")
    example = re.search(r"### `GET /api/ready`.*?```json\n(.*?)\n```", section_text, re.S)
    assert example, "docs/protocol.md has no /api/ready example"
    assert set(json.loads(example.group(1))["checks"]) == names


# Paths the docs name that are not in the repository on purpose: built or written at run time.
NOT_COMMITTED = ("jokeapp/server/static/app/", "var/")
PATH_BASES = ("", "jokeapp/", "client/", "client/src/")
FILE_TYPES = "py|md|ts|tsx|mjs|conf|service|json|jsonl|txt|png|toml"


def named_paths(path: Path) -> Iterator[str]:
    """Backticked tokens and link targets that name a file or folder of the repository."""
    text = path.read_text(encoding="utf-8")
    tokens = re.findall(r"`([^`\s]+)`", text) + re.findall(r"\]\(([^)\s#]+)", text)
    # and the ones written without backticks: tests/server/test_wire_types.py
    tokens += re.findall(rf"(?<![\w/.:@<>{{}}-])((?:[\w.@-]+/)+[\w.@-]+\.(?:{FILE_TYPES}))\b", text)
    for token in tokens:
        token = token.rstrip(".,:;")
        if "/" not in token or re.search(r"[{}<>*$=?|…]|^[a-z]+:|^/|^\.\./|^[A-Z]+/", token):
            continue  # a route, a URL, a placeholder (DIR/report.md), a MIME type, outside
        first = token.split("/")[0]
        if "." in token.split("/")[-1] or token.endswith("/") or first in {"docs", "deploy"}:
            yield token


def _exists(token: str, doc: Path) -> bool:
    if token.startswith(NOT_COMMITTED):
        return True
    bases = [ROOT / base for base in PATH_BASES] + [doc.parent]
    candidates = [token]
    if re.fullmatch(r"[\w/]+\.\w+", token) and not token.endswith(".py"):
        candidates.append(token.rsplit(".", 1)[0] + ".py")  # rooms/turns.bot_move: an attribute
    return any((base / c).exists() for base in bases for c in candidates)


def test_every_repository_path_the_docs_name_exists() -> None:
    seen = 0
    missing = []
    for path in DOCS:
        for token in named_paths(path):
            seen += 1
            if not _exists(token, path):
                missing.append((path.name, token))
    assert seen > 100, "the scan found too few paths"
    assert missing == []


def test_every_module_the_docs_name_exists() -> None:
    missing = []
    for path in DOCS:
        for dotted in set(re.findall(r"\bjokeapp(?:\.[a-z_0-9]+)+", path.read_text("utf-8"))):
            parts = dotted.split(".")
            module = ROOT.joinpath(*parts)
            parent = ROOT.joinpath(*parts[:-1]).with_suffix(".py")
            if module.with_suffix(".py").exists() or module.is_dir():
                continue
            if parent.exists() and re.search(
                rf"^(?:def|class|async def) {parts[-1]}\b|^{parts[-1]}\b",
                parent.read_text(encoding="utf-8"),
                re.M,
            ):
                continue
            missing.append((path.name, dotted))
    assert missing == []


def test_every_make_target_and_npm_script_the_docs_name_exists() -> None:
    targets = set(re.findall(r"^([a-z][a-z-]*):", read("Makefile"), re.M))
    scripts = set(json.loads(read("client/package.json"))["scripts"])
    missing = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for span in code_spans(text):
            missing += [
                (path.name, t) for t in re.findall(r"\bmake ([a-z-]+)", span) if t not in targets
            ]
            missing += [
                (path.name, s)
                for s in re.findall(r"\bnpm run ([a-z:-]+)", span)
                if s not in scripts
            ]
    assert missing == []


def test_docs_deploy_md_says_what_deploy_sets() -> None:
    doc = re.sub(r"\s+", " ", read("docs/deploy.md"))  # a phrase may wrap
    unit = read("deploy/joke-node@.service")
    nginx = read("deploy/nginx.conf")
    wrong = []
    for variable, value in re.findall(r"^Environment=(JOKE_\w+)=(\S+)$", unit, re.M):
        shown = value.replace("%i", "N").replace("%H", "<hostname>")
        if f"`{variable}={shown}`" not in doc:
            wrong.append(f"{variable}={shown}")
    for file in re.findall(r"^EnvironmentFile=-?(\S+)$", unit, re.M):
        if f"`{file.replace('%i', 'N')}`" not in doc:
            wrong.append(file)
    stop = re.search(r"^TimeoutStopSec=(\d+)$", unit, re.M)
    assert stop
    if f"the unit waits {stop.group(1)} s" not in doc:
        wrong.append(f"TimeoutStopSec={stop.group(1)}")
    for upstream in re.findall(r"^\s*upstream (\w+) \{", nginx, re.M):
        if f"`upstream {upstream}`" not in doc:
            wrong.append(f"upstream {upstream}")
    for setting in sorted(set(re.findall(r"\b(max_fails=\d+|fail_timeout=\w+)", nginx))):
        if f"`{setting}`" not in doc:
            wrong.append(setting)
    connect = re.search(r"proxy_connect_timeout (\d+)s;", nginx)
    assert connect
    if f"`proxy_connect_timeout` ({connect.group(1)} s)" not in doc:
        wrong.append(f"proxy_connect_timeout {connect.group(1)}s")
    if "hash $joke_route consistent" not in nginx or "`hash $joke_route consistent`" not in doc:
        wrong.append("hash $joke_route consistent")
    assert wrong == []
