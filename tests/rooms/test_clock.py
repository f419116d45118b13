"""The real clock puts room timers in slots: every timer due in one slot fires at its end, in
one wake-up of the event loop; none fires early, none more than a slot late."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from jokeapp.rooms.clock import TIMER_SLOT, RealClock, slot_end


@pytest.mark.parametrize("due", [0.0, 1.0, 1.004, 1.0100001, 12_345.678, 1_764_547_200.123])
def test_a_timer_s_slot_ends_at_or_after_its_due_time_within_a_slot(due: float) -> None:
    end = slot_end(due)
    assert due - 1e-9 <= end < due + TIMER_SLOT + 1e-9
    assert slot_end(end) == pytest.approx(end)  # a slot's end is its own slot's end


class _Loop:
    """What RealClock asks of the running loop, with a time that only moves when told."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.at: list[float] = []
        self.soon = 0

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[[], None]) -> Any:
        self.at.append(when)
        return None

    def call_soon(self, callback: Callable[[], None]) -> Any:
        self.soon += 1
        return None


def test_timers_of_different_rooms_due_in_one_slot_fire_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = _Loop(now=100.0)
    monkeypatch.setattr(asyncio, "get_running_loop", lambda: loop)
    real = RealClock()
    real.call_later(1.001, lambda: None)  # three bots' moves due within one slot
    loop.now = 100.003
    real.call_later(1.0, lambda: None)
    loop.now = 100.008
    real.call_later(1.0, lambda: None)
    real.call_later(1.5, lambda: None)  # a later one: a slot of its own
    real.call_later(0.0, lambda: None)  # due now: at once, no slot
    first, second, third, later = loop.at
    assert first == second == third == pytest.approx(101.01)
    assert later == pytest.approx(101.51)
    assert loop.soon == 1
