"""A tiny game for testing rooms without the real engines: race to 10 in steps of 1 or 2.

It has what the real games have that matters to a room: turns with a time budget, several
players pending at once (everybody confirms a secret at the start), hidden information (each
player's secret number), an RNG in the state, a concede action and a result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.bots import Bot, BotLevels, Budget, SeatKnowledge
from jokeapp.core.contract import AbsencePolicy, Action, Event, OptionSpec, Pending, WireTypes
from jokeapp.core.errors import IllegalAction
from jokeapp.core.options import resolve_options
from jokeapp.core.rng import Rng

GOAL = 10


def _random_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    legal = knowledge.legal
    return legal[rng.below(len(legal))]


def _normal_bot(knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None) -> Action:
    return knowledge.legal[-1]


class RaceGame:
    id = "race"
    title = "달리기 시합"
    min_players = 2
    max_players = 4
    options: tuple[OptionSpec, ...] = (
        OptionSpec("turnSeconds", (10, 30, None), 10, "결정 1회당 제한 시간"),
        OptionSpec("confirmSeconds", (20,), 20, "비밀 숫자 확인 시간"),
    )
    wire = WireTypes(action=dict[str, Any], event=dict[str, Any], view=dict[str, Any])
    bots: Mapping[str, Bot] = BotLevels({"random": _random_bot, "normal": _normal_bot})
    # nobody is removed; three timeouts in a row shorten a player's deadline to 5 s
    absence = AbsencePolicy(short_after=3, short_seconds=5.0)

    def start(
        self, options: Mapping[str, Any], players: Sequence[str], seed: int
    ) -> tuple[Any, list[Event]]:
        state = self.setup(options, players, seed)
        return state, [{"type": "dealt", "counts": {p: 1 for p in players}}]

    def setup(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> Any:
        full = resolve_options(self.options, options)
        rng = Rng.from_seed(seed)
        secrets = {p: 100 + rng.below(900) for p in players}
        return {
            "options": full,
            "rng": rng.to_json(),
            "players": list(players),
            "pos": {p: 0 for p in players},
            "secret": secrets,
            "confirmed": {p: False for p in players},
            "current": 0,
            "phase": "confirm",
            "alive": {p: True for p in players},
            "winner": None,
        }

    def _check(self, ok: bool, code: str) -> None:
        if not ok:
            raise IllegalAction(code)

    def apply(self, state: Any, actor: str, action: Action) -> list[Event]:
        self._check(actor in state["players"], "not_a_player")
        self._check(isinstance(action, dict), "malformed_action")
        kind = action.get("type")
        self._check(state["phase"] != "finished", "game_over")
        if kind == "confirm":
            self._check(state["phase"] == "confirm", "wrong_phase")
            self._check(not state["confirmed"][actor], "already_confirmed")
            state["confirmed"][actor] = True
            events: list[Event] = [
                {"type": "confirmed", "player": actor, "secret": state["secret"][actor]}
            ]
            if all(state["confirmed"].values()):
                state["phase"] = "race"
            return events
        if kind == "CONCEDE":
            self._check(state["alive"][actor], "out_of_game")
            state["alive"][actor] = False
            events = [{"type": "conceded", "player": actor}]
            return events + self._after_turn(state, skip_current=actor)
        self._check(kind == "step", "unknown_action")
        self._check(state["phase"] == "race", "wrong_phase")
        self._check(state["players"][state["current"]] == actor, "not_your_turn")
        n = action.get("n")
        self._check(n in (1, 2) and type(n) is int, "malformed_action")
        rng = Rng.from_json(state["rng"])
        bonus = rng.below(2)
        state["rng"] = rng.to_json()
        assert isinstance(n, int)  # checked above; tells the type checker
        state["pos"][actor] += n + bonus
        events = [
            {"type": "stepped", "player": actor, "n": n, "bonus": bonus, "to": state["pos"][actor]}
        ]
        if state["pos"][actor] >= GOAL:
            state["phase"] = "finished"
            state["winner"] = actor
            return events + [{"type": "gameOver", "result": self.result(state)}]
        return events + self._after_turn(state, skip_current=None)

    def _after_turn(self, state: Any, skip_current: str | None) -> list[Event]:
        alive = [p for p in state["players"] if state["alive"][p]]
        if len(alive) == 1:
            state["phase"] = "finished"
            state["winner"] = alive[0]
            return [{"type": "gameOver", "result": self.result(state)}]
        if state["phase"] != "race":
            return []
        current = state["players"][state["current"]]
        if skip_current is not None and skip_current != current:
            return []
        count = len(state["players"])
        index = state["current"]
        for _ in range(count):
            index = (index + 1) % count
            if state["alive"][state["players"][index]]:
                break
        state["current"] = index
        return []

    def pending(self, state: Any) -> list[Pending]:
        if state["phase"] == "confirm":
            seconds = state["options"]["confirmSeconds"]
            return [
                Pending(p, "confirm", seconds)
                for p in state["players"]
                if not state["confirmed"][p]
            ]
        if state["phase"] == "race":
            return [
                Pending(
                    state["players"][state["current"]], "turnStart", state["options"]["turnSeconds"]
                )
            ]
        return []

    def on_timeout(self, state: Any, player: str) -> Action:
        if state["phase"] == "confirm":
            return {"type": "confirm"}
        return {"type": "step", "n": 1}

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        return {
            "players": state["players"],
            "pos": dict(state["pos"]),
            "phase": state["phase"],
            "current": state["players"][state["current"]],
            "alive": dict(state["alive"]),
            "confirmed": dict(state["confirmed"]),
            "mySecret": state["secret"].get(viewer) if viewer is not None else None,
            "viewer": viewer,
        }

    def redact_event(self, event: Event, viewer: str | None) -> Event | None:
        if event["type"] == "confirmed" and event["player"] != viewer:
            return {"type": "confirmed", "player": event["player"]}
        return event

    def legal_actions(self, state: Any, player: str) -> list[Action]:
        if state["phase"] == "confirm" and not state["confirmed"].get(player, True):
            return [{"type": "confirm"}]
        if state["phase"] == "race" and state["players"][state["current"]] == player:
            return [{"type": "step", "n": 1}, {"type": "step", "n": 2}]
        return []

    def legal_actions_from_view(self, view: Mapping[str, Any], player: str) -> list[Action]:
        if view["phase"] == "confirm" and not view["confirmed"].get(player, True):
            return [{"type": "confirm"}]
        if view["phase"] == "race" and view["current"] == player:
            return [{"type": "step", "n": 1}, {"type": "step", "n": 2}]
        return []

    def is_over(self, state: Any) -> bool:
        return bool(state["phase"] == "finished")

    def result(self, state: Any) -> dict[str, Any] | None:
        if state["phase"] != "finished":
            return None
        return {"winners": [state["winner"]], "pos": dict(state["pos"])}

    def to_json(self, state: Any) -> dict[str, Any]:
        import copy

        return copy.deepcopy(state)

    def from_json(self, data: Mapping[str, Any]) -> Any:
        import copy

        return copy.deepcopy(dict(data))


GAME = RaceGame()
