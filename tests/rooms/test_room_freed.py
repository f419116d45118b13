"""A room its manager dropped is freed by reference counting: the server freezes what survives
its young passes (server/collector.py), so a cycle through a long-lived room (its timers
posting through a bound method of the room) kept it, frozen, until a full collection."""

from __future__ import annotations

import asyncio
import gc
import weakref

from jokeapp.rooms.manager import RoomManager
from tests.rooms.conftest import seated_room


async def test_a_dropped_room_is_freed_by_reference_counting(manager: RoomManager) -> None:
    room, _, _ = await seated_room(manager, bots=1)  # a bot's move and a deadline armed
    gone = weakref.ref(room)
    await room.stop()
    await asyncio.sleep(0)  # the loop lets go of the task's last step
    gc.collect()  # the stopped task's own cycles (its cancellation's traceback), made just now
    gc.disable()
    try:
        manager.rooms.clear()
        manager.by_code.clear()
        del room
        assert gone() is None
    finally:
        gc.enable()
