"""Total assets, ranking and the MarbleResult (spec 6 and 8.6).

The result is always computed from the finished state, never stored: a state written by
hand in the spec's shape gets the same result as one the engine played to its end.
"""

from __future__ import annotations

from typing import Any

from jokeapp.games.marble.data import INVESTED
from jokeapp.games.marble.monopoly import monopoly_kind
from jokeapp.games.marble.state import FINISHED, MarbleState

MONOPOLY_NAMES = {"triple": "트리플 독점", "line": "라인 독점", "tour": "관광지 독점"}


def total_assets(state: MarbleState, player: str) -> int:
    """Cash plus every owned land at its full price and its buildings at their full cost."""
    return assets_by_player(state)[player]


def assets_by_player(state: MarbleState) -> dict[str, int]:
    """Every player's ``total_assets``, in one pass over the deeds."""
    totals = {player: piece.cash for player, piece in state.players.items()}
    for pos, deed in state.owners.items():
        totals[deed.owner] += INVESTED[pos][deed.level]
    return totals


def _entry(
    state: MarbleState, player: str, rank: int, assets: dict[str, int], lands: dict[str, int]
) -> dict[str, Any]:
    piece = state.players[player]
    return {
        "rank": rank,
        "player": player,
        "totalAssets": assets[player],
        "cash": piece.cash,
        "lands": lands[player],
        "bankruptAtRound": piece.bankrupt_at_round,
    }


def _ranked(state: MarbleState, first: str | None) -> list[dict[str, Any]]:
    """Competition ranking (1, 1, 3): the monopolist first, then survivors by assets then cash,
    then the bankrupt, the last one out highest."""
    assets = assets_by_player(state)
    lands = dict.fromkeys(state.players, 0)
    for deed in state.owners.values():
        lands[deed.owner] += 1
    ranking: list[dict[str, Any]] = []
    if first is not None:
        ranking.append(_entry(state, first, 1, assets, lands))
    survivors = [p for p in state.order if state.players[p].alive and p != first]
    keyed = sorted(survivors, key=lambda p: (-assets[p], -state.players[p].cash))
    previous: tuple[int, int] | None = None
    rank = 0
    for p in keyed:
        key = (assets[p], state.players[p].cash)
        if key != previous:
            rank = len(ranking) + 1
            previous = key
        ranking.append(_entry(state, p, rank, assets, lands))
    for p in reversed(state.eliminated):
        ranking.append(_entry(state, p, len(ranking) + 1, assets, lands))
    return ranking


def _summary(
    state: MarbleState, reason: str, winners: list[str], kind: str | None, assets: int
) -> str:
    names = ", ".join(winners)
    if reason == "monopoly" and kind is not None:
        return f"{MONOPOLY_NAMES[kind]} 달성! {names} 승리"
    if reason == "lastSurvivor":
        return f"모두 파산하고 {names}만 남았어요! {names} 승리"
    prefix = f"{state.round}라운드 종료!"
    if len(winners) > 1:
        return f"{prefix} {names} 총자산 {assets}만으로 공동 승리"
    return f"{prefix} {names} 총자산 {assets}만으로 승리"


def monopolist(state: MarbleState) -> tuple[str, str] | None:
    """Who won by a monopoly, and which: with ``monopolyWin`` a monopoly ends the game the
    moment it forms, so any survivor holding one is the winner. Forming one is always the
    current player's doing (buy, takeover, their trade), so they are asked first."""
    if not state.options.monopoly_win:
        return None
    order = state.order
    start = state.current
    for player in order[start:] + order[:start]:
        if state.players[player].alive and (kind := monopoly_kind(state, player)) is not None:
            return player, kind
    return None


def game_result(state: MarbleState) -> dict[str, Any] | None:
    """Spec 6 for a finished state (None before the end): monopoly, else the last survivor,
    else the round limit."""
    if state.phase != FINISHED:
        return None
    monopoly = monopolist(state)
    if monopoly is not None:
        reason, first, kind = "monopoly", monopoly[0], monopoly[1]
    elif state.alive_count() == 1:
        reason, kind = "lastSurvivor", None
        first = next(p for p in state.order if state.players[p].alive)
    else:
        reason, first, kind = "roundLimit", None, None
    ranking = _ranked(state, first)
    winners = [e["player"] for e in ranking if e["rank"] == 1]
    result: dict[str, Any] = {"reason": reason}
    if kind is not None:
        result["monopolyType"] = kind
    result["ranking"] = ranking
    result["winners"] = winners
    result["summary"] = _summary(state, reason, winners, kind, ranking[0]["totalAssets"])
    return result
