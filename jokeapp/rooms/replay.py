"""A finished match shown again, step by step, as one viewer saw it (docs/protocol.md, "Replay").

The record holds actions and events but no views, and a client must not re-implement the
rules to rebuild them. So the server replays the match's log with the engine and sends, per
step, exactly what that viewer's update carried live: the events redacted for them and their
view. Only finished matches are replayed (the caller hands in a finished match's record),
so a replay never shows a live game's hidden information.

``viewer="all"`` is the omniscient replay: the spectator's view plus, for each seat, the
keys of that seat's own view that differ from it (a card game's hands), with every event in
full and each step's action. It reveals nothing the finished match's record and seed do not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jokeapp.core.contract import Event, Game
from jokeapp.core.replay import walk
from jokeapp.rooms.errors import RoomError

SPECTATOR = "spectator"
EVERYONE = "all"


def unknown_viewer() -> RoomError:
    return RoomError("seat_not_found")


def events_for(game: Game[Any], events: list[Event], viewer: str | None) -> list[Event]:
    """The viewer's copies of ``events``; those they may not see are left out."""
    out = []
    for event in events:
        copy = game.redact_event(event, viewer)
        if copy is not None:
            out.append(copy)
    return out


def seat_differences(
    seat_view: Mapping[str, Any], spectator_view: Mapping[str, Any]
) -> dict[str, Any]:
    """The keys of a seat's view that the spectator's lacks or sees otherwise."""
    missing = object()
    return {k: v for k, v in seat_view.items() if spectator_view.get(k, missing) != v}


def match_replay(game: Game[Any], record: Mapping[str, Any], viewer: str) -> dict[str, Any]:
    """The frames of a finished match's ``record`` for ``viewer`` (a seat id, ``spectator``
    or ``all``). Frame 0 is the start (setup's events, ``actor`` None), then one per step."""
    players: list[str] = list(record["players"])
    if viewer not in (SPECTATOR, EVERYONE) and viewer not in players:
        raise unknown_viewer()
    everyone = viewer == EVERYONE
    seen_as = None if viewer in (SPECTATOR, EVERYONE) else viewer
    steps: list[Mapping[str, Any]] = list(record["steps"])
    log = [(step["actor"], step["action"]) for step in steps]
    frames: list[dict[str, Any]] = []
    walked = walk(game, record["options"], players, int(record["seed"]), log)
    for index, (state, events) in enumerate(walked):
        step = steps[index - 1] if index else None
        view = game.view(state, seen_as)
        frame: dict[str, Any] = {
            "actor": step["actor"] if step else None,
            "auto": bool(step["auto"]) if step else False,
            "events": events if everyone else events_for(game, events, seen_as),
            "view": view,
        }
        if everyone:
            frame["action"] = step["action"] if step else None
            frame["seatViews"] = {p: seat_differences(game.view(state, p), view) for p in players}
        frames.append(frame)
    replay: dict[str, Any] = {
        key: record[key]
        for key in (
            "game",
            "roomId",
            "match",
            "players",
            "nicknames",
            "options",
            "seed",
            "seedHash",
            "result",
        )
        if key in record
    }
    if record.get("abandoned"):
        replay["abandoned"] = True
    replay.update(viewer=viewer, frames=frames)
    return replay
