"""The host picks a bot's level when adding it, and the seat shows it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.flows import create_room

pytestmark = pytest.mark.browser


def test_host_adds_a_bot_at_a_chosen_level_and_the_seat_shows_it(new_page: Any) -> None:
    host = new_page()
    create_room(host, "marble", "수진")
    picker = host.get_by_test_id("bot-level")
    labels = [text.strip() for text in picker.locator("option").all_inner_texts()]
    assert labels == ["쉬움", "보통", "어려움"]
    assert picker.input_value() == "normal"  # the default level
    picker.select_option(label="어려움")
    host.get_by_test_id("add-bot").click()
    host.wait_for_selector("[data-testid=bot-level-p2]")
    assert "어려움" in host.get_by_test_id("seat-p2").inner_text()
    host.get_by_test_id("add-bot").click()  # the picker keeps the level chosen last
    host.wait_for_selector("[data-testid=bot-level-p3]")
    assert "어려움" in host.get_by_test_id("bot-level-p3").inner_text()
    picker.select_option(label="쉬움")
    host.get_by_test_id("add-bot").click()
    host.wait_for_selector("[data-testid=bot-level-p4]")
    assert "쉬움" in host.get_by_test_id("bot-level-p4").inner_text()
