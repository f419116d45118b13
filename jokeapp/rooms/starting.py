"""The host's commands on the match itself: the options, the start and the rematch."""

from __future__ import annotations

from typing import Any

from jokeapp.core.errors import GameError
from jokeapp.core.options import resolve_options
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.match import Match, new_seed
from jokeapp.rooms.members import seat_number
from jokeapp.rooms.messages import publish, room_info
from jokeapp.rooms.room import Room
from jokeapp.rooms.seating import drop_gone_seats
from jokeapp.rooms.status import RoomStatus
from jokeapp.wire import protocol as p


def _refuse_unless(room: Room, status: RoomStatus) -> None:
    """A start or rematch of a room that plays already (a request tried again after its
    answer was lost, a second click) is told so: ``match_in_progress``, not the bare
    ``wrong_status``, so the one who asked knows a match is on."""
    if room.status == RoomStatus.PLAYING:
        raise RoomError("match_in_progress")
    if room.status != status:
        raise RoomError("wrong_status")


async def start(room: Room) -> p.RoomInfo:
    _refuse_unless(room, RoomStatus.LOBBY)
    await _begin_match(room)
    return room_info(room)


async def rematch(room: Room) -> p.RoomInfo:
    _refuse_unless(room, RoomStatus.FINISHED)
    await drop_gone_seats(room)
    await _begin_match(room)
    return room_info(room)


async def _begin_match(room: Room) -> None:
    count = len(room.members.seats)
    low, high = room.game.min_players, room.game.max_players
    if not low <= count <= high:
        raise RoomError("not_enough_players", {"min": low, "max": high})
    players = sorted(room.members.seats, key=seat_number)
    match = Match.begin(room.game, room.series.number + 1, room.options, players, new_seed())
    await room.begin_match(match)
    # The first update carries each viewer's copy of the setup events (a draw, a deal).
    publish(room, match.setup_events, room_changed=True)
    room.schedule()


async def set_options(room: Room, options: dict[str, Any]) -> p.RoomInfo:
    """In the lobby, or after a match and before the rematch (which then plays with them)."""
    if room.series.playing:
        raise RoomError("wrong_status")
    try:
        room.options = resolve_options(room.game.options, {**room.options, **options})
    except GameError as exc:
        raise RoomError(exc.code, exc.detail) from exc
    await room.store.save_room(room.row())
    publish(room, room_changed=True)
    return room_info(room)
