"""Two people at one table, a spectator, a reload, a rejected action, rules and replay."""

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
    cash_texts,
    create_room,
    dalmuti_step,
    join_by_link,
    marble_step,
    play_until,
    result_shown,
)

pytestmark = pytest.mark.browser


def _round(page: Any) -> int:
    match = re.match(r"(\d+)", page.get_by_test_id("round").inner_text())
    return int(match.group(1)) if match else 0


def test_two_browsers_play_marble_against_each_other(new_page: Any) -> None:
    host, guest = new_page(), new_page()
    code = create_room(host, "marble", "수진", {"maxRounds": "15", "startMoney": "200"})
    join_by_link(guest, code, "민호")
    host.wait_for_selector("[data-testid=seat-p2]")
    assert "민호" in host.get_by_test_id("seat-p2").inner_text()
    host.get_by_test_id("start-game").click()
    guest.wait_for_selector("[data-testid=marble-table]")

    def both(_: Any) -> bool:
        return marble_step(host) | marble_step(guest)

    play_until(host, both, lambda p: _round(p) >= 3, seconds=90)
    # both people see the same table once the room is quiet
    host.wait_for_timeout(600)
    assert "(나)" in host.get_by_test_id("pcard-p1").inner_text()
    assert "(나)" in guest.get_by_test_id("pcard-p2").inner_text()
    assert cash_texts(host) == cash_texts(guest)
    shot(guest, "marble-two-players")


def test_spectator_sees_the_table_but_no_hand(new_page: Any) -> None:
    host, watcher = new_page(), new_page()
    code = create_room(host, "dalmuti", "지수", {"rounds": "1", "turnSeconds": "15"})
    add_bots(host, 3)
    host.get_by_test_id("start-game").click()
    host.wait_for_selector("[data-testid=dalmuti-table]")
    join_by_link(watcher, code, "구경꾼", role="spectator")
    watcher.wait_for_selector("[data-testid=dalmuti-table]")
    assert watcher.get_by_test_id("spectating").count() == 1
    assert watcher.get_by_test_id("hand").count() == 0
    assert watcher.locator("[data-testid^=count-]").count() == 4
    assert host.get_by_test_id("hand").count() == 1
    shot(watcher, "dalmuti-spectator")


def test_reload_mid_game_returns_to_the_same_seat(new_page: Any) -> None:
    page = new_page()
    create_room(page, "marble", "수진", {"maxRounds": "15", "startMoney": "200"})
    add_bots(page, 1)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=marble-table]")
    play_until(page, marble_step, lambda p: _round(p) >= 2, seconds=60)
    url = page.url
    page.reload()
    page.wait_for_selector("[data-testid=marble-table]")
    assert page.url == url
    assert "(나)" in page.get_by_test_id("pcard-p1").inner_text()
    assert "수진" in page.get_by_test_id("pcard-p1").inner_text()
    # still playing from that seat after the reload
    play_until(page, marble_step, lambda p: _round(p) >= 3, seconds=60)


def test_a_rejected_action_shows_its_message(new_page: Any) -> None:
    """Following with the wrong number of cards: the server's Korean reason is shown. The card
    table no longer lets anyone build such a play, so the test drops one card from the play on
    its way to the server."""
    page = new_page()
    armed = {"on": False}

    def tamper(text: str | bytes) -> str | bytes:
        if not armed["on"] or not isinstance(text, str) or '"play"' not in text:
            return text
        msg = json.loads(text)
        if len(msg.get("action", {}).get("cardIds", [])) < 2:
            return text
        armed["on"] = False
        msg["action"]["cardIds"] = msg["action"]["cardIds"][:-1]
        return json.dumps(msg)

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda text: server.send(tamper(text)))

    page.route_web_socket(re.compile(r"/ws/"), route)
    create_room(page, "dalmuti", "지수", {"turnSeconds": "15"})  # 3 rounds: more chances
    add_bots(page, 3)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=dalmuti-table]")

    def try_wrong_count(p: Any) -> bool:
        following = False
        with contextlib.suppress(Exception):
            following = p.get_by_test_id("controls").count() > 0 and p.get_by_test_id(
                "pass"
            ).is_enabled(timeout=QUICK)
        standard = p.get_by_test_id("standard").inner_text() if following else ""
        armed["on"] = following and bool(re.search(r"× ([2-9]|1\d)장", standard))
        return dalmuti_step(p)

    play_until(
        page,
        try_wrong_count,
        lambda p: bool(p.get_by_test_id("rejection").count()) or result_shown(p),
        seconds=120,
    )
    assert page.get_by_test_id("rejection").count() == 1, "no chance to play a wrong count"
    message = page.get_by_test_id("rejection").inner_text()
    assert "장수" in message
    shot(page, "rejected-action")


def test_rules_sheet_for_each_game(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.get_by_test_id("game-dalmuti").click()
    page.get_by_test_id("rules-button").click()
    text = page.get_by_test_id("rules").inner_text()
    assert "광대" in text and "대왕" in text
    for banned in ("달무티", "부루마불", "모두의마블", "황금열쇠", "Monopoly"):
        assert banned not in text
    shot(page, "rules-dalmuti")


def test_trade_proposal_gets_an_answer(new_page: Any) -> None:
    page = new_page()
    create_room(page, "marble", "수진", {"trade": "켜기", "maxRounds": "15"})
    add_bots(page, 1)
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=marble-table]")

    def propose(p: Any) -> bool:
        if p.get_by_test_id("open-trade").count():
            opened = False
            with contextlib.suppress(Exception):  # my moment to trade may pass meanwhile
                p.get_by_test_id("open-trade").click(timeout=QUICK)
                opened = True
            if not opened:
                return False  # the next turn of mine offers it again
            p.get_by_test_id("trade-give-cash").fill("5")
            shot(p, "marble-trade")
            p.get_by_test_id("trade-send").click()
            return True
        return marble_step(p)

    def answered(p: Any) -> bool:
        feed = p.get_by_test_id("feed").inner_text()
        return "교환 성사" in feed or "교환 거절" in feed

    play_until(page, propose, answered, seconds=60)
    assert "교환 제안" in page.get_by_test_id("feed").inner_text()


def test_the_socket_sends_its_token_first_and_never_in_the_url(new_page: Any) -> None:
    page = new_page()
    sockets: list[dict[str, Any]] = []

    def opened(ws: Any) -> None:
        entry: dict[str, Any] = {"url": ws.url, "sent": []}
        sockets.append(entry)
        ws.on("framesent", lambda payload: entry["sent"].append(payload))

    page.on("websocket", opened)
    code = create_room(page, "marble", "수진")
    page.wait_for_selector("[data-testid=seat-p1]")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('joke.seat.{code}')).token")
    page.reload()  # a reconnect authenticates the same way
    page.wait_for_selector("[data-testid=seat-p1]")
    assert len(sockets) >= 2
    for entry in sockets:
        assert token not in entry["url"] and "token" not in entry["url"]
        assert entry["sent"], "the socket sent nothing"
        assert json.loads(entry["sent"][0]) == {"type": "auth", "token": token}
