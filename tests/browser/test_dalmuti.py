"""The card game played through the UI against bots (dalmuti.md 9 on a phone).

Every check that samples the page runs in one `evaluate`, so it sees one rendered state and
cannot race a bot or the clock; where a screen comes only when the deal gives it (the tax
screen), the test says how often it was seen.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.flows import (
    QUICK,
    add_bots,
    create_room,
    dalmuti_step,
    join_by_link,
    play_until,
    result_shown,
    tap,
)

pytestmark = pytest.mark.browser

SMALL = {"rounds": "1", "turnSeconds": "15"}
NARROW = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 768}

# The controls of the decision I must take now, and whether each is on screen and on top
# (not under another layer) at the top and at the bottom of the page, without scrolling to it.
ACTING = """() => {
  const ids = ['play', 'pass', 'confirm-hand', 'declare-revolution', 'return-tax'];
  const found = ids.flatMap((id) => [...document.querySelectorAll(`[data-testid="${id}"]`)].map((el) => [id, el]));
  if (!found.length) return null;
  const problems = [];
  const turn = document.querySelector('[data-testid=my-turn]');
  if (!turn || !turn.innerText.includes('내 차례')) problems.push('no "내 차례"');
  for (const y of [0, document.documentElement.scrollHeight]) {
    window.scrollTo(0, y);
    for (const [id, el] of found) {
      const r = el.getBoundingClientRect();
      const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!inside) problems.push(`${id} at y=${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight} (scroll ${y})`);
      else if (!hit || !el.contains(hit)) problems.push(`${id} is covered (scroll ${y})`);
    }
  }
  window.scrollTo(0, 0);
  return { kinds: found.map(([id]) => id), problems };
}"""

# Particles left for the reader to choose: "(를)", "(가)", "을(를)", "(으)로" …
UNRESOLVED = re.compile(r"\((?:을|를|이|가|은|는|와|과|으|으로|로|이나|나|아|야)\)")

# Animations on the card table longer than 50 ms (only reduced motion is checked with it).
LONG_ANIMATIONS = """() => document.getAnimations()
  .filter((a) => a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('.dalmuti'))
  .map((a) => a.effect.getComputedTiming())
  .filter((t) => (t.duration || 0) + (t.delay || 0) > 50)
  .map((t) => `${t.duration}+${t.delay}`)"""


# The line under the selection and whether 내기 is off, read together.
WHY = """() => document.querySelector('[data-testid=controls]') && [
  document.querySelector('[data-testid=why]')?.innerText ?? '',
  !!document.querySelector('[data-testid=play]')?.disabled]"""
REASONS = ("더 낮은 숫자만 낼 수 있어요", "장이 필요해요", "광대만 내면 13")

# "광대 섞기" is only offered with a jester in the hand.
JESTER_TOGGLE = """() => {
  if (!document.querySelector('[data-testid=mix-jesters]')) return 'none';
  return document.querySelector('[data-testid=group-13]') ? 'with a jester' : 'without a jester';
}"""


# Every round-end screen the page shows: its text, rows, when it came and when it went.
RECORD_ROUND_ENDS = """window.roundEnds = [];
new MutationObserver(() => {
  const el = document.querySelector('[data-testid=round-end]');
  const open = window.roundEnds.find((r) => !r.gone);
  if (el && !open) {
    window.roundEnds.push({
      at: performance.now(), gone: 0, text: el.innerText,
      rows: [...el.querySelectorAll('[data-testid^=round-row-]')].map((r) => r.innerText),
      mine: el.querySelectorAll('[data-testid^=round-row-].me').length,
    });
  } else if (!el && open) {
    open.gone = performance.now();
  }
}).observe(document, { childList: true, subtree: true });"""


# Every tax card that flies from seat to seat: a face (the viewer gave or got it) or a back.
RECORD_FLIGHTS = """window.flights = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) {
    if (node.classList && node.classList.contains('flying')) {
      window.flights.push(node.classList.contains('back') ? 'back' : node.textContent);
    }
  }
}).observe(document, { childList: true, subtree: true });"""


class Checks:
    """What the test saw: acting controls per kind, problems, unresolved particles."""

    def __init__(self) -> None:
        self.kinds: dict[str, int] = {}
        self.problems: list[str] = []
        self.particles: list[str] = []
        self.animations: list[str] = []

    def controls(self, page: Any, where: str) -> None:
        seen = page.evaluate(ACTING)
        if seen is None:
            return
        for kind in seen["kinds"]:
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.problems += [f"{where}: {p}" for p in seen["problems"]]

    def text(self, page: Any) -> None:
        body = page.evaluate("() => document.body.innerText")
        self.particles += [m.group(0) for m in UNRESOLVED.finditer(body)]

    def motion(self, page: Any) -> None:
        self.animations += page.evaluate(LONG_ANIMATIONS)


def start_card_game(page: Any, nickname: str, options: dict[str, str], bots: int = 3) -> str:
    code = create_room(page, "dalmuti", nickname, options)
    add_bots(page, bots)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=dalmuti-table]")
    return code


# The hand check is up for me, or it is over already (a bot holding both jesters may declare
# at once, which ends the check before anyone else confirms).
HAND_CHECK_OR_LATER = """() => !!document.querySelector('[data-testid=confirm-hand]')
  || !!document.querySelector('[data-testid=controls], [data-testid=tax-return], [data-testid=tax-phase]')
  || !(document.querySelector('[data-testid=standard]')?.innerText ?? '').includes('손패를 확인')"""


def wait_hand_check(page: Any) -> bool:
    """Waits for my hand check (True) or for the round to have gone past it (False)."""
    page.wait_for_function(HAND_CHECK_OR_LATER)
    return bool(page.get_by_test_id("confirm-hand").count())


def test_dalmuti_game_against_bots_reaches_the_result(new_page: Any) -> None:
    """A whole game at 390 × 844: the acting controls are on screen at every decision, the
    screen says "내 차례", no sentence leaves a particle unresolved, dim groups say why."""
    page = new_page()
    page.add_init_script(RECORD_FLIGHTS)
    code = start_card_game(page, "지수", SMALL)
    assert page.locator("[data-testid^=dseat-]").count() == 4
    assert page.get_by_test_id("tips").count() == 1
    assert page.locator("[data-testid=hand] .group").count() > 0
    if wait_hand_check(page):
        shot(page, "dalmuti-revolution-check")

    checks = Checks()
    seen: set[str] = set()

    def step(p: Any) -> bool:
        checks.controls(p, "390x844")
        if "tax" not in seen and (
            p.get_by_test_id("tax-return").count() or p.get_by_test_id("tax-phase").count()
        ):
            seen.add("tax")
            shot(p, "dalmuti-tax", settle=False)
        following = False
        with contextlib.suppress(Exception):
            following = p.get_by_test_id("pass").is_enabled(timeout=QUICK)
        if (
            following
            and "why" not in seen
            and p.locator("[data-testid=hand] .group.blocked").count()
        ):
            # a dim group says why it cannot be played, and selects nothing
            said = None
            with contextlib.suppress(Exception):  # the turn may pass meanwhile (the clock)
                p.locator("[data-testid=hand] .group.blocked").first.click(timeout=QUICK)
                said = p.evaluate(WHY)
            if said is not None:
                why, play_disabled = said
                assert any(reason in why for reason in REASONS), why
                assert play_disabled
                seen.add("why")
        if following and "turn" not in seen:
            seen.add("turn")
            shot(p, "dalmuti-table")
        jester_toggle = p.evaluate(JESTER_TOGGLE)
        assert jester_toggle != "without a jester", "광대 섞기 shown without a jester in the hand"
        acted = dalmuti_step(p)
        if acted:
            checks.text(p)
        return acted

    actions = play_until(page, step, result_shown, seconds=150)
    checks.text(page)
    assert actions >= 3
    assert checks.problems == []
    # which decisions reach me is the deal's and the clock's: some did, and their controls were
    # on screen (problems above); the desktop test below checks a play decision's controls
    assert checks.kinds, "no decision of mine was ever checked"
    assert checks.particles == []
    assert "why" in seen, "never followed with a dim group in the hand"
    if "tax" in seen:
        # tax cards flew seat to seat: faces of my own pair's cards, backs of the other pair's
        flights = page.evaluate("() => window.flights")
        assert len(flights) == 6, flights  # 2 + 1 paid, 2 + 1 returned
        assert "back" in flights and any(f != "back" for f in flights), flights
    ranking = page.get_by_test_id("ranking").inner_text()
    assert "지수" in ranking and "1위" in ranking and "점" in ranking
    shot(page, "dalmuti-result")

    # the host starts another match with the same seats
    page.get_by_test_id("rematch").click()
    page.wait_for_selector("[data-testid=result]", state="detached")
    wait_hand_check(page)
    assert page.locator("[data-testid^=dseat-]").count() == 4

    # the finished first match, replayed from the server's frames: once the game is over
    # every hand is shown, four hands of cards right after the deal
    room_id = page.evaluate(f"() => JSON.parse(localStorage.getItem('joke.seat.{code}')).roomId")
    page.goto(f"/replay/{room_id}?match=1")
    page.wait_for_selector("[data-testid=replay-hands]")
    assert page.get_by_test_id("spectating").count() == 0
    page.get_by_test_id("replay-forward").click()
    hands = page.locator("[data-testid^=replay-hand-]")
    assert hands.count() == 4
    assert all(hands.nth(i).locator(".dcard").count() > 0 for i in range(4))
    assert "지수" in page.get_by_test_id("replay-hands").inner_text()
    page.locator("input[type=range]").fill("100000")  # the end: the result
    page.wait_for_selector("[data-testid=replay-result]")
    assert "1위" in page.get_by_test_id("replay-result").inner_text()


def test_round_end_screen_and_controls_on_a_small_phone(new_page: Any) -> None:
    """360 × 740, three rounds: controls on screen through round one; between rounds every
    place, the round's points, the totals and the new titles, for a few seconds, dismissible."""
    page = new_page()
    page.set_viewport_size(NARROW)
    page.add_init_script(RECORD_ROUND_ENDS)
    start_card_game(page, "Tom", {"rounds": "3 (기본)", "turnSeconds": "15"})
    checks = Checks()

    def step(p: Any) -> bool:
        if p.get_by_test_id("round-end").count():
            return False
        checks.controls(p, "360x740")
        acted = dalmuti_step(p)
        if acted:
            checks.text(p)
        return acted

    def round_two_screen(p: Any) -> bool:
        return bool(p.evaluate("() => window.roundEnds.length >= 2"))

    play_until(page, step, lambda p: bool(p.evaluate("() => window.roundEnds.length")), seconds=150)
    first = page.evaluate("() => window.roundEnds[0]")
    assert "1라운드 끝" in first["text"]
    assert len(first["rows"]) == 4
    row_texts = first["rows"]
    assert [t.split()[0] for t in row_texts] == ["1등", "2등", "3등", "4등"]
    assert [re.search(r"\+(\d)점", t).group(1) for t in row_texts] == ["3", "2", "1", "0"]  # type: ignore[union-attr]
    assert "대왕" in row_texts[0] and "대농노" in row_texts[3]
    assert all(re.search(r"\d+점\s+\S+\s+\S+$", t.strip()) for t in row_texts), row_texts
    assert first["mine"] == 1  # my own row, marked
    # it stays for a few seconds (the next round waits for it) and then closes on its own
    page.wait_for_function("() => window.roundEnds[0].gone")
    shown = page.evaluate("() => window.roundEnds[0].gone - window.roundEnds[0].at")
    assert 5000 <= shown <= 9000, shown
    # the second round's screen closes on a tap
    play_until(page, step, round_two_screen, seconds=150)
    if page.get_by_test_id("round-end").count():
        shot(page, "dalmuti-round-end", settle=False)
    if tap(page, "round-end-close"):
        page.wait_for_selector("[data-testid=round-end]", state="detached")
        closed = page.evaluate("() => window.roundEnds[1].gone - window.roundEnds[1].at")
        assert closed < 5000, closed
    assert "2라운드 끝" in page.evaluate("() => window.roundEnds[1].text")
    assert checks.problems == []
    assert checks.particles == []
    assert checks.kinds.get("play", 0) >= 1, checks.kinds  # how many turns I get is the deal's


