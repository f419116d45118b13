"""End-to-end fixtures: one real room server per session, Debian Chromium at a phone's size.

The tests skip, saying why, when Chromium or the built client is missing; `make test` installs
and builds both first.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
BUILT = ROOT / "jokeapp" / "server" / "static" / "app" / "index.html"
SHOTS = ROOT / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _why_not() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (make browser-deps)"
    if not BUILT.exists():
        return f"{BUILT.relative_to(ROOT)} is missing (make client)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright for Python is not installed"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _why_not()
    for item in items:
        if "browser" not in item.keywords:
            continue
        # Whole games through a browser on a loaded 2-core machine: the limit catches a hang,
        # it never judges speed (flows.play_until has its own, generous guard).
        item.add_marker(pytest.mark.timeout(1200))
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _joke() -> str:
    found = Path(sys.executable).with_name("joke")
    return str(found) if found.exists() else shutil.which("joke") or "joke"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `joke serve` with fast bots; yields its base URL."""
    port = _free_port()
    db = tmp_path_factory.mktemp("browser") / "rooms.sqlite3"
    log = open(db.with_suffix(".log"), "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [_joke(), "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0.05"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=1) as res:
                    if res.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"joke serve did not start, see {log.name}") from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, server: str) -> Iterator[Callable[[], Any]]:
    """Opens a phone-sized page in its own context (its own localStorage, its own person)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make() -> Any:
        context = browser.new_context(viewport=PHONE, locale="ko-KR", base_url=server)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


def shot(page: Any, name: str, settle: bool = True) -> None:
    """Writes docs/screenshots/<name>.png (shown in docs/client.md)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if settle:
        page.wait_for_timeout(350)  # let a sheet finish rising
    page.screenshot(path=str(SHOTS / f"{name}.png"))
