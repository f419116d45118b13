"""`joke analyze GAME --games N --out DIR`: bot games (or records) into a report with pictures.

Plays ``--games`` games with the simulator's parallel workers (or reads ``--records``, JSON
lines written by `joke simulate --log`), collects the game's analysis (jokeapp.sim.analysis.
<game>) and writes ``DIR/report.md``, its PNG plots and ``DIR/facts.json`` (a few short
Korean facts for the rules screen). ``--sweep M`` also plays M games for every other choice of
every option (time limits excepted: headless games have no clock), for the report's options
section. The figures depend only on the seeds, not on the number of workers.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import shlex
import sys
import time
from collections.abc import Iterable, Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

from jokeapp.argtypes import positive_int
from jokeapp.core.contract import Game
from jokeapp.core.errors import GameError
from jokeapp.core.options import resolve_options
from jokeapp.core.replay import replay
from jokeapp.games import GAME_IDS, get_game
from jokeapp.sim.analysis.report import RunInfo, Variant
from jokeapp.sim.options_arg import parse_option
from jokeapp.sim.parallel import default_workers, play_batches
from jokeapp.sim.play import DEFAULT_MAX_STEPS, PlayedGame, play_recorded, player_ids
from jokeapp.sim.progress import ProgressBar

# game id -> the module with its Analysis collector, report() and facts()
ANALYSES = {
    "marble": "jokeapp.sim.analysis.marble",
    "dalmuti": "jokeapp.sim.analysis.dalmuti",
}
DEFAULT_BOT = "normal"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=[g for g in GAME_IDS if g in ANALYSES])
    parser.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument("--out", type=Path, required=True, help="directory for report.md and PNGs")
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOT,
        help=f"bot levels, comma-separated, given to the seats in turn (default {DEFAULT_BOT})",
    )
    parser.add_argument(
        "--players", type=int, default=None, help="seats (default: the game's minimum+2, capped)"
    )
    parser.add_argument("--seed", type=int, default=1, help="game i is played with seed SEED+i")
    parser.add_argument(
        "--option", action="append", type=parse_option, default=[], metavar="KEY=VALUE"
    )
    parser.add_argument(
        "--sweep",
        type=int,
        default=0,
        metavar="M",
        help="also play M games for each other choice of each option (default 0: none)",
    )
    parser.add_argument(
        "--records",
        type=argparse.FileType("r", encoding="utf-8"),
        help="read game records (JSON lines of `joke simulate --log`) instead of playing",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=default_workers(),
        help="processes playing games (default: the cores); the report does not change",
    )
    parser.add_argument(
        "--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N", help="cut a game off here"
    )
    parser.add_argument(
        "--save",
        type=Path,
        help="also keep what was collected in this file (pickle), for --render",
    )
    parser.add_argument(
        "--render",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="write the report from files of --save (runs of consecutive seeds), without playing",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_bots(text: str, game: Game[Any]) -> list[str]:
    names = [b.strip() for b in text.split(",") if b.strip()]
    unknown = [b for b in names if b not in game.bots]
    if not names or unknown:
        raise ValueError(
            f"unknown bot {', '.join(unknown) or text!r} (bots: {', '.join(game.bots)})"
        )
    return names


def variants(game: Game[Any], changed: Mapping[str, Any]) -> list[Variant]:
    """Every other choice of every option the games can feel (not the time limits, nor an
    option fixed on the command line)."""
    found = []
    for spec in game.options:
        if spec.key.endswith("Seconds") or spec.key in changed:
            continue
        for choice in spec.choices:
            if choice != spec.default or type(choice) is not type(spec.default):
                found.append(Variant(spec.key, choice, spec.label))
    return found


def read_records(game: Game[Any], lines: Iterable[str]) -> Iterable[tuple[dict[str, Any], Any]]:
    """Each record of ``lines`` with its final state, rebuilt from its seed and actions."""
    for line in lines:
        if not line.strip():
            continue
        record = json.loads(line)
        if record.get("game") != game.id:
            raise ValueError(f"a record of {record.get('game')!r}, not {game.id}")
        log = [(s["actor"], s["action"]) for s in record["steps"]]
        state = replay(game, record["options"], record["players"], int(record["seed"]), log)
        yield record, state


def main(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    analysis = import_module(ANALYSES[game.id])
    players = args.players or min(game.min_players + 2, game.max_players)
    if not game.min_players <= players <= game.max_players:
        print(f"{game.id}: players must be {game.min_players}-{game.max_players}", file=sys.stderr)
        return 2
    try:
        bots = parse_bots(args.bots, game)
        changed = dict(args.option)
        options = resolve_options(game.options, changed)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    except GameError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    if args.games < 1 or args.sweep < 0:
        print("--games must be at least 1 and --sweep at least 0", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    if args.render:
        try:
            info, main_stats, saved_sweep = load_saved(args.render)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        info.command = re.sub(r"--out \S+", f"--out {shlex.quote(str(args.out))}", info.command)
        if args.max_steps != DEFAULT_MAX_STEPS and "--max-steps" not in info.command:
            # runs saved before the command named its step cap: the render gives it
            info.command = info.command.replace(" --out ", f" --max-steps {args.max_steps} --out ")
        return write(analysis, info, main_stats, saved_sweep, args.out)
    started = time.perf_counter()
    sweep = []
    found = [] if args.records else (variants(game, changed) if args.sweep else [])
    if args.records:
        main_stats = analysis.Analysis()
        games = 0
        for record, state in read_records(game, args.records):
            if games == 0:
                players = len(record["players"])
                options = dict(record["options"])
            main_stats.add(record, state)
            games += 1
        if games == 0:
            print("no records read", file=sys.stderr)
            return 2
    else:
        games = args.games
        total = games + args.sweep * len(found)
        bar = None if args.quiet else ProgressBar(total, sys.stderr)
        ids = player_ids(players)
        seat_bots = {p: game.bots[bots[i % len(bots)]] for i, p in enumerate(ids)}
        done = [0]

        def run(opts: Mapping[str, Any], count: int) -> Any:
            def play_one(seed: int) -> PlayedGame:
                return play_recorded(game, opts, ids, seed, seat_bots, False, args.max_steps)

            collected = analysis.Analysis()
            for batch in play_batches(
                play_one,
                range(args.seed, args.seed + count),
                args.workers,
                new_stats=analysis.Analysis,
                encode=None,
            ):
                collected.merge(batch.stats)
                done[0] += batch.games
                if bar:
                    bar.update(done[0])
            return collected

        main_stats = run(options, games)
        for variant in found:
            opts = resolve_options(game.options, {**changed, variant.key: variant.value})
            sweep.append((variant.text, variant.label, run(opts, args.sweep)))
    seconds = time.perf_counter() - started
    info = RunInfo(
        game=game.id,
        title=game.title,
        games=games,
        players=players,
        bots=bots,
        seed=args.seed,
        options=options,
        changed=changed,
        workers=args.workers,
        seconds=seconds,
        command=command_line(args),
        records=getattr(args.records, "name", None),
        sweep_games=args.sweep if found else 0,
        variants=found,
    )
    if args.save:
        with args.save.open("wb") as saved:
            pickle.dump((info, main_stats, sweep), saved)
    return write(analysis, info, main_stats, sweep, args.out)


def load_saved(paths: list[Path]) -> tuple[RunInfo, Any, list[tuple[str, str, Any]]]:
    """What runs of ``--save`` collected, merged: runs of consecutive seeds with the same
    settings make the report of one run over all their seeds (a game depends on its seed
    alone). The options section comes from the runs that played one."""
    runs = []
    for path in paths:
        with path.open("rb") as saved:
            runs.append(pickle.load(saved))
    runs.sort(key=lambda run: run[0].seed)
    info, main_stats, sweep = runs[0]
    info.parts = getattr(info, "parts", 1)
    for other, other_main, other_sweep in runs[1:]:
        if other.seed != info.seed + info.games or other.options != info.options:
            raise ValueError(f"{other.command}: not the next seeds of the same settings")
        main_stats.merge(other_main)
        info.workers = max(info.workers, other.workers)
        info.games += other.games
        info.seconds += other.seconds
        info.parts += 1
        if other_sweep and not sweep:
            sweep, info.sweep_games, info.variants = other_sweep, other.sweep_games, other.variants
    info.command = re.sub(r"--games \d+", f"--games {info.games}", info.command)
    return info, main_stats, sweep


def write(analysis: Any, info: RunInfo, main_stats: Any, sweep: Any, out: Path) -> int:
    """report.md, its PNGs and facts.json into ``out``."""
    text = analysis.report(main_stats, sweep, info, out)
    (out / "report.md").write_text(text + "\n", encoding="utf-8")
    facts = {"game": info.game, "games": info.games, "facts": analysis.facts(main_stats)}
    (out / "facts.json").write_text(
        json.dumps(facts, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    print(f"wrote {out / 'report.md'} ({info.games:,} games, {info.seconds:,.0f} s)")
    return 0


def command_line(args: argparse.Namespace) -> str:
    """The command that makes this report (as given, minus the progress switch)."""
    parts = ["joke", "analyze", args.game, "--games", str(args.games)]
    if args.records:
        parts[3:5] = ["--records", args.records.name]
    parts += ["--bots", args.bots]
    if args.players:
        parts += ["--players", str(args.players)]
    if args.seed != 1:
        parts += ["--seed", str(args.seed)]
    for key, value in args.option:
        parts += ["--option", f"{key}={json.dumps(value, ensure_ascii=False)}"]
    if args.sweep:
        parts += ["--sweep", str(args.sweep)]
    if args.max_steps != DEFAULT_MAX_STEPS:
        parts += ["--max-steps", str(args.max_steps)]
    parts += ["--workers", str(args.workers), "--out", str(args.out)]
    return shlex.join(parts)
