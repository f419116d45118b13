"""What a player does through the UI: make a room, fill it with bots, play a turn."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from typing import Any

QUICK = 2_000  # ms: a button that vanished (a bot or the clock acted first) is not an error


def tap(page: Any, test_id: str) -> bool:
    """Clicks the element if it is there and enabled; False if it went away meanwhile."""
    target = page.get_by_test_id(test_id)
    if target.count() == 0:
        return False
    with contextlib.suppress(Exception):
        if target.first.is_enabled():
            target.first.click(timeout=QUICK)
            return True
    return False


def create_room(page: Any, game: str, nickname: str, options: dict[str, str] | None = None) -> str:
    """From the home screen; returns the join code. Options are picked by their shown label."""
    page.goto("/")
    page.get_by_test_id("nickname").fill(nickname)
    page.get_by_test_id(f"game-{game}").click()
    if options:
        page.locator("details.options summary").click()
        for key, label in options.items():
            page.get_by_test_id(f"opt-{key}").select_option(label=label)
    page.get_by_test_id("create-room").click()
    page.wait_for_selector("[data-testid=room-code]")
    code: str = page.get_by_test_id("room-code").inner_text().strip()
    return code


def add_bots(page: Any, count: int) -> None:
    for _ in range(count):
        before = page.locator("[data-testid^=seat-p]").count()
        page.get_by_test_id("add-bot").click()
        page.wait_for_function(
            f"document.querySelectorAll('[data-testid^=seat-p]').length > {before}"
        )


def join_by_link(page: Any, code: str, nickname: str, role: str = "player") -> None:
    page.goto(f"/r/{code}")
    page.get_by_test_id("nickname").fill(nickname)
    page.get_by_test_id(f"join-{role}").click()


def marble_step(page: Any) -> bool:
    """One decision on the marble table, if one is waiting for us."""
    if tap(page, "roll") or tap(page, "space-go"):
        return True
    if page.get_by_test_id("decision").count():
        text = ""
        with contextlib.suppress(Exception):
            text = page.get_by_test_id("decision").inner_text(timeout=QUICK)
        return tap(page, "decision-pass" if "부족" in text else "decision-yes") or tap(
            page, "decision-pass"
        )
    if page.get_by_test_id("debt").count():
        sell = page.locator("[data-testid^=sell-]")
        if sell.count():
            with contextlib.suppress(Exception):
                sell.first.click(timeout=QUICK)
                return True
    if page.get_by_test_id("space-timeout").count():  # space travel: pick a square
        with contextlib.suppress(Exception):
            page.get_by_test_id("tile-5").click(timeout=QUICK)
            return tap(page, "space-go")
    return False


def dalmuti_step(page: Any) -> bool:
    """One decision on the card table: confirm the hand, return tax, or play the worst group."""
    if tap(page, "confirm-hand"):
        return True
    if tap(page, "return-tax"):
        return True
    if page.get_by_test_id("controls").count() == 0:
        return False
    groups = page.locator(
        "[data-testid=hand] .group.playable, [data-testid=hand] .group.needsJester"
    )
    with contextlib.suppress(Exception):
        if groups.count():
            groups.last.click(timeout=QUICK)
            return tap(page, "play")
        return tap(page, "pass")
    return False


PATIENCE = 4


def play_until(
    page: Any,
    step: Callable[[Any], bool],
    done: Callable[[Any], bool],
    seconds: float,
    on_step: Callable[[Any, int], None] | None = None,
) -> int:
    """Plays through the UI until `done`; returns how many actions we took.

    `seconds` is what a quiet machine needs; the guard allows PATIENCE times that, since it
    is there to stop a stuck game, not to time one.
    """
    deadline = time.monotonic() + seconds * PATIENCE
    actions = 0
    while not done(page):
        assert time.monotonic() < deadline, f"not done after {seconds}s ({actions} actions)"
        if page.get_by_test_id("rejection").count():
            # an ack may clear the banner while we reach for its button
            with contextlib.suppress(Exception):
                page.get_by_test_id("rejection").get_by_role("button").click(timeout=QUICK)
        if step(page):
            actions += 1
            if on_step:
                on_step(page, actions)
        else:
            page.wait_for_timeout(120)
    return actions


def result_shown(page: Any) -> bool:
    return bool(page.get_by_test_id("result").count())


def cash_texts(page: Any) -> list[str]:
    return [re.sub(r"\s+", "", t) for t in page.locator("[data-testid^=cash-p]").all_inner_texts()]
