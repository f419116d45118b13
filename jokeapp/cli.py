"""The `joke` command. Each subcommand lives in its own module with `configure` and `main`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

# subcommand -> module providing configure(parser) and main(args) -> int
SUBCOMMANDS = {
    "simulate": ("jokeapp.sim.simulate", "play bot games headless and print statistics"),
    "tournament": ("jokeapp.sim.tournament", "bots against bots with seats rotated: shares and 95% intervals"),
    "replay": ("jokeapp.sim.verify", "re-compute game records from their seeds and actions"),
    "serve": ("jokeapp.server.cli", "run the room server"),
    "schema": ("jokeapp.server.schema", "print the JSON Schema of the wire messages"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="joke", description="joke-app games")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        try:
            module = import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # that part of the service is not installed yet
            raise
        child = sub.add_parser(name, help=help_text, description=help_text)
        module.configure(child)
        child.set_defaults(handler=module.main)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
