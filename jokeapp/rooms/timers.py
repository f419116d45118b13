"""The room's timers: the one deadline timer, the end of the next grace, and each bot's move.

Each fires by posting a command to the room's queue, so its effect is handled in order.

Nearly every step moves the next deadline later (the next decision gets its whole budget), so
the deadline timer is not cancelled and made again at each one: while it is due no later than
the deadline, it stays, and when it fires before the deadline it is armed again for the rest
(the room learns nothing: no command is posted). A deadline that comes earlier than the armed
timer (a disconnected seat's grace, a shortened deadline) replaces it. So a timer never fires
early, and at a human pace a room makes one timer per turn budget instead of one per step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.clock import Clock, Timer


class Timers:
    def __init__(self, clock: Clock, post: Callable[[cmd.Command], None], bot_delay: float) -> None:
        self.clock = clock
        self.bot_delay = bot_delay  # seconds a bot "thinks" after its decision starts
        self._post = post
        self._deadline: Timer | None = None
        self._deadline_fires = 0.0  # when the armed deadline timer is due (wall time)
        self._deadline_at: float | None = None  # the deadline the room waits for now
        self._away: Timer | None = None
        self._bots: dict[str, Timer] = {}

    def arm(
        self, deadline: float | None, grace_end: float | None, bot_starts: Mapping[str, float]
    ) -> None:
        """Re-arms all timers: the next deadline, the next end of a grace, and a move for each
        bot with an open decision (from when its decision starts)."""
        now = self.clock.now()
        self._deadline_at = deadline
        if deadline is None:
            self._cancel_deadline()
        elif self._deadline is None or self._deadline_fires > deadline:
            self._cancel_deadline()
            self._arm_deadline(deadline, now)
        # else: the armed timer fires first, and then is armed again for the rest
        self._cancel_away()
        if grace_end is not None:
            self._away = self.clock.call_later(
                max(0.0, grace_end - now), lambda: self._post(cmd.AwayCheck())
            )
        if not bot_starts and not self._bots:
            return  # a room of people: no bot's move to arm or cancel
        for player in list(self._bots):
            if player not in bot_starts:
                self._bots.pop(player).cancel()
        for player in set(bot_starts) - set(self._bots):
            # a bot sits through the presentation pause too, then "thinks" for bot_delay
            delay = max(0.0, bot_starts[player] - now) + self.bot_delay
            self._bots[player] = self.clock.call_later(
                delay,
                lambda p=player: self._post(cmd.BotMove(p)),  # type: ignore[misc]
            )

    def _arm_deadline(self, deadline: float, now: float) -> None:
        self._deadline_fires = deadline
        self._deadline = self.clock.call_later(deadline - now, self._deadline_due)

    def _deadline_due(self) -> None:
        self._deadline = None
        deadline = self._deadline_at
        if deadline is None:
            return
        now = self.clock.now()
        if deadline > now:  # the deadline moved later since this timer was armed
            self._arm_deadline(deadline, now)
        else:
            self._post(cmd.Timeout())

    def away_checked(self) -> None:
        self._away = None

    def bot_done(self, player: str) -> None:
        self._bots.pop(player, None)

    def cancel(self) -> None:
        self._deadline_at = None
        self._cancel_deadline()
        self._cancel_away()
        for timer in self._bots.values():
            timer.cancel()
        self._bots.clear()

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _cancel_away(self) -> None:
        if self._away is not None:
            self._away.cancel()
            self._away = None
