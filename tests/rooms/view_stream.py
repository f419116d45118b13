"""Whole games as each viewer's updates would carry their views: whole, patched, or unchanged.

Random bots play a game; after setup and after every step each viewer (every seat and the
spectator) gets ``SentViews.next`` exactly as ``Room.publish`` calls it, and each line holds
what the update would carry (``view``, ``patch``) and the view itself (``full``), encoded at
once as the server encodes its messages (a view that shared objects with the live state would
show up as a wrong patch). The client's test runs this module and applies the patches with the
client's code (client/tests/viewpatch.test.ts); tests/rooms/test_viewpatch.py does it in Python.

    python -m tests.rooms.view_stream marble 4 1     # game, players, seed: JSON lines
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import msgspec

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
    for step, (state, _events) in enumerate(walk(game, {}, seats, seed, log)):
        for viewer in viewers:
            full = game.view(state, viewer)
            if step == 0:
                sent.sent(viewer, full)  # the snapshot
                view, patch = full, None
            else:
                view, patch = sent.next(viewer, full)
            line = {"viewer": viewer, "step": step, "view": view, "patch": patch, "full": full}
            yield msgspec.json.encode(line)


def main(argv: list[str]) -> int:
    games: Any = GAMES if not argv else [(argv[0], int(argv[1]), int(argv[2]))]
    out = sys.stdout.buffer
    for game_id, players, seed in games:
        for line in stream(game_id, players, seed):
            out.write(line + b"\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
