"""When the server acts for a player: the game's time budgets plus its absence policy.

The game declares its policy (``Game.absence``, core.contract.AbsencePolicy: a grace after a
disconnect, a shortened deadline after repeated timeouts); this book applies it to the open
decisions without knowing which game it is.

A decision may start a little after the step that opened it: the game's presentation pause
(an animation, a round-end screen) is added to its start, so the pending deadline sent to
clients already includes it and nobody's time runs while they watch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from jokeapp.core.contract import AbsencePolicy, Pending
from jokeapp.rooms.absence import Absences
from jokeapp.rooms.members import Seat


@dataclass(slots=True)
class Decision:
    player: str
    kind: str
    seconds: int | None
    since: float


@dataclass
class DeadlineBook:
    """The open decisions of a match and when each one began."""

    policy: AbsencePolicy
    absences: Absences  # read only: the timeouts in a row that shorten a deadline
    decisions: list[Decision] = field(default_factory=list)

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

    def deadline(self, decision: Decision, seat: Seat | None) -> float | None:
        policy = self.policy
        seconds: float | None = decision.seconds
        if (
            policy.short_after is not None
            and self.absences.timeouts_in_row.get(decision.player, 0) >= policy.short_after
        ):
            seconds = (
                policy.short_seconds if seconds is None else min(seconds, policy.short_seconds)
            )
        due = None if seconds is None else decision.since + seconds
        if seat is None or seat.bot:
            return due
        if seat.gone:
            return decision.since  # nobody will come back: act at once
        if policy.grace is not None and not seat.connected and seat.disconnected_at is not None:
            grace_end = seat.disconnected_at + policy.grace
            # never before the decision starts: the others still watch the pause
            return max(decision.since, grace_end if due is None else min(due, grace_end))
        return due

    def deadlines(self, seats: Mapping[str, Seat]) -> list[float | None]:
        """Every open decision's deadline, in the order of ``decisions``: worked out once per
        update, for the pending deadlines it sends and the timer armed after it
        (``messages.pending_info`` and ``Room.schedule`` take this list)."""
        deadline = self.deadline
        return [deadline(d, seats.get(d.player)) for d in self.decisions]

    def due(self, seats: Mapping[str, Seat], now: float) -> Decision | None:
        """The first open decision whose deadline has passed."""
        for decision in self.decisions:
            when = self.deadline(decision, seats.get(decision.player))
            if when is not None and when <= now:
                return decision
        return None

    def next_deadline(self, seats: Mapping[str, Seat]) -> float | None:
        return earliest(self.deadlines(seats))


def earliest(deadlines: Sequence[float | None]) -> float | None:
    """The first of ``deadlines`` (None: no decision has one)."""
    known = [t for t in deadlines if t is not None]
    return min(known) if known else None
