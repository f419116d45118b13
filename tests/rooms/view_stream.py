"""Whole games as each viewer's updates would carry their views: whole, patched, or unchanged.

Random bots play a game; after setup every viewer (every seat and the spectator) gets a
snapshot, after every step ``SentViews.update`` as ``Room.publish`` calls it; one seat at a time
is away for two steps and comes back with a snapshot. Each line holds what the message would
carry (``view``, ``patch``) and the view itself (``full``), encoded at once as the server
encodes its messages (a view that shared objects with the live state would show up as a
wrong patch). The client's test runs this module and applies the patches with the
client's code (client/tests/viewpatch.test.ts); tests/rooms/test_viewpatch.py does it in Python.

    python -m tests.rooms.view_stream marble 4 1     # game, players, seed: JSON lines
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import msgspec

from jokeapp.core.contract import view_parts
from jokeapp.core.replay import walk
from jokeapp.games import get_game
from jokeapp.rooms.viewpatch import SentViews
from jokeapp.sim.play import play_recorded, player_ids

GAMES = (("marble", 4, 1), ("marble", 2, 2), ("dalmuti", 5, 1), ("dalmuti", 8, 2))


def stream(game_id: str, players: int, seed: int) -> Iterator[bytes]:
    game = get_game(game_id)
    seats = player_ids(players)
    random_bot = game.bots["random"]
    played = play_recorded(game, {}, seats, seed, dict.fromkeys(seats, random_bot))
    assert not played.cut_off
    log = [(step["actor"], step["action"]) for step in played.record["steps"]]
    sent = SentViews()
    viewers: list[str | None] = [*seats, None]
    away: str | None = None  # a seat whose connection is closed for a step, then reconnects
    for step, (state, _events) in enumerate(walk(game, {}, seats, seed, log)):
        if away is not None and step % 29 == 9:
            view = game.view(state, away)
            sent.sent(away, view)  # back: its snapshot
            yield _line(away, step, True, view, None, view)
            away = None
        elif step % 29 == 7:
            away = seats[step % len(seats)]
        # the order turns each step, so each viewer is in turn the one the others share with
        turn = step % len(viewers)
        # as a room builds them: at once, sharing what they see alike (``full``: one by one)
        parts = view_parts(game, state, [v for v in viewers[turn:] + viewers[:turn] if v != away])
        if step == 0:
            for viewer in parts.own:
                first = parts.view(viewer)
                sent.sent(viewer, first)  # the snapshots
                yield _line(viewer, step, True, first, None, first)
            continue
        fulls = {viewer: msgspec.json.encode(game.view(state, viewer)) for viewer in parts.own}
        for viewer, (whole, patch) in sent.update(parts).items():
            yield _line(viewer, step, False, whole, patch, msgspec.Raw(fulls[viewer]))


def _line(viewer: str | None, step: int, snapshot: bool, view: Any, patch: Any, full: Any) -> bytes:
    line = {"viewer": viewer, "step": step, "snapshot": snapshot, "view": view}
    return msgspec.json.encode({**line, "patch": patch, "full": full})


def main(argv: list[str]) -> int:
    games: Any = GAMES if not argv else [(argv[0], int(argv[1]), int(argv[2]))]
    out = sys.stdout.buffer
    for game_id, players, seed in games:
        for line in stream(game_id, players, seed):
            out.write(line + b"\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
