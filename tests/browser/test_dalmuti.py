"""A card game played through the UI against three bots, to the result screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.flows import add_bots, create_room, dalmuti_step, play_until, result_shown

pytestmark = pytest.mark.browser

SMALL = {"rounds": "1", "turnSeconds": "15"}


def test_dalmuti_game_against_bots_reaches_the_result(new_page: Any) -> None:
    page = new_page()
    create_room(page, "dalmuti", "지수", SMALL)
    add_bots(page, 3)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=dalmuti-table]")
    assert page.locator("[data-testid^=dseat-]").count() == 4
    assert page.get_by_test_id("tips").count() == 1
    page.wait_for_selector("[data-testid=confirm-hand]")
    assert page.locator("[data-testid=hand] .group").count() > 0
    shot(page, "dalmuti-revolution-check")

    seen: set[str] = set()

    def step(p: Any) -> bool:
        if "tax" not in seen and (
            p.get_by_test_id("tax-return").count() or p.get_by_test_id("tax-phase").count()
        ):
            seen.add("tax")
            shot(p, "dalmuti-tax", settle=False)
        following = p.get_by_test_id("standard").inner_text().startswith("지금 기준")
        if "turn" not in seen and p.get_by_test_id("controls").count() and following:
            seen.add("turn")
            shot(p, "dalmuti-table")
        return dalmuti_step(p)

    actions = play_until(page, step, result_shown, seconds=150)
    assert actions >= 3
    ranking = page.get_by_test_id("ranking").inner_text()
    assert "지수" in ranking and "1위" in ranking and "점" in ranking
    shot(page, "dalmuti-result")

    # the host starts another match with the same seats
    page.get_by_test_id("rematch").click()
    page.wait_for_selector("[data-testid=result]", state="detached")
    page.wait_for_selector("[data-testid=confirm-hand]")
    assert page.locator("[data-testid^=dseat-]").count() == 4
