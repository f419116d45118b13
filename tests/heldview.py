"""The view a client holds: each snapshot's, then patched by every update (docs/protocol.md)."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from jokeapp.rooms.viewpatch import apply_patch
from jokeapp.wire.protocol import UpdateMessage


def held_view(held: Any, message: dict[str, Any]) -> Any:
    """The view a client holds after ``message`` (a snapshot or an update), as a new object."""
    if message["type"] == "snapshot" or message.get("view") is not None:
        return message["view"]
    if not message.get("patch"):
        return held
    return apply_patch(copy.deepcopy(held), message["patch"])


# An update leaves out its fields at their default: the wire Struct says which and what.
UPDATE_DEFAULTS: dict[str, Any] = {
    f.encode_name: f.default
    for f in msgspec.structs.fields(UpdateMessage)
    if f.default is not msgspec.NODEFAULT
}


def with_defaults(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with an update's left-out fields written out (for tests that read them)."""
    if message["type"] == "update":
        for key, value in UPDATE_DEFAULTS.items():
            message.setdefault(key, value)
    return message
