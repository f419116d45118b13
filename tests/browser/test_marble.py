"""A marble game played through the UI against a bot, to the result screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.flows import add_bots, create_room, marble_step, play_until, result_shown

pytestmark = pytest.mark.browser

SMALL = {"maxRounds": "15", "startMoney": "200"}


def test_home_and_lobby_show_every_option_and_the_seats(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.get_by_test_id("nickname").fill("수진")
    page.locator("details.options summary").click()
    for key in (
        "startMoney",
        "salary",
        "maxRounds",
        "islandTurns",
        "takeover",
        "trade",
        "turnSeconds",
    ):
        assert page.get_by_test_id(f"opt-{key}").count() == 1, key
    assert "(기본)" in page.get_by_test_id("opt-startMoney").inner_text()
    shot(page, "home")
    create_room(page, "marble", "수진", SMALL)
    add_bots(page, 1)
    seats = page.locator("[data-testid^=seat-p]")
    assert seats.count() == 2
    assert "방장" in page.get_by_test_id("seat-p1").inner_text()
    assert "봇" in page.get_by_test_id("seat-p2").inner_text()
    shot(page, "lobby")


def test_marble_game_against_a_bot_reaches_the_result(new_page: Any) -> None:
    page = new_page()
    create_room(page, "marble", "수진", SMALL)
    add_bots(page, 1)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=marble-table]")
    assert page.locator("[data-testid^=tile-]").count() == 40
    shot(page, "marble-table")

    # the info card of a square: owner, buildings, toll table
    page.get_by_test_id("tile-39").click()
    info = page.get_by_test_id("tile-info").inner_text()
    assert "서울" in info and "통행료" in info and "호텔" in info
    shot(page, "marble-tile-info")
    page.get_by_test_id("tile-info").get_by_role("button", name="닫기").click()

    seen: set[str] = set()

    def capture(p: Any, _n: int) -> None:
        # (the debt and space travel screenshots come from staged views: test_marble_ui.py)
        for sheet, name in (("decision", "marble-decision"),):
            if name not in seen and p.get_by_test_id(sheet).count():
                seen.add(name)
                shot(p, name)

    def step(p: Any) -> bool:
        capture(p, 0)
        return marble_step(p)

    actions = play_until(page, step, result_shown, seconds=150)
    assert actions > 10
    ranking = page.get_by_test_id("ranking").inner_text()
    assert "1위" in ranking and "수진" in ranking
    assert page.get_by_test_id("summary").inner_text().strip()
    assert "p1" not in page.get_by_test_id("summary").inner_text()
    shot(page, "marble-result")

    # the finished game, stepped through on its table
    page.get_by_test_id("open-replay").click()
    page.wait_for_selector("[data-testid=replay]")
    assert page.get_by_test_id("replay-step").inner_text().startswith("0 /")
    page.get_by_test_id("replay-forward").click()
    page.get_by_test_id("replay-forward").click()
    assert page.get_by_test_id("replay-step").inner_text().startswith("2 /")
    page.get_by_test_id("replay-back").click()
    assert page.get_by_test_id("replay-step").inner_text().startswith("1 /")
    page.get_by_test_id("replay-play").click()
    page.wait_for_function(
        "() => parseInt(document.querySelector('[data-testid=replay-step]').textContent) >= 3"
    )
    page.get_by_test_id("replay-play").click()
    footer = page.get_by_test_id("replay-seed").inner_text()
    assert "이 판을 섞은 번호" in footer and "확인값" in footer
    assert "시드" not in footer and "해시" not in footer
    shot(page, "marble-replay")
    page.locator("input[type=range]").fill("100000")  # jump to the end
    page.wait_for_selector("[data-testid=replay-result]")
    assert "1위" in page.get_by_test_id("replay-result").inner_text()
