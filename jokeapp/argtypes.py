"""Types of command-line arguments shared by the subcommands (``argparse``'s ``type=``).

A leaf module: it imports nothing of jokeapp, so the server's and the simulator's parsers both
read it without loading each other.
"""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """A whole number, at least 1 (``--workers``, ``--db-pool``): argparse names the flag."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value
