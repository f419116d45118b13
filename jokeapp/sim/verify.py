"""`joke replay FILE.jsonl`: re-computes every record from its seed and actions."""

from __future__ import annotations

import argparse
import json

from jokeapp.core.record import verify_record
from jokeapp.games import GAME_IDS, get_game


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", type=argparse.FileType("r", encoding="utf-8"), help="records, one JSON per line"
    )


def check_line(number: int, line: str) -> list[str]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        return [f"line {number}: not JSON ({exc.msg})"]
    game_id = record.get("game") if isinstance(record, dict) else None
    if not isinstance(game_id, str) or game_id not in GAME_IDS:
        return [f"line {number}: not a game record of {', '.join(GAME_IDS)}"]
    try:
        problems = verify_record(get_game(game_id), record)
    except (KeyError, TypeError, ValueError) as exc:
        return [f"line {number}: malformed record ({exc})"]
    return [f"line {number} (seed {record.get('seed')}): {p}" for p in problems]


def main(args: argparse.Namespace) -> int:
    checked = 0
    problems: list[str] = []
    for number, line in enumerate(args.file, start=1):
        if not line.strip():
            continue
        checked += 1
        problems.extend(check_line(number, line))
    for problem in problems:
        print(problem)
    bad = len({p.split(":")[0] for p in problems})
    print(f"{checked} records checked, {checked - bad} exact, {bad} with differences")
    return 1 if problems else 0
