"""The marble table on a phone, round two: what a player hits in a real game.

Some screens only appear when the dice deal them (a debt, space travel, a choice the player
cannot afford); those tests take the real server's view and change the few fields that make
the screen appear (`staged`), so they run every time and do not depend on luck.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import PHONE, shot
from tests.browser.flows import (
    QUICK,
    add_bots,
    create_room,
    join_by_link,
    marble_step,
    play_until,
    result_shown,
)
from tests.heldview import held_view

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 768}
UNRESOLVED = re.compile(r"\((?:을|를|이|가|은|는|와|과|으)\)")

INSIDE = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && scrollY === 0;
}"""

# Every line of every square's name fits its box; every square's label starts with its name.
CLIPPED = """() => [...document.querySelectorAll('[data-testid^=tile-] .tile-line')]
  .filter((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight + 1)
  .map((e) => e.textContent)"""


def start_marble(page: Any, bots: int = 1, options: dict[str, str] | None = None) -> str:
    code = create_room(page, "marble", "수진", {"maxRounds": "15", **(options or {})})
    add_bots(page, bots)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=marble-table]")
    return code


def seat_token(page: Any, code: str) -> str:
    token: str = page.evaluate(f"JSON.parse(localStorage.getItem('joke.seat.{code}')).token")
    return token


@pytest.mark.parametrize("viewport", [PHONE, NARROW, DESKTOP], ids=["390", "360", "1366"])
def test_my_turn_and_its_controls_are_on_screen(new_page: Any, viewport: dict[str, int]) -> None:
    """굴리기 on my real turn, and a decision sheet's buttons, inside the screen at each size.

    The decision is staged (the server's view with the square and choices set), so the check
    does not wait for the dice to land me on a free city; real play reaching real sheets is
    the whole-game test below.
    """
    page = new_page()
    page.set_viewport_size(viewport)
    decide_now = {"on": False, "sent": False}

    def decide(view: dict[str, Any]) -> bool | None:
        if not decide_now["on"]:
            return None
        if decide_now["sent"]:
            return False  # the staged decision stays; the real game's next moves are held back
        decide_now["sent"] = True
        _mine(view)
        view["phase"] = "decide"
        view["players"]["p1"]["pos"] = 1
        view["decision"] = {
            "pos": 1, "canBuy": True, "canBuild": None, "canTakeover": None,
            "boughtThisVisit": False,
        }  # fmt: skip
        view["choices"] = [
            {
                "type": "BUY",
                "cost": 6,
                "cashAfter": view["players"]["p1"]["cash"] - 6,
                "affordable": True,
            },
            {
                "type": "PASS",
                "cost": 0,
                "cashAfter": view["players"]["p1"]["cash"],
                "affordable": True,
            },
        ]
        return None

    _staged(page, decide)
    start_marble(page, options={"turnSeconds": "60"})
    roll = page.get_by_test_id("roll")
    roll.wait_for(timeout=60_000)  # my first turn: at once, or after the bot's
    assert page.evaluate(INSIDE, "[data-testid=roll]"), "굴리기 is off screen"
    assert "내 차례" in page.get_by_test_id("turn-line").inner_text()
    decide_now["on"] = True
    page.evaluate("() => window.scrollTo(0, 0)")
    roll.click()  # the next update arrives staged as my decision on 타이베이
    sheet = page.get_by_test_id("decision")
    sheet.wait_for(timeout=30_000)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=decision]').getAnimations().every((a) => a.playState !== 'running')"
    )
    for button in ("decision-yes", "decision-pass"):
        assert page.evaluate(INSIDE, f"[data-testid={button}]"), f"{button} is off screen"


