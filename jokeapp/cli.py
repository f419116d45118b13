"""The `joke` command. Each subcommand lives in its own module with `configure` and `main`.

Only the module of the subcommand that runs is imported: `joke --help` and `joke simulate`
never load the server stack (SQLAlchemy, Alembic, uvicorn, Starlette), which cost about
0.4 s of CPU before anything was parsed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

# subcommand -> module providing configure(parser) and main(args) -> int
SUBCOMMANDS = {
    "simulate": ("jokeapp.sim.simulate", "play bot games headless and print statistics"),
    "tournament": (
        "jokeapp.sim.tournament",
        "bots against bots with seats rotated: shares and 95%% intervals",
    ),
    "analyze": (
        "jokeapp.sim.analyze",
        "bot games into a balance report with pictures (report.md and PNGs)",
    ),
    "replay": ("jokeapp.sim.verify", "re-compute game records from their seeds and actions"),
    "serve": ("jokeapp.server.cli", "run the room server"),
    "schema": ("jokeapp.server.schema", "print the JSON Schema of the wire messages"),
    "tables": (
        "jokeapp.server.tables",
        "print each game's fixed tables (board, prices, names) as JSON",
    ),
    "codes": (
        "jokeapp.server.codes_doc",
        "print the error code table (Markdown) or write it into a doc",
    ),
}


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand on the command line: the first argument, since `joke` itself takes only -h."""
    return argv[0] if argv and argv[0] in SUBCOMMANDS else None


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """Every subcommand is listed; only the chosen one has its module imported and configured."""
    parser = argparse.ArgumentParser(prog="joke", description="joke-app games")
    sub = parser.add_subparsers(dest="command", required=True)
    chosen = _chosen(argv)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = import_module(module_name)
            module.configure(child)
            child.set_defaults(handler=module.main)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(args_list).parse_args(args_list)
    code: int = args.handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
