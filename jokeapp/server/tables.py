"""`joke tables`: prints each game's fixed tables (a board, prices, names; the games'
``display_tables`` hook) as JSON, which the client's build turns into src/gen/tables.gen.ts."""

from __future__ import annotations

import argparse
import json
import sys

from jokeapp.core.contract import display_tables
from jokeapp.games import GAME_IDS, get_game


def document() -> dict[str, object]:
    return {game_id: display_tables(get_game(game_id)) for game_id in GAME_IDS}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--indent", type=int, default=2, help="spaces per indent level")


def main(args: argparse.Namespace) -> int:
    sys.stdout.write(json.dumps(document(), ensure_ascii=False, indent=args.indent) + "\n")
    return 0