def test_board_names_fit_at_360_and_squares_and_tokens_are_labelled(new_page: Any) -> None:
    page = new_page()
    page.set_viewport_size(NARROW)
    start_marble(page, bots=3)
    assert page.evaluate(CLIPPED) == []
    labels = page.locator("[data-testid^=tile-]").evaluate_all(
        "(els) => els.map((e) => [e.dataset.pos, e.getAttribute('aria-label')])"
    )
    assert len(labels) == 40
    assert dict(labels)["1"].startswith("타이베이")
    assert dict(labels)["21"].startswith("부에노스아이레스")
    token = page.get_by_test_id("token-p1")
    assert token.get_attribute("aria-label") == "수진의 말"
    assert token.evaluate("(t) => t.closest('[data-testid^=tile-]') !== null")
    # groups are told by a letter as well as a colour
    assert page.get_by_test_id("tile-23").locator(".band").inner_text() == "E"
    # still unclipped once squares have owners, buildings and several tokens
    play_until(page, marble_step, lambda p: p.locator(".tile.owned").count() >= 3, seconds=60)
    assert page.evaluate(CLIPPED) == []
    shot(page, "marble-board-360", settle=False)


def test_full_game_has_no_unresolved_particles_and_sheets_wait_for_the_token(
    new_page: Any,
) -> None:
    page = new_page()
    # watches every change of the page: text with an unresolved particle, and a decision
    # sheet shown while my token is not on its square
    page.add_init_script(
        """
        window.__josa = []; window.__early = []; window.__sheets = 0;
        const UNRESOLVED = /\\((?:을|를|이|가|은|는|와|과|으)\\)/;
        let seen = null;
        const check = () => {
          const text = document.body ? document.body.innerText : '';
          const bad = UNRESOLVED.exec(text);
          if (bad) window.__josa.push(text.slice(Math.max(0, bad.index - 20), bad.index + 10));
          const sheet = document.querySelector('[data-testid=decision]');
          if (sheet && sheet !== seen) {
            seen = sheet;
            window.__sheets += 1;
            const token = document.querySelector('[data-testid=token-p1]');
            const at = token && token.closest('[data-testid^=tile-]');
            if (!at || at.dataset.pos !== sheet.dataset.pos)
              window.__early.push(`sheet ${sheet.dataset.pos}, token ${at && at.dataset.pos}`);
          }
          if (!sheet) seen = null;
        };
        new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
        """
    )
    start_marble(page, options={"startMoney": "200", "takeover": "켜기", "landmark": "켜기"})
    texts: list[str] = []

    def step(p: Any) -> bool:
        acted = marble_step(p)
        if acted:
            texts.append(p.evaluate("document.body.innerText"))
        return acted

    play_until(page, step, result_shown, seconds=180)
    assert len(texts) > 10
    assert [t for t in texts if UNRESOLVED.search(t)] == []
    assert page.evaluate("window.__josa") == []
    assert page.evaluate("window.__sheets") > 0, "no decision sheet in a whole game"
    assert page.evaluate("window.__early") == []