def test_acting_controls_on_a_desktop_screen(new_page: Any) -> None:
    page = new_page()
    page.set_viewport_size(DESKTOP)
    start_card_game(page, "지수", SMALL)
    checks = Checks()
    wait_hand_check(page)
    checks.controls(page, "1366x768")

    def checked_step(p: Any) -> Any:
        checks.controls(p, "1366x768")
        return dalmuti_step(p)

    play_until(
        page,
        checked_step,
        lambda _: checks.kinds.get("play", 0) >= 1,
        seconds=60,
    )
    assert checks.problems == []


def test_hand_check_waits_for_everyone_and_seats_show_a_lost_connection(new_page: Any) -> None:
    """Four people (no bot, so nobody declares a revolution by itself): after I confirm, the
    screen says it waits for the others; when another person's connection drops, their seat
    says so in words."""
    host = new_page()
    code = create_room(host, "dalmuti", "지수", SMALL)
    guests = []
    for number, name in enumerate(("민호", "Jack", "서연"), start=2):
        guest = new_page()
        join_by_link(guest, code, name)
        host.wait_for_selector(f"[data-testid=seat-p{number}]")
        guests.append(guest)
    host.get_by_test_id("start-game").click()
    for page in (host, *guests):
        page.wait_for_selector("[data-testid=confirm-hand]")
    host.get_by_test_id("confirm-hand").click()
    status = host.get_by_test_id("hand-check-status")
    status.wait_for()
    assert "다른 사람을 기다리는 중" in status.inner_text()
    assert "(1/4)" in status.inner_text()
    assert host.get_by_test_id("confirm-hand").count() == 0
    assert all(g.get_by_test_id("confirm-hand").count() == 1 for g in guests)
    shot(host, "dalmuti-waiting")

    # everyone confirms: the tax moves, and the two who got tax must give cards back; their
    # 돌려주기 is on screen (two of the four pages are small phones)
    for page in guests[1:]:
        page.set_viewport_size(NARROW)
    for page in guests:
        page.get_by_test_id("confirm-hand").click()
    for page in (host, *guests):
        page.wait_for_selector(
            "[data-testid=tax-return], [data-testid=tax-phase], [data-testid=controls]"
        )
    checks = Checks()
    returning = [p for p in (host, *guests) if p.get_by_test_id("return-tax").count()]
    assert len(returning) == 2  # the top two titles, nobody has returned yet
    for page in returning:
        checks.controls(page, f"tax {page.viewport_size['width']}")
    assert checks.kinds.get("return-tax") == 2 and checks.problems == [], (
        checks.kinds,
        checks.problems,
    )

    guests[0].context.close()
    host.wait_for_selector("[data-testid=badge-p2]")
    assert "연결 끊김" in host.get_by_test_id("dseat-p2").inner_text()
    assert host.get_by_test_id("badge-p3").count() == 0


