"""`--option key=value` on the command line: the value is read as JSON, else as text."""

from __future__ import annotations

import argparse
import json
from typing import Any


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"option must be key=value, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value