def _staged(page: Any, patch: Callable[[dict[str, Any]], bool | None]) -> None:
    """Every view the server sends this page goes through `patch` first.

    A `patch` that returns False holds that message back: the page stays on the staged view
    while the real game goes on without it.
    """

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        held: dict[str, Any] = {"view": None}  # the server's view, patched as a client does

        def down(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") in ("snapshot", "update"):
                held["view"] = held_view(held["view"], data)
                if isinstance(held["view"], dict):
                    # the page gets the whole view, staged, instead of the server's patch
                    data.pop("patch", None)
                    data["view"] = copy.deepcopy(held["view"])
            if isinstance(data.get("view"), dict) and patch(data["view"]) is False:
                return
            ws.send(json.dumps(data))

        server.on_message(down)
        ws.on_message(lambda m: server.send(m))

    page.route_web_socket(re.compile(r".*/ws/.*"), route)


def _mine(view: dict[str, Any]) -> None:
    view["currentPlayer"] = "p1"


def test_an_unaffordable_choice_is_disabled_and_says_what_is_missing(new_page: Any) -> None:
    page = new_page()

    def decide(view: dict[str, Any]) -> None:
        _mine(view)
        view["phase"] = "decide"
        view["players"]["p1"]["pos"] = 39
        view["players"]["p1"]["cash"] = 28
        view["decision"] = {
            "pos": 39, "canBuy": True, "canBuild": None, "canTakeover": None,
            "boughtThisVisit": False,
        }  # fmt: skip
        view["choices"] = [
            {"type": "BUY", "cost": 40, "cashAfter": -12, "affordable": False},
            {"type": "PASS", "cost": 0, "cashAfter": 28, "affordable": True},
        ]

    _staged(page, decide)
    start_marble(page, options={"turnSeconds": "60"})
    sheet = page.get_by_test_id("decision")
    sheet.wait_for()
    assert "서울을 40만에 살까요?" in sheet.inner_text()
    yes = page.get_by_test_id("decision-yes")
    assert yes.is_disabled()
    assert yes.get_attribute("aria-disabled") == "true"
    assert "12만 부족해요" in sheet.inner_text()
    assert page.get_by_test_id("decision-pass").is_enabled()


def test_space_travel_says_so_and_marks_every_destination(new_page: Any) -> None:
    page = new_page()

    def space(view: dict[str, Any]) -> None:
        _mine(view)
        view["phase"] = "turnStart"
        view["players"]["p1"]["pos"] = 30
        view["players"]["p1"]["spacePending"] = True
        view["owners"]["25"] = {"owner": "p2", "level": 0}
        view["owners"]["36"] = {"owner": "p2", "level": 2}

    _staged(page, space)
    start_marble(page, options={"turnSeconds": "60"})
    page.wait_for_selector("[data-testid=space-timeout]")
    assert "우주여행: 갈 칸을 고르세요" in page.get_by_test_id("turn-line").inner_text()
    assert "굴릴 차례" not in page.get_by_test_id("turn-line").inner_text()
    assert "출발로 이동" in page.get_by_test_id("space-timeout").inner_text()
    assert page.get_by_test_id("roll").count() == 0
    # 39 squares to pick (not the space square itself), each with a mark, not colour alone
    assert page.locator(".tile.selectable").count() == 39
    assert page.locator(".tile.selectable .pick-mark").count() == 39
    assert page.locator("[data-testid=tile-30].selectable").count() == 0
    page.get_by_test_id("tile-36").click()
    preview = page.get_by_test_id("space-preview").inner_text()
    assert "뉴욕으로 갈까요?" in preview and "탑승료 20만" in preview and "통행료" in preview
    assert "(으)로" not in preview
    shot(page, "marble-space")


def test_debt_sheet_lists_what_can_be_sold(new_page: Any) -> None:
    page = new_page()

    def debt(view: dict[str, Any]) -> None:
        _mine(view)
        view["phase"] = "debt"
        view["players"]["p1"]["cash"] = 70
        view["owners"].update({"26": {"owner": "p1", "level": 2}, "5": {"owner": "p1", "level": 0}})
        view["debt"] = {
            "player": "p1", "amount": 100, "to": {"kind": "player", "id": "p2"},
            "reason": "toll", "pos": 39,
        }  # fmt: skip
        view["shortfall"] = 30
        view["saleCandidates"] = [
            {"pos": 26, "what": "top", "amount": 13},
            {"pos": 26, "what": "all", "amount": 32},
            {"pos": 5, "what": "all", "amount": 10},
        ]

    _staged(page, debt)
    start_marble(page, options={"turnSeconds": "60"})
    sheet = page.get_by_test_id("debt")
    sheet.wait_for()
    text = sheet.inner_text()
    assert "30만이 모자라요" in text and "리스본" in text and "+13" in text
    shot(page, "marble-debt")


def test_a_friend_dropping_out_shows_on_their_seat_and_goes_when_back(new_page: Any) -> None:
    host, friend = new_page(), new_page()
    code = create_room(host, "marble", "수진", {"maxRounds": "15", "turnSeconds": "60"})
    join_by_link(friend, code, "민호")
    host.wait_for_selector("[data-testid=seat-p2]")
    host.get_by_test_id("start-game").click()
    friend.wait_for_selector("[data-testid=marble-table]")
    assert host.get_by_test_id("presence-p2").count() == 0
    context = friend.context
    friend.close()
    host.get_by_test_id("presence-p2").filter(has_text="연결 끊김").wait_for(timeout=8_000)
    back = context.new_page()
    back.goto(f"/r/{code}")
    back.wait_for_selector("[data-testid=marble-table]")
    host.get_by_test_id("presence-p2").wait_for(state="detached", timeout=8_000)


def test_host_is_offered_kick_or_keep_for_an_absent_friend(new_page: Any) -> None:
    host, friend = new_page(), new_page()
    code = create_room(host, "marble", "수진", {"maxRounds": "15", "turnSeconds": "15"})
    join_by_link(friend, code, "민호")
    host.wait_for_selector("[data-testid=seat-p2]")
    host.get_by_test_id("start-game").click()
    friend.wait_for_selector("[data-testid=marble-table]")
    friend.close()
    play_until(host, marble_step, lambda p: bool(p.get_by_test_id("afk-offer").count()), 120)
    offer = host.get_by_test_id("afk-offer")
    assert "민호" in offer.inner_text()
    assert host.get_by_test_id("afk-kick-p2").inner_text().strip() == "강퇴"
    assert "계속" in host.get_by_test_id("afk-keep-p2").inner_text()
    host.get_by_test_id("afk-keep-p2").click()
    offer.wait_for(state="detached", timeout=QUICK * 4)
    assert host.locator("[data-testid=pcard-p2] .pout").count() == 0  # still in the game


def test_a_seat_the_clock_plays_for_says_so(new_page: Any) -> None:
    """Needs the server's `seat.away` (true once the timeout rules play for that seat)."""
    host, friend = new_page(), new_page()
    code = create_room(host, "marble", "수진", {"maxRounds": "15", "turnSeconds": "15"})
    join_by_link(friend, code, "민호")
    host.wait_for_selector("[data-testid=seat-p2]")
    host.get_by_test_id("start-game").click()
    friend.wait_for_selector("[data-testid=marble-table]")
    friend.close()
    away = host.get_by_test_id("presence-p2").filter(has_text="자리 비움 · 자동 진행")
    play_until(host, marble_step, lambda _: bool(away.count()), 60)


POPUPS = """
window.__popups = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes)
    if (n.nodeType === 1 && n.matches('.popup')) window.__popups.push(n.textContent);
}).observe(document, { subtree: true, childList: true });
"""


def _finish_by_kicking_the_bot(page: Any, code: str) -> None:
    """The host removes the bot: it concedes and the game ends at once (last survivor)."""
    res = page.request.post(
        f"/api/rooms/{code}/kick",
        data={"playerId": "p2"},
        headers={"Authorization": f"Bearer {seat_token(page, code)}"},
    )
    assert res.ok, res.text()
    page.wait_for_selector("[data-testid=result]")


def _big_popups(page: Any, at_least: int) -> list[str]:
    popups: list[str] = page.evaluate("window.__popups")
    return [p for p in popups if int(re.sub(r"\D", "", p) or 0) >= at_least]


def test_rematch_starts_without_fake_money_popups(new_page: Any) -> None:
    page = new_page()
    page.add_init_script(POPUPS)
    code = start_marble(page, options={"startMoney": "200"})
    _finish_by_kicking_the_bot(page, code)
    page.evaluate("window.__popups = []")
    page.get_by_test_id("rematch").click()
    page.wait_for_selector("[data-testid=result]", state="detached")
    page.wait_for_timeout(1500)
    # the bot went from 0 (conceded) to 200: that is no gain; real early changes are small
    assert _big_popups(page, 150) == []


def test_rematch_with_a_changed_option(new_page: Any) -> None:
    """Needs the server to take the options route on a finished room."""
    page = new_page()
    code = start_marble(page, options={"startMoney": "200"})
    _finish_by_kicking_the_bot(page, code)
    page.get_by_test_id("rematch-options").locator("summary").click()
    page.get_by_test_id("room-opt-startMoney").select_option(label="500")
    errors = page.locator("[data-testid=result] .error-line")
    page.wait_for_function(
        """() => document.querySelector('[data-testid=result] .error-line') ||
          document.querySelector('[data-testid=room-opt-startMoney]').value === '500'"""
    )
    assert errors.count() == 0, errors.inner_text()
    page.get_by_test_id("rematch").click()
    page.wait_for_selector("[data-testid=result]", state="detached")
    room = page.request.get(f"/api/rooms/{code}").json()
    assert (room["match"], room["status"], room["options"]["startMoney"]) == (2, "playing", 500)


def test_tips_leave_and_sheets_close_the_way_a_phone_user_expects(new_page: Any) -> None:
    page = new_page()
    dialogs: list[str] = []

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    start_marble(page)
    # tips: off and back on from the table, and the choice stays after a reload
    page.get_by_test_id("tips-off").click()
    assert page.get_by_test_id("tips").count() == 0
    page.reload()
    page.wait_for_selector("[data-testid=marble-table]")
    assert page.get_by_test_id("tips").count() == 0
    page.get_by_test_id("tips-on").click()
    assert page.get_by_test_id("tips").count() == 1
    # Esc closes an information sheet
    page.get_by_test_id("tile-39").click()
    page.get_by_test_id("tile-info").wait_for()
    page.keyboard.press("Escape")
    page.get_by_test_id("tile-info").wait_for(state="detached")
    page.get_by_test_id("rules-button").click()
    page.get_by_test_id("rules").wait_for()
    assert page.get_by_test_id("rules-pictures").count() == 1
    assert "랜드마크" in page.get_by_test_id("rules-buildings").inner_text()
    # a few facts of the committed balance report (docs/analysis/marble/facts.json)
    assert "출발 순서 1번이 이길 확률" in page.get_by_test_id("rules-facts").inner_text()
    shot(page, "rules-marble")
    page.keyboard.press("Escape")
    page.get_by_test_id("rules").wait_for(state="detached")
    # leaving a game asks in the app, not with the browser's confirm()
    page.get_by_test_id("leave").click()
    page.get_by_test_id("leave-confirm").wait_for()
    shot(page, "leave-confirm")
    page.get_by_test_id("leave-no").click()
    assert page.get_by_test_id("marble-table").count() == 1
    page.get_by_test_id("leave").click()
    page.get_by_test_id("leave-confirm").wait_for()
    page.keyboard.press("Escape")
    page.get_by_test_id("leave-confirm").wait_for(state="detached")
    assert dialogs == []


def test_a_bad_room_code_is_explained_at_the_code_field(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.get_by_test_id("nickname").fill("수진")
    page.get_by_test_id("join-code").fill("ABC")
    page.get_by_test_id("join-player").click()
    error = page.get_by_test_id("code-error")
    assert "6자" in error.inner_text()
    page.get_by_test_id("join-code").fill("ZZZZZ9")
    page.get_by_test_id("join-player").click()
    error.filter(has_text="방을 찾을 수 없어요").wait_for()
    assert page.get_by_test_id("home-error").count() == 0
    # every visible word Korean (room codes and numbers aside)
    # (the open rooms' nicknames are what people typed, not our words)
    page_text = page.evaluate(
        "(() => { const c = document.body.cloneNode(true);"
        " c.querySelectorAll('.room-item .muted').forEach((e) => e.remove());"
        " document.body.append(c); c.hidden = false; const t = c.innerText; c.remove(); return t; })()"
    )
    text = re.sub(r"\b[A-Z0-9]{6}\b", "", page_text)
    assert re.findall(r"[A-Za-z]{2,}", text) == []


def test_a_spectator_needs_no_nickname(new_page: Any) -> None:
    """Needs the server to accept an empty nickname for spectators."""
    host, watcher = new_page(), new_page()
    code = start_marble(host)
    watcher.goto("/")
    watcher.get_by_test_id("nickname").fill("")
    watcher.get_by_test_id("join-code").fill(code)
    watcher.get_by_test_id("join-spectator").click()
    watcher.wait_for_selector("[data-testid=marble-table]")
    assert "관전 중" in watcher.get_by_test_id("marble-table").inner_text()


def test_reduced_motion_keeps_every_animation_under_50ms(browser: Any, server: str) -> None:
    context = browser.new_context(
        viewport=PHONE, locale="ko-KR", base_url=server, reduced_motion="reduce"
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        start_marble(page)
        long: list[str] = []

        def step(p: Any) -> bool:
            long.extend(
                p.evaluate(
                    """() => document.getAnimations()
                      .filter((a) => (a.effect?.getComputedTiming().duration ?? 0) > 50)
                      .map((a) => a.animationName || a.transitionProperty || 'animation')"""
                )
            )
            return marble_step(p)

        play_until(page, step, lambda p: p.locator(".tile.owned").count() >= 2, seconds=60)
        assert long == []
    finally:
        context.close()
