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

from jokeapp.core.contract import Game, redacted
from jokeapp.core.replay import walk
from jokeapp.rooms.errors import RoomError
from jokeapp.wire import protocol as p

SPECTATOR = "spectator"
EVERYONE = "all"


def unknown_viewer() -> RoomError:
    return RoomError("seat_not_found")


def seat_differences(
    seat_view: Mapping[str, Any], spectator_view: Mapping[str, Any]
) -> dict[str, Any]:
    """The keys of a seat's view that the spectator's lacks or sees otherwise."""
    missing = object()
    return {k: v for k, v in seat_view.items() if spectator_view.get(k, missing) != v}


def match_replay(game: Game[Any], record: Mapping[str, Any], viewer: str) -> p.ReplayResponse:
    """The frames of a finished match's ``record`` for ``viewer`` (a seat id, ``spectator``
    or ``all``). Frame 0 is the start (setup's events, ``actor`` None), then one per step."""
    players: list[str] = list(record["players"])
    if viewer not in (SPECTATOR, EVERYONE) and viewer not in players:
        raise unknown_viewer()
    everyone = viewer == EVERYONE
    seen_as = None if viewer in (SPECTATOR, EVERYONE) else viewer
    steps: list[Mapping[str, Any]] = list(record["steps"])
    log = [(step["actor"], step["action"]) for step in steps]
    frames: list[p.ReplayFrame] = []
    walked = walk(game, record["options"], players, int(record["seed"]), log)
    for index, (state, events) in enumerate(walked):
        step = steps[index - 1] if index else None
        view = game.view(state, seen_as)
        frame = p.ReplayFrame(
            actor=step["actor"] if step else None,
            auto=bool(step["auto"]) if step else False,
            events=events if everyone else redacted(game, events, seen_as),
            view=view,
        )
        if everyone:
            frame.action = step["action"] if step else None
            frame.seat_views = {pl: seat_differences(game.view(state, pl), view) for pl in players}
        frames.append(frame)
    return p.ReplayResponse(
        game=record["game"],
        room_id=record["roomId"],
        match=record["match"],
        players=players,
        nicknames=record["nicknames"],
        options=record["options"],
        seed=record["seed"],
        seed_hash=record["seedHash"],
        result=record["result"],
        viewer=viewer,
        frames=frames,
        abandoned=bool(record.get("abandoned")),
    )
