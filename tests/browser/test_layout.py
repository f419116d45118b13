"""Tap targets of at least 48 px and no sideways scrolling on a 360 px wide phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.flows import add_bots, create_room, dalmuti_step, play_until, result_shown

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}

# Every visible control smaller than 48 px either way (board squares are a display; see
# docs/client.md). Checkboxes and sliders count by their 48 px label or row instead.
SMALL_CONTROLS = """() => [...document.querySelectorAll('button, select, input:not([type=checkbox]):not([type=range]), summary')]
  .filter((el) => !el.classList.contains('tile') && el.offsetParent !== null)
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, r]) => r.width > 0 && (r.width < 47.5 || r.height < 47.5))
  .map(([el, r]) => `${el.tagName} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`)"""

SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"

# Watches every frame the page draws, in the page (a poll from here sees one frame in many):
# each frame that scrolls sideways, with what sticks out past the right edge. And each tax card
# as it is added (before any frame), with where its flight ends against the centres of the
# seats' resting places (a seat still gliding there is drawn off it by its transform).
FRAMES = """(() => {
  const seen = { frames: 0, sideways: [], flights: 0, astray: [] };
  window.frameWatch = seen;
  const rect = (el) => el.getBoundingClientRect();
  const centre = (el) => [rect(el).left + rect(el).width / 2, rect(el).top + rect(el).height / 2];
  const rests = (el) => {
    const [x, y] = centre(el);
    const moved = new DOMMatrix(getComputedStyle(el).transform);
    return [x - moved.e, y - moved.f];
  };
  const stuckOut = () => [...document.querySelectorAll('body *')]
    .filter((el) => rect(el).right > innerWidth + 0.5)
    .slice(0, 8)
    .map((el) => `${el.tagName}.${String(el.className).replace(/ /g, '.')}`
      + ` ${Math.round(rect(el).left)}..${Math.round(rect(el).right)} ${getComputedStyle(el).transform}`);
  const flight = (card) => {
    seen.flights += 1;
    const seats = [...document.querySelectorAll('[data-seat]')];
    const run = card.getAnimations()[0];
    if (!run) { seen.astray.push(`${card.textContent} does not move`); return; }
    const frames = run.effect.getKeyframes();
    const to = new DOMMatrix(frames[frames.length - 1].transform);
    const [x, y] = rests(card);
    const lands = [x + to.e, y + to.f];
    // a flight's second card lands 8 px right of the first
    const onSeat = seats.some((s) => {
      const [sx, sy] = rests(s);
      return lands[0] - sx > -1 && lands[0] - sx < 9 && Math.abs(lands[1] - sy) < 1;
    });
    if (!onSeat) seen.astray.push(`${card.textContent} lands at ${lands.map(Math.round)}; seats `
      + seats.map((s) => `${s.dataset.seat} ${rests(s).map(Math.round)}`).join(', '));
  };
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains('flying')) flight(node);
    }
  }).observe(document, { childList: true, subtree: true });
  const frame = () => {
    seen.frames += 1;
    const page = document.scrollingElement;
    if (page && page.scrollWidth > page.clientWidth && seen.sideways.length < 20) {
      seen.sideways.push(`${page.scrollWidth} > ${page.clientWidth}: ${stuckOut().join('; ')}`);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();"""


def check(page: Any, where: str) -> None:
    assert page.evaluate(SIDEWAYS) <= 0, f"{where}: the page scrolls sideways"
    assert page.evaluate(SMALL_CONTROLS) == [], where


def test_controls_are_big_enough_and_nothing_scrolls_sideways_at_360(new_page: Any) -> None:
    page = new_page()
    page.set_viewport_size(NARROW)
    page.goto("/")
    page.locator("details.options summary").click()
    check(page, "home")
    create_room(page, "marble", "수진", {"maxRounds": "15"})
    add_bots(page, 1)
    check(page, "lobby")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=marble-table]")
    check(page, "marble table")
    page.get_by_test_id("tile-21").click()
    check(page, "square info")

    create_room(page, "dalmuti", "지수", {"rounds": "1"})
    add_bots(page, 3)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=dalmuti-table]")
    play_until(page, dalmuti_step, lambda p: bool(p.get_by_test_id("controls").count()), seconds=60)
    check(page, "card table")


def test_no_frame_of_whole_card_rounds_scrolls_sideways_at_360(new_page: Any) -> None:
    """Three rounds with tax each time (no revolutions), their ends and the seats' reorders, at
    360 px: not one drawn frame scrolls sideways, and every tax card flies to a seat's centre."""
    page = new_page()
    page.set_viewport_size(NARROW)
    page.add_init_script(FRAMES)
    create_room(page, "dalmuti", "지수", {"revolution": "끄기"})
    add_bots(page, 3)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=dalmuti-table]")
    play_until(page, dalmuti_step, result_shown, seconds=150)
    seen = page.evaluate("() => window.frameWatch")
    assert seen["frames"] > 0
    assert seen["sideways"] == [], seen["sideways"]
    assert seen["astray"] == [], seen["astray"]
    # every round has tax between both pairs (2 + 1 paid, 2 + 1 returned), and I am in one
    assert seen["flights"] == 18, seen
