"""A test game with rounds and doubles, for the rooms' round-based rules (marble 8.5).

Every round each player has two turns in a row (as if every first roll were a double), so
"two absent turns" and "two absent rounds" differ. ``round_of`` and ``presentation_pause``
are the contract's optional hooks: 1.5 s after each move, to see the rooms add it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.bots import Bot, BotLevels, Budget, SeatKnowledge
from jokeapp.core.contract import AbsencePolicy, Action, Event, OptionSpec, Pending, WireTypes
from jokeapp.core.errors import IllegalAction
from jokeapp.core.options import resolve_options

ROUNDS = 12
MOVE_PAUSE = 1.5


def _bot(knowledge: SeatKnowledge, rng: Any, budget: Budget | None = None) -> Action:
    return knowledge.legal[0]  # the only move there is


class LapsGame:
    id = "laps"
    title = "한 바퀴 두 걸음"
    min_players = 2
    max_players = 4
    options: tuple[OptionSpec, ...] = (
        OptionSpec("turnSeconds", (10,), 10, "결정 1회당 제한 시간"),
    )
    wire = WireTypes(action=dict[str, Any], event=dict[str, Any], view=dict[str, Any])
    bots: Mapping[str, Bot] = BotLevels({"random": _bot, "normal": _bot})
    # marble's rules of absence: 5 s grace, 강퇴/계속 after two absent rounds, a kick concedes
    absence = AbsencePolicy(
        grace=5.0, afk_rounds=2, afk_kind="turnStart", kick_action={"type": "CONCEDE"}
    )

    def start(
        self, options: Mapping[str, Any], players: Sequence[str], seed: int
    ) -> tuple[Any, list[Event]]:
        return self.setup(options, players, seed), []

    def setup(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> Any:
        full = resolve_options(self.options, options)
        return {
            "options": full,
            "players": list(players),
            "current": 0,
            "second": False,
            "round": 1,
            "alive": {p: True for p in players},
            "over": False,
        }

    def apply(self, state: Any, actor: str, action: Action) -> list[Event]:
        if state["over"]:
            raise IllegalAction("game_over")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "CONCEDE" and actor in state["alive"]:
            state["alive"][actor] = False
            state["over"] = True
            return [
                {"type": "conceded", "player": actor},
                {"type": "gameOver", "result": self.result(state)},
            ]
        if kind != "go" or state["players"][state["current"]] != actor:
            raise IllegalAction("not_your_turn")
        events: list[Event] = [
            {"type": "went", "player": actor, "round": state["round"], "again": not state["second"]}
        ]
        if not state["second"]:
            state["second"] = True  # the same player goes again, in the same round
            return events
        state["second"] = False
        state["current"] = (state["current"] + 1) % len(state["players"])
        if state["current"] == 0:
            state["round"] += 1
            if state["round"] > ROUNDS:
                state["over"] = True
                events.append({"type": "gameOver", "result": self.result(state)})
        return events

    def pending(self, state: Any) -> list[Pending]:
        if state["over"]:
            return []
        return [
            Pending(
                state["players"][state["current"]], "turnStart", state["options"]["turnSeconds"]
            )
        ]

    def on_timeout(self, state: Any, player: str) -> Action:
        return {"type": "go"}

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        return {
            "round": state["round"],
            "current": state["players"][state["current"]],
            "over": state["over"],
        }

    def redact_event(self, event: Event, viewer: str | None) -> Event | None:
        return event

    def legal_actions(self, state: Any, player: str) -> list[Action]:
        return (
            [{"type": "go"}]
            if state["players"][state["current"]] == player and not state["over"]
            else []
        )

    def legal_actions_from_view(self, view: Mapping[str, Any], player: str) -> list[Action]:
        return [{"type": "go"}] if view["current"] == player and not view["over"] else []

    def is_over(self, state: Any) -> bool:
        return bool(state["over"])

    def result(self, state: Any) -> dict[str, Any] | None:
        return {"alive": dict(state["alive"])} if state["over"] else None

    def to_json(self, state: Any) -> dict[str, Any]:
        return copy.deepcopy(state)

    def from_json(self, data: Mapping[str, Any]) -> Any:
        return copy.deepcopy(dict(data))

    def round_of(self, state: Any) -> int:
        return int(state["round"])

    def presentation_pause(self, events: Sequence[Event]) -> float:
        return MOVE_PAUSE if any(e["type"] == "went" for e in events) else 0.0


GAME = LapsGame()
