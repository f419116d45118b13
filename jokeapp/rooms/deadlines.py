"""When the server acts for a player: the game's time budgets plus the absence rules.

Both specs' section 8.5: marble gives a disconnected player 5 s of grace, then the timeout
rules act for them at once, and offers the host 강퇴/계속 after two absent rounds; dalmuti
never removes anyone and shortens a player's deadline to 5 s after three timeouts in a row.

A decision may start a little after the step that opened it: the game's presentation pause
(an animation, a round-end screen) is added to its start, so the pending deadline sent to
clients already includes it and nobody's time runs while they watch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jokeapp.core.contract import Pending
from jokeapp.rooms.members import Seat


@dataclass(frozen=True, slots=True)
class AbsenceRules:
    grace: float | None = None  # seconds a disconnected player keeps their own clock
    short_after: int | None = None  # timeouts in a row before the deadline shrinks
    short_seconds: float = 5.0
    afk_rounds: int | None = None  # rounds in a row of absence before the host is asked
    afk_kind: str = "turnStart"  # the pending kind that starts a player's turn
    concede: Mapping[str, Any] | None = None  # the action a kick becomes mid-match


MARBLE_RULES = AbsenceRules(grace=5.0, afk_rounds=2, concede={"type": "CONCEDE"})
DALMUTI_RULES = AbsenceRules(short_after=3, short_seconds=5.0)
RULES_BY_GAME = {"marble": MARBLE_RULES, "dalmuti": DALMUTI_RULES}


def rules_for(game_id: str) -> AbsenceRules:
    return RULES_BY_GAME.get(game_id, DALMUTI_RULES)


@dataclass(slots=True)
class Decision:
    player: str
    kind: str
    seconds: int | None
    since: float


@dataclass
class DeadlineBook:
    """The open decisions of a match and when each one began."""

    rules: AbsenceRules
    decisions: list[Decision] = field(default_factory=list)
    timeouts_in_row: dict[str, int] = field(default_factory=dict)

    def refresh(
        self, pending: Sequence[Pending], actor: str | None, now: float, pause: float = 0.0
    ) -> None:
        """A decision still open keeps its start unless its own player just acted; a new one
        starts ``pause`` seconds from now (the game's presentation pause of this step)."""
        before = {(d.player, d.kind): d for d in self.decisions}
        fresh: list[Decision] = []
        for p in pending:
            old = before.get((p.player, p.kind))
            keep = old is not None and p.player != actor
            since = old.since if keep and old is not None else now + pause
            fresh.append(Decision(p.player, p.kind, p.seconds, since))
        self.decisions = fresh

    def clear(self) -> None:
        self.decisions = []

    def acted_themselves(self, player: str) -> None:
        self.timeouts_in_row[player] = 0

    def timed_out(self, player: str) -> None:
        self.timeouts_in_row[player] = self.timeouts_in_row.get(player, 0) + 1

    def deadline(self, decision: Decision, seat: Seat | None) -> float | None:
        rules = self.rules
        seconds: float | None = decision.seconds
        if (
            rules.short_after is not None
            and self.timeouts_in_row.get(decision.player, 0) >= rules.short_after
        ):
            seconds = rules.short_seconds if seconds is None else min(seconds, rules.short_seconds)
        due = None if seconds is None else decision.since + seconds
        if seat is None or seat.bot:
            return due
        if seat.gone:
            return decision.since  # nobody will come back: act at once
        if rules.grace is not None and not seat.connected and seat.disconnected_at is not None:
            grace_end = seat.disconnected_at + rules.grace
            # never before the decision starts: the others still watch the pause
            return max(decision.since, grace_end if due is None else min(due, grace_end))
        return due

    def due(self, seats: Mapping[str, Seat], now: float) -> Decision | None:
        """The first open decision whose deadline has passed."""
        for decision in self.decisions:
            when = self.deadline(decision, seats.get(decision.player))
            if when is not None and when <= now:
                return decision
        return None

    def next_deadline(self, seats: Mapping[str, Seat]) -> float | None:
        times = [self.deadline(d, seats.get(d.player)) for d in self.decisions]
        known = [t for t in times if t is not None]
        return min(known) if known else None
