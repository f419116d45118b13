"""Which module handles each command: the room's task calls ``handle`` for every one."""

from __future__ import annotations

from typing import Any

from jokeapp.rooms import commands as cmd
from jokeapp.rooms import connections, seating, starting, turns
from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.members import token_key
from jokeapp.rooms.messages import room_info
from jokeapp.rooms.room import Room
from jokeapp.store.api import FencedError

# Commands whose every update is a logged action (its number is in the log's row) or that send
# none: the only ones that need no update numbers reserved in the store first.
_LOGGED_OR_SILENT = (cmd.ClientAction, cmd.BotMove, cmd.Resync, cmd.Info)


async def handle(room: Room, command: cmd.Command) -> Any:
    if type(command) is cmd.ClientAction:  # nearly every command: no reservation, no match
        return await turns.client_action(room, command)
    if not isinstance(command, _LOGGED_OR_SILENT):
        try:
            await room.reserve_numbers()  # a room change's number is never used twice
        except FencedError:
            raise RoomError("room_moving") from None  # another node owns the room now
    match command:
        case cmd.Connect():
            return await connections.connect(room, command)
        case cmd.Disconnect():
            return await connections.disconnect(room, command)
        case cmd.Resync():
            return connections.resync(room, command)
        case cmd.AwayCheck():
            return connections.away_check(room)
        case cmd.ClientAction():
            return await turns.client_action(room, command)
        case cmd.Timeout():
            return await turns.timeout(room)
        case cmd.BotMove():
            return await turns.bot_move(room, command.player_id)
        case cmd.Info():
            return room_info(room)
        case cmd.Join():
            return await seating.join(room, command.nickname, command.role)
        case cmd.Leave():
            return await seating.leave(room, command.token)
        case cmd.AddBot():
            _host(room, command.token)
            return await seating.add_bot(room, command.policy)
        case cmd.RemoveBot():
            _host(room, command.token)
            return await seating.remove_bot(room, command.player_id)
        case cmd.Kick():
            host = _host(room, command.token)
            return await seating.kick(room, host, command.player_id)
        case cmd.AfkAnswer():
            host = _host(room, command.token)
            return await seating.afk_answer(room, host, command.player_id, command.choice)
        case cmd.Start():
            _host(room, command.token)
            return await starting.start(room)
        case cmd.SetOptions():
            _host(room, command.token)
            return await starting.set_options(room, command.options)
        case cmd.Rematch():
            _host(room, command.token)
            return await starting.rematch(room)
    raise TypeError(f"unknown command {command!r}")


def _host(room: Room, token: str) -> str:
    """The host's player id, if ``token`` is the host's; else not_host or bad_token."""
    seat = room.members.seat_of(token_key(token))
    if seat is None:
        if token_key(token) in room.members.spectators:
            raise RoomError("not_host")
        raise RoomError("bad_token")
    if seat.player_id != room.members.host_id:
        raise RoomError("not_host")
    return seat.player_id
