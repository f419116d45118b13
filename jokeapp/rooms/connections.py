"""Connections coming and going: a token's socket opens (or replaces an older one), closes,
asks for a fresh snapshot, and a disconnected seat's grace ends."""

from __future__ import annotations

from jokeapp.core.codes import CLOSE_BY_CODE
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.errors import error_frame
from jokeapp.rooms.members import token_key
from jokeapp.rooms.messages import publish, snapshot
from jokeapp.rooms.room import Room


async def connect(room: Room, command: cmd.Connect) -> None:
    key = token_key(command.token)
    seat = room.members.seat_of(key)
    if seat is None and key not in room.members.spectators:
        command.conn.send(error_frame("bad_token"))
        command.conn.close(CLOSE_BY_CODE["bad_token"])
        return
    old = room.audience.detach(key)
    if old is not None:
        old.send(error_frame("replaced"))
        old.close(CLOSE_BY_CODE["replaced"])
    if seat is not None and not seat.connected:
        seat.came_back()
        # back at the table: an open 강퇴/계속 offer is withdrawn and the count starts over
        room.absences.came_back(seat.player_id)
        await room.save_absence(seat.player_id)
        publish(room, room_changed=True)
        room.schedule()
    room.audience.attach(key, command.conn)
    command.conn.send(snapshot(room, key))


async def disconnect(room: Room, command: cmd.Disconnect) -> None:
    key = room.audience.key_of(command.conn)
    if key is None:
        return  # already replaced or removed
    room.audience.detach(key)
    seat = room.members.seat_of(key)
    if seat is not None:
        seat.went_away(room.clock.now())
        publish(room, room_changed=True)
        room.schedule()


def resync(room: Room, command: cmd.Resync) -> None:
    key = room.audience.key_of(command.conn)
    if key is not None:
        command.conn.send(snapshot(room, key))


def away_check(room: Room) -> None:
    """A grace may have ended: everyone sees the seat's new ``away``."""
    room.timers.away_checked()
    if room.away_players() != room.audience.away_sent:
        publish(room, room_changed=True)
    room.schedule()
