"""The end of a round (spec 5.2, 6, 8.6): next ranks, points, and the game's result."""

from __future__ import annotations

from typing import Any

from jokeapp.core.contract import Event
from jokeapp.games.dalmuti.data import GREAT_DALMUTI
from jokeapp.games.dalmuti.setup import start_round
from jokeapp.games.dalmuti.state import DalmutiState, Finished, RoundOver, RoundResult


def rank_points(order: list[str]) -> dict[str, int]:
    """Place r of N earns N - r points."""
    seats = len(order)
    return {player: seats - 1 - place for place, player in enumerate(order)}


def finish_round(state: DalmutiState) -> list[Event]:
    """Scores the round; deals the next one, or ends the game after the last."""
    last = next(player for player in state.order if state.hands[player])
    final = [*state.finish_order, last]
    points = rank_points(final)
    for player, gained in points.items():
        state.totals[player] += gained
    state.round_results.append(RoundResult(order=final, revolution=state.revolution))
    state.phase = RoundOver()
    events: list[Event] = [
        {"type": "roundOver", "round": state.round, "order": list(final), "points": points}
    ]
    if state.round >= state.options.rounds:
        state.phase = Finished()
        events.append({"type": "gameOver", "result": game_result(state)})
        return events
    state.round += 1
    state.order = list(final)  # a copy: a great revolution turns this round's order, not the record
    events.extend(start_round(state))
    return events


def round_totals(players: list[str], results: list[RoundResult]) -> dict[str, int]:
    """Each player's rank points summed over the given rounds (spec 6)."""
    totals = dict.fromkeys(players, 0)
    for result in results:
        for player, gained in rank_points(result.order).items():
            totals[player] += gained
    return totals


def round_ranks(state: DalmutiState) -> dict[str, list[int]]:
    ranks: dict[str, list[int]] = {player: [] for player in state.players}
    for result in state.round_results:
        for place, player in enumerate(result.order):
            ranks[player].append(place + 1)
    return ranks


def final_ranking(state: DalmutiState, totals: dict[str, int]) -> list[str]:
    """rank-points: most points first, ties to the better last round; last-round: that round."""
    last = state.round_results[-1].order
    if state.options.scoring == "last-round":
        return list(last)
    return sorted(state.players, key=lambda player: (-totals[player], last.index(player)))


def summary(
    state: DalmutiState, ranking: list[str], ranks: dict[str, list[int]], totals: dict[str, int]
) -> str:
    winner = ranking[0]
    played = len(state.round_results)
    if state.options.scoring == "last-round":
        return f"마지막 라운드에서 {winner} 님이 {GREAT_DALMUTI}이 되었어요!"
    if played > 1 and all(rank == 1 for rank in ranks[winner]):
        return f"{played}라운드 동안 {winner} 님이 가장 높은 신분을 지켰어요!"
    return f"{played}라운드 동안 {winner} 님이 {totals[winner]}점으로 1등을 했어요!"


def game_result(state: DalmutiState) -> dict[str, Any]:
    """The spec's GameResult, computed from the rounds' finishing orders by spec 6 (so a
    state written by hand needs nothing else)."""
    totals = round_totals(state.players, state.round_results)
    ranking = final_ranking(state, totals)
    ranks = round_ranks(state)
    return {
        "ranking": [
            {
                "player": player,
                "rank": place + 1,
                "total": totals[player],
                "roundRanks": ranks[player],
            }
            for place, player in enumerate(ranking)
        ],
        "winner": [ranking[0]],
        "summary": summary(state, ranking, ranks, totals),
    }