def test_table_ring_rules_pictures_draw_and_reduced_motion(new_page: Any) -> None:
    """The others sit on an arc in turn order; the rules show the title pictures; the opening
    draw is shown when the server sends it; with reduced motion nothing animates over 50 ms."""
    page = new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    page.emulate_media(reduced_motion="reduce")
    start_card_game(page, "지수", SMALL)
    wait_hand_check(page)

    # the arc: left end, top, right end in turn order after me; my own seat under the trick
    centres = page.evaluate(
        """() => [...document.querySelectorAll('.dseats.arc [data-seat]')].map((el) => {
          const r = el.getBoundingClientRect();
          return [el.dataset.seat, r.left + r.width / 2, r.top + r.height / 2];
        })"""
    )
    assert len(centres) == 3
    (_, x0, y0), (_, x1, y1), (_, x2, y2) = centres
    assert x0 < x1 < x2
    assert y1 < y0 - 60 and y1 < y2 - 60, centres  # an arc, not a row or a grid
    order = json.loads(
        page.evaluate(
            "() => JSON.stringify([...document.querySelectorAll('.dseats.arc [data-seat]')].map((e) => e.dataset.seat))"
        )
    )
    assert "p1" not in order
    mine = page.locator(".dseats.mine [data-seat=p1]")
    assert mine.count() == 1
    trick = page.get_by_test_id("trick").bounding_box()
    assert trick and mine.bounding_box()["y"] > trick["y"]  # type: ignore[index,unused-ignore]

    if any("firstRankDraw" in f for f in frames):
        # the server sent the opening draw (spec 4.1): its result is shown, then closes on a tap
        page.wait_for_selector("[data-testid=opening-draw]")
        assert page.locator("[data-testid^=draw-p]").count() == 4
        shot(page, "dalmuti-opening-draw")
        page.get_by_test_id("opening-draw-close").click()

    page.get_by_test_id("rules-button").click()
    pictures = page.get_by_test_id("title-pictures")
    assert pictures.locator("li").count() == 5
    assert "대왕" in pictures.inner_text() and "대농노" in pictures.inner_text()
    assert "대왕이 또 1등으로 나갈 확률" in page.get_by_test_id("rules-facts").inner_text()
    page.get_by_role("button", name="닫기").first.click()

    checks = Checks()

    def step(p: Any) -> bool:
        checks.motion(p)
        acted = dalmuti_step(p)
        checks.motion(p)
        return acted

    play_until(page, step, result_shown, seconds=150)
    assert checks.animations == []
