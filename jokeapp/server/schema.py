"""`joke schema`: prints the JSON Schema of every wire message and of each game's actions,
events and view (docs/protocol.md)."""

from __future__ import annotations

import argparse
import sys

import msgspec

from jokeapp.games import GAME_IDS, get_game
from jokeapp.wire.game_types import game_schemas
from jokeapp.wire.protocol import PROTOCOL_VERSION, schema_components


def document() -> dict[str, object]:
    schemas, components = schema_components()
    games, game_components = game_schemas([get_game(game_id) for game_id in GAME_IDS])
    taken = sorted(components.keys() & game_components.keys())
    if taken:
        raise ValueError(f"game wire types reuse protocol names: {', '.join(taken)}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "joke-app room server wire protocol",
        "version": PROTOCOL_VERSION,
        "clientMessage": schemas[0],
        "serverMessage": schemas[1],
        # {game id: {"action", "event", "view"}}: what ActionMessage.action, an update's
        # events and a snapshot's or update's view hold in a room of that game.
        "games": games,
        "components": {"schemas": {**components, **game_components}},
    }


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--indent", type=int, default=2, help="spaces per indent level")


def main(args: argparse.Namespace) -> int:
    text = msgspec.json.format(msgspec.json.encode(document()), indent=args.indent)
    sys.stdout.write(text.decode() + "\n")
    return 0
