"""The view a client holds: each snapshot's, then patched by every update (docs/protocol.md)."""

from __future__ import annotations

import copy
from typing import Any

from jokeapp.rooms.viewpatch import apply_patch


def held_view(held: Any, message: dict[str, Any]) -> Any:
    """The view a client holds after ``message`` (a snapshot or an update), as a new object."""
    if message["type"] == "snapshot" or message.get("view") is not None:
        return message["view"]
    if not message.get("patch"):
        return held
    return apply_patch(copy.deepcopy(held), message["patch"])
