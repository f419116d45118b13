"""The fixed tables of spec section 3 as the client shows them (``joke tables``): the board,
prices, tolls, building costs, investments and lucky cards, all taken from data.py, so the
client copies no number and no factor."""

from __future__ import annotations

from typing import Any

from jokeapp.games.marble import data as d


def _tile(tile: d.Tile) -> dict[str, Any]:
    out: dict[str, Any] = {"pos": tile.pos, "name": tile.name, "kind": tile.kind}
    if tile.group is not None:
        out["group"] = tile.group
    if tile.pos in d.LAND_PRICE:
        out["price"] = d.LAND_PRICE[tile.pos]
    return out


def display_tables() -> dict[str, Any]:
    return {
        "board": [_tile(tile) for tile in d.BOARD],
        "levelNames": list(d.LEVEL_NAMES),
        # by board index (as text, the JSON key); index = level 0..4
        "buildCosts": {str(p): list(d.BUILD_COST[p][1:]) for p in d.CITIES},  # levels 1..4
        "cityTolls": {str(p): list(d.CITY_TOLL[p]) for p in d.CITIES},
        "invested": {str(p): list(d.INVESTED[p]) for p in sorted(d.LANDS)},
        # a tourist spot's toll: index 0 with one spot owned, index 1 with two or more (3.3)
        "tourTolls": {str(p): [d.TOUR_TOLL[p], 2 * d.TOUR_TOLL[p]] for p in d.TOURS},
        "positions": {
            "start": d.START_POS,
            "island": d.ISLAND_POS,
            "fundReceive": d.FUND_RECEIVE_POS,
            "spaceport": d.SPACEPORT_POS,
            "space": d.SPACE_POS,
            "fundPay": d.FUND_PAY_POS,
        },
        "spaceFee": d.SPACE_FEE,
        "fundPayment": d.FUND_PAYMENT,
        "cards": [{"id": c.id, "name": c.name, "text": c.text} for c in d.CARDS],
    }
