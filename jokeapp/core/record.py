"""Game records (DESIGN.md, "Game records"): building them and checking them by replay."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jokeapp.core.contract import Action, Event, Game
from jokeapp.core.options import resolve_options


@dataclass
class Recorder:
    """Plays a game and writes its record as it goes."""

    game: Game[Any]
    options: dict[str, Any]
    players: list[str]
    seed: int
    with_states: bool = False
    state: Any = None
    record: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def begin(
        cls,
        game: Game[Any],
        options: Mapping[str, Any],
        players: Sequence[str],
        seed: int,
        with_states: bool = False,
    ) -> Recorder:
        full = resolve_options(game.options, options)
        state, setup_events = game.start(full, players, seed)
        rec: dict[str, Any] = {
            "game": game.id,
            "options": full,
            "players": list(players),
            "seed": seed,
        }
        if with_states:
            rec["initialState"] = game.to_json(state)
        rec["setupEvents"] = setup_events
        rec["steps"] = []
        rec["result"] = None
        return cls(game, full, list(players), seed, with_states, state, rec)

    def step(self, actor: str, action: Action, auto: bool = False) -> list[Event]:
        events = self.game.apply(self.state, actor, action)
        # the record keeps a copy: a bot may hand over an action it shares between moves (a
        # game's prebuilt pass, core.contract.pick_legal), which no record may change
        step: dict[str, Any] = {
            "actor": actor,
            "action": dict(action),
            "auto": auto,
            "events": events,
        }
        if self.with_states:
            step["state"] = self.game.to_json(self.state)
        self.record["steps"].append(step)
        if self.game.is_over(self.state):
            self.record["result"] = self.game.result(self.state)
        return events

    def cut_off(self) -> None:
        """The game is stopped unfinished (a tool's step cap): no result, ``cutOff`` instead."""
        del self.record["result"]
        self.record["cutOff"] = {"steps": len(self.record["steps"])}


def verify_record(game: Game[Any], record: Mapping[str, Any]) -> list[str]:
    """Re-computes a record from its seed and actions; returns the differences found."""
    problems: list[str] = []
    state, setup_events = game.start(record["options"], record["players"], int(record["seed"]))
    if "initialState" in record and game.to_json(state) != record["initialState"]:
        problems.append("initialState differs")
    if "setupEvents" in record and setup_events != record["setupEvents"]:
        problems.append("setupEvents differ")
    for index, step in enumerate(record.get("steps", [])):
        try:
            events = game.apply(state, step["actor"], step["action"])
        except Exception as exc:  # noqa: BLE001 - a broken record is reported, not raised
            problems.append(f"step {index}: action rejected: {exc}")
            return problems
        if "events" in step and events != step["events"]:
            problems.append(f"step {index}: events differ")
        if "state" in step and game.to_json(state) != step["state"]:
            problems.append(f"step {index}: state differs")
    if "cutOff" in record:
        # A game stopped at a tool's step cap: unfinished after exactly its steps, no result.
        if game.is_over(state):
            problems.append("cut off, but the game is over after its steps")
        if record["cutOff"].get("steps") != len(record.get("steps", [])):
            problems.append("cutOff.steps differs from the number of steps")
        if "result" in record:
            problems.append("a cut-off record has a result")
        return problems
    result = game.result(state) if game.is_over(state) else None
    if record.get("result") != result:
        problems.append("result differs")
    return problems
