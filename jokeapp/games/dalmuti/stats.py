"""Balance statistics of dalmuti bot games, per round: how each starting title fares,
how often revolutions happen and how many tricks a round takes. The simulator's collector for
dalmuti (``GAME.stats``, see jokeapp.core.contract.GameStats)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from jokeapp.core.options import options_from
from jokeapp.games.dalmuti.options import DalmutiOptions
from jokeapp.games.dalmuti.setup import start_game
from jokeapp.games.dalmuti.state import DalmutiState


class DalmutiStats:
    def __init__(self) -> None:
        self.rounds = 0
        self.tricks = 0
        self.revolutions: Counter[str] = Counter()
        self.place_sum: defaultdict[int, int] = defaultdict(int)
        self.points_sum: defaultdict[int, int] = defaultdict(int)
        self.title_rounds: Counter[int] = Counter()

    def add(self, record: Mapping[str, Any], state: DalmutiState) -> None:
        options = options_from(DalmutiOptions, record["options"])
        first, _ = start_game(options, record["players"], int(record["seed"]))
        order = list(first.order)  # the first round's titles, drawn at setup
        for step in record["steps"]:
            for event in step["events"]:
                kind = event["type"]
                if kind == "revolution":
                    self.revolutions[event["kind"]] += 1
                    if event["kind"] == "great":
                        order.reverse()
                elif kind == "trickWon":
                    self.tricks += 1
                elif kind == "roundOver":
                    self._round_over(order, event)
                    order = list(event["order"])

    def merge(self, other: DalmutiStats) -> None:
        """Adds the rounds of ``other`` (another batch of the same run) to these."""
        self.rounds += other.rounds
        self.tricks += other.tricks
        self.revolutions.update(other.revolutions)
        for title, value in other.place_sum.items():
            self.place_sum[title] += value
        for title, value in other.points_sum.items():
            self.points_sum[title] += value
        self.title_rounds.update(other.title_rounds)

    def _round_over(self, start_order: list[str], event: dict[str, Any]) -> None:
        self.rounds += 1
        self.tricks += 1  # the round's last trick ends with the round, not with trickWon
        finish: list[str] = event["order"]
        points: dict[str, int] = event["points"]
        for title, player in enumerate(start_order):
            self.title_rounds[title] += 1
            self.place_sum[title] += finish.index(player) + 1
            self.points_sum[title] += points[player]

    def lines(self) -> list[str]:
        n = max(self.rounds, 1)
        rows = ["by starting title (1 = first rank) over rounds: mean finishing place, mean points"]
        for title in sorted(self.title_rounds):
            count = self.title_rounds[title]
            rows.append(
                f"  title {title + 1}: place {self.place_sum[title] / count:.2f}, "
                f"points {self.points_sum[title] / count:.2f}"
            )
        revs = ", ".join(f"{k}: {v}" for k, v in sorted(self.revolutions.items())) or "none"
        rows.append(f"revolutions: {sum(self.revolutions.values()) / n:.3f} a round ({revs})")
        rows.append(f"mean tricks per round: {self.tricks / n:.1f} over {self.rounds} rounds")
        return rows
