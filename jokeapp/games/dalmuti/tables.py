"""The fixed tables of spec section 3 as the client shows them (``joke tables``): card names
and the title of each place for every number of players, taken from data.py."""

from __future__ import annotations

from typing import Any

from jokeapp.games.dalmuti import data as d


def display_tables(min_players: int, max_players: int) -> dict[str, Any]:
    return {
        "cardNames": {str(n): name for n, name in d.CARD_NAMES.items()},
        "jester": d.JESTER,
        # the title of each place (0 = first) for each player count
        "titles": {
            str(count): [d.rank_title(place, count) for place in range(count)]
            for count in range(min_players, max_players + 1)
        },
    }
