"""The simulator's statistics: the game's own collector (``GAME.stats``), else results alone.

A game names its collector in its own package (jokeapp.core.contract.GameStats), so adding a
game touches no file here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from jokeapp.core.contract import Game, GameStats


class ResultStats:
    """What any game's records tell: how many finished, and who won (``result.winners``)."""

    def __init__(self) -> None:
        self.games = 0
        self.wins: Counter[str] = Counter()

    def add(self, record: Mapping[str, Any], state: Any) -> None:
        result = record.get("result")
        if "cutOff" in record or result is None:
            return
        self.games += 1
        self.wins.update(result.get("winners", []))

    def merge(self, other: ResultStats) -> None:
        self.games += other.games
        self.wins.update(other.wins)

    def lines(self) -> list[str]:
        wins = ", ".join(f"{player}: {count}" for player, count in sorted(self.wins.items()))
        return [f"finished games: {self.games}", f"wins by player: {wins or 'none'}"]


def stats_for(game: Game[Any]) -> GameStats:
    """A new, empty collector for ``game``'s balance statistics."""
    factory = getattr(game, "stats", None)
    collector: GameStats = ResultStats() if factory is None else factory()
    return collector
