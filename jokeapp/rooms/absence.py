"""The absence counters of a match's seats (spec 8.5), kept so that a restart keeps them.

Per player: timeouts in a row (for a shortened deadline), rounds in a row whose turns the
timeout rule started for them while absent, the last such round, and an open 강퇴/계속 offer.
The game's policy (``Game.absence``) says what the counts lead to; this book only counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jokeapp.store.api import AbsenceRow


def _counts(row: AbsenceRow) -> tuple[int, int, int | None, int | None]:
    return (row.timeouts_in_row, row.absent_rounds, row.last_absent_round, row.offer)


_NONE_YET = _counts(AbsenceRow("", 0, ""))  # a row never stored: AbsenceRow's defaults


@dataclass
class Absences:
    room_id: str
    timeouts_in_row: dict[str, int] = field(default_factory=dict)
    rounds: dict[str, int] = field(default_factory=dict)  # absent rounds in a row
    last_round: dict[str, int] = field(default_factory=dict)  # the last one counted
    offers: dict[str, int] = field(default_factory=dict)  # open 강퇴/계속 offers: rounds
    _saved: dict[str, AbsenceRow] = field(default_factory=dict)

    def acted_themselves(self, player: str) -> None:
        self.timeouts_in_row[player] = 0
        self.rounds.pop(player, None)
        self.last_round.pop(player, None)

    def timed_out(self, player: str) -> None:
        self.timeouts_in_row[player] = self.timeouts_in_row.get(player, 0) + 1

    def came_back(self, player: str) -> None:
        """Back at the table: an open offer is withdrawn and the count starts over."""
        self.offers.pop(player, None)
        self.rounds.pop(player, None)
        self.last_round.pop(player, None)

    def kept(self, player: str) -> None:
        """The host answered 계속: the offer closes, the count starts again from the next round."""
        del self.offers[player]
        self.rounds.pop(player, None)

    def withdraw_offer(self, player: str) -> None:
        self.offers.pop(player, None)

    def clear_offers(self) -> None:
        self.offers.clear()

    def count_round(self, player: str, round_now: int | None, limit: int) -> bool:
        """The timeout rule started an absent player's turn in ``round_now``; a round counts
        once (None: every turn counts). True when this opens an offer to the host."""
        if round_now is None or self.last_round.get(player) != round_now:
            self.rounds[player] = self.rounds.get(player, 0) + 1
        if round_now is not None:
            self.last_round[player] = round_now
        if self.rounds[player] >= limit and player not in self.offers:
            self.offers[player] = self.rounds[player]
            return True
        return False

    def reset(self) -> None:
        """A new match: every counter starts from zero (nothing is stored for it yet)."""
        self.timeouts_in_row.clear()
        self.rounds.clear()
        self.last_round.clear()
        self.offers.clear()
        self._saved.clear()

    def row(self, match: int, player: str) -> AbsenceRow:
        return AbsenceRow(
            self.room_id,
            match,
            player,
            self.timeouts_in_row.get(player, 0),
            self.rounds.get(player, 0),
            self.last_round.get(player),
            self.offers.get(player),
        )

    def unsaved(self, match: int, player: str) -> AbsenceRow | None:
        """The player's row if it differs from the stored one (most own actions: None)."""
        counts = (
            self.timeouts_in_row.get(player, 0),
            self.rounds.get(player, 0),
            self.last_round.get(player),
            self.offers.get(player),
        )
        saved = self._saved.get(player)
        if saved is None:
            if counts == _NONE_YET:  # as a row never stored: nothing to store
                return None
        elif saved.match == match and counts == _counts(saved):
            return None  # on every action of a seat that plays itself: no row built
        return AbsenceRow(self.room_id, match, player, *counts)

    def saved(self, row: AbsenceRow) -> None:
        self._saved[row.player_id] = row

    def load(self, rows: list[AbsenceRow]) -> None:
        for row in rows:
            self.timeouts_in_row[row.player_id] = row.timeouts_in_row
            if row.absent_rounds:
                self.rounds[row.player_id] = row.absent_rounds
            if row.last_absent_round is not None:
                self.last_round[row.player_id] = row.last_absent_round
            if row.offer is not None:
                self.offers[row.player_id] = row.offer
            self._saved[row.player_id] = row
