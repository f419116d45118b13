"""Balance statistics of marble bot games: wins by seat, end reasons, rounds, bankruptcies.

The simulator's collector for marble (``GAME.stats``, see jokeapp.core.contract.GameStats).
Only finished games count; a game cut off at the simulator's step cap has no result (the
simulator reports how many were cut off).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from jokeapp.games.marble.state import MarbleState


class MarbleStats:
    def __init__(self) -> None:
        self.games = 0
        self.wins_by_seat: Counter[int] = Counter()
        self.reasons: Counter[str] = Counter()
        self.rounds = 0
        self.bankruptcies = 0
        self.seats = 0

    def add(self, record: Mapping[str, Any], state: MarbleState) -> None:
        self.seats = len(record["players"])
        if "cutOff" in record:
            return
        order = state.order
        result = record["result"]
        self.games += 1
        for winner in result["winners"]:
            self.wins_by_seat[order.index(winner) + 1] += 1
        self.reasons[result["reason"]] += 1
        self.rounds += state.round
        self.bankruptcies += sum(
            1 for step in record["steps"] for e in step["events"] if e["type"] == "bankrupt"
        )

    def merge(self, other: MarbleStats) -> None:
        """Adds the games of ``other`` (another batch of the same run) to these."""
        self.games += other.games
        self.wins_by_seat.update(other.wins_by_seat)
        self.reasons.update(other.reasons)
        self.rounds += other.rounds
        self.bankruptcies += other.bankruptcies
        self.seats = other.seats or self.seats

    def lines(self) -> list[str]:
        n = max(self.games, 1)
        seats = ", ".join(f"seat {s}: {self.wins_by_seat[s]}" for s in range(1, self.seats + 1))
        reasons = ", ".join(f"{r}: {c}" for r, c in sorted(self.reasons.items()))
        return [
            f"wins by seat (turn order; shared wins count for each): {seats}",
            f"end reasons (finished games): {reasons}",
            f"mean rounds: {self.rounds / n:.1f}",
            f"bankruptcies: {self.bankruptcies} ({self.bankruptcies / n:.2f} a game)",
        ]
