"""`joke schema`: prints the JSON Schema of every wire message (docs/protocol.md)."""

from __future__ import annotations

import argparse
import sys

import msgspec

from jokeapp.server.protocol import PROTOCOL_VERSION, schema_components


def document() -> dict[str, object]:
    schemas, components = schema_components()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "joke-app room server wire protocol",
        "version": PROTOCOL_VERSION,
        "clientMessage": schemas[0],
        "serverMessage": schemas[1],
        "components": {"schemas": components},
    }


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--indent", type=int, default=2, help="spaces per indent level")


def main(args: argparse.Namespace) -> int:
    text = msgspec.json.format(msgspec.json.encode(document()), indent=args.indent)
    sys.stdout.write(text.decode() + "\n")
    return 0
