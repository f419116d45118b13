"""Seats and the host's commands: join, leave, bots, kick, options, start and rematch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jokeapp.core.bots import level_name
from jokeapp.core.codes import CLOSE_BY_CODE, CLOSE_NORMAL
from jokeapp.core.contract import presentation_pause
from jokeapp.core.errors import GameError
from jokeapp.core.options import resolve_options
from jokeapp.rooms import commands as cmd
from jokeapp.rooms.errors import RoomError, error_frame
from jokeapp.rooms.match import Match, new_seed
from jokeapp.rooms.members import (
    Seat,
    Spectator,
    free_player_id,
    new_token,
    next_host,
    seat_number,
    token_key,
)
from jokeapp.rooms.nickname import clean_nickname, trim_spaces
from jokeapp.store.api import MatchRow, SeatRow, SpectatorRow

if TYPE_CHECKING:
    from jokeapp.rooms.room import Room


async def handle(room: Room, command: cmd.Command) -> Any:
    match command:
        case cmd.Join():
            return await join(room, command.nickname, command.role)
        case cmd.Leave():
            return await leave(room, command.token)
        case cmd.Start():
            _host(room, command.token)
            return await start(room)
        case cmd.AddBot():
            _host(room, command.token)
            return await add_bot(room, command.policy)
        case cmd.RemoveBot():
            _host(room, command.token)
            return await remove_bot(room, command.player_id)
        case cmd.Kick():
            host = _host(room, command.token)
            return await kick(room, host, command.player_id)
        case cmd.SetOptions():
            _host(room, command.token)
            return await set_options(room, command.options)
        case cmd.Rematch():
            _host(room, command.token)
            return await rematch(room)
        case cmd.AfkAnswer():
            host = _host(room, command.token)
            return await afk_answer(room, host, command.player_id, command.choice)
    raise TypeError(f"unknown command {command!r}")


def _host(room: Room, token: str) -> str:
    seat = room.seat_of(token_key(token))
    if seat is None:
        if token_key(token) in room.spectators:
            raise RoomError("not_host")
        raise RoomError("bad_token")
    if seat.player_id != room.host_id:
        raise RoomError("not_host")
    return seat.player_id


def _seat_row(room: Room, seat: Seat) -> SeatRow:
    return SeatRow(room.room_id, seat.player_id, seat.nickname, seat.token_key, seat.bot_policy)


async def join(room: Room, raw_nickname: str, role: str) -> tuple[str, str | None]:
    """Returns (token, player id or None for a spectator)."""
    if role == "spectator" and isinstance(raw_nickname, str) and not trim_spaces(raw_nickname):
        nickname = spectator_name(room)  # a spectator need not type a name
    else:
        nickname = clean_nickname(raw_nickname)
    token = new_token()
    key = token_key(token)
    if role == "spectator":
        room.spectators[key] = Spectator(key, nickname)
        await room.store.save_spectator(SpectatorRow(room.room_id, key, nickname))
        room.publish(room_changed=True)
        return token, None
    if room.status != "lobby":
        raise RoomError("already_started")
    player_id = free_player_id(room.seats, room.game.max_players)
    if player_id is None:
        raise RoomError("room_full")
    if any(s.nickname == nickname for s in room.seats.values()):
        raise RoomError("nickname_taken")
    seat = Seat(player_id, nickname, key)
    room.seats[player_id] = seat
    await room.store.save_seat(_seat_row(room, seat))
    if room.host_id is None:
        room.host_id = player_id
        await room.store.save_room(room.row())
    room.publish(room_changed=True)
    return token, player_id


def spectator_name(room: Room) -> str:
    """ "관전자 N" with the smallest N no spectator of the room is using."""
    taken = {s.nickname for s in room.spectators.values()}
    number = 1
    while f"관전자 {number}" in taken:
        number += 1
    return f"관전자 {number}"


async def leave(room: Room, token: str) -> None:
    key = token_key(token)
    if key in room.spectators:
        del room.spectators[key]
        await room.store.delete_spectator(room.room_id, key)
        _drop_connection(room, key, None, CLOSE_NORMAL)
        room.publish(room_changed=True)
        return
    seat = room.seat_of(key)
    if seat is None:
        raise RoomError("bad_token")
    await _vacate(room, seat)
    _drop_connection(room, key, None, CLOSE_NORMAL)
    if room.status == "playing" and not room.people_left():
        await room.finish(abandoned=True)  # bots never play on by themselves
    room.publish(room_changed=True)
    room.schedule()


async def _vacate(room: Room, seat: Seat) -> None:
    """Frees a seat in the lobby; mid-match the seat stays, played by the timeout rules."""
    if room.status == "playing":
        seat.token_key = None
        seat.connected = False
        await room.store.save_seat(_seat_row(room, seat))
    else:
        del room.seats[seat.player_id]
        await room.store.delete_seat(room.room_id, seat.player_id)
    if room.host_id == seat.player_id:
        room.host_id = next_host(room.seats, seat.player_id)
        await room.store.save_room(room.row())


def _drop_connection(room: Room, key: str, code: str | None, close_code: int) -> None:
    conn = room.conns.pop(key, None)
    if conn is not None:
        if code is not None:
            conn.send(error_frame(code))
        conn.close(close_code)


async def start(room: Room) -> dict[str, Any]:
    if room.status != "lobby":
        raise RoomError("wrong_status")
    await _begin_match(room)
    return room.info()


async def rematch(room: Room) -> dict[str, Any]:
    if room.status != "finished":
        raise RoomError("wrong_status")
    await _drop_gone_seats(room)
    await _begin_match(room)
    return room.info()


async def _drop_gone_seats(room: Room) -> None:
    """Seats of people who left or were kicked during the last match: nobody comes back."""
    for seat in [s for s in room.seats.values() if s.gone]:
        del room.seats[seat.player_id]
        await room.store.delete_seat(room.room_id, seat.player_id)


async def _begin_match(room: Room) -> None:
    count = len(room.seats)
    low, high = room.game.min_players, room.game.max_players
    if not low <= count <= high:
        raise RoomError("not_enough_players", {"min": low, "max": high})
    players = sorted(room.seats, key=seat_number)
    seed = new_seed()
    match = Match.begin(room.game, room.match_no + 1, room.options, players, seed)
    await room.store.begin_match(
        MatchRow(room.room_id, match.number, seed, players, dict(room.options))
    )
    room.match = match
    room.match_no = match.number
    room.status = "playing"
    room.abandoned = False
    room.reset_absences()
    await room.store.save_room(room.row())
    pause = presentation_pause(room.game, match.setup_events)  # e.g. the seat draw is shown first
    room.book.refresh(room.game.pending(match.state), None, room.clock.now(), pause)
    # The first update carries each viewer's copy of the setup events (a draw, a deal).
    room.publish(match.setup_events, room_changed=True)
    room.schedule()


async def add_bot(room: Room, policy: str) -> str:
    if room.status == "playing":
        raise RoomError("wrong_status")
    if policy not in room.game.bots:
        raise RoomError("unknown_bot")
    if room.status == "finished":
        await _drop_gone_seats(room)  # e.g. after a kick: the bot may take that seat
    player_id = free_player_id(room.seats, room.game.max_players)
    if player_id is None:
        raise RoomError("no_free_seat")
    bots = sum(1 for s in room.seats.values() if s.bot)
    seat = Seat(player_id, f"봇 {bots + 1}", None, bot_policy=level_name(room.game.bots, policy))
    room.seats[player_id] = seat
    await room.store.save_seat(_seat_row(room, seat))
    room.publish(room_changed=True)
    return player_id


async def remove_bot(room: Room, player_id: str) -> dict[str, Any]:
    if room.status == "playing":
        raise RoomError("wrong_status")
    seat = room.seats.get(player_id)
    if seat is None or not seat.bot:
        raise RoomError("seat_not_found")
    del room.seats[player_id]
    await room.store.delete_seat(room.room_id, player_id)
    room.publish(room_changed=True)
    return room.info()


async def kick(room: Room, host: str, player_id: str) -> dict[str, Any]:
    if player_id == host:
        raise RoomError("cannot_kick_self")
    seat = room.seats.get(player_id)
    if seat is None:
        raise RoomError("seat_not_found")
    key = seat.token_key
    if room.status == "playing":
        await _kick_mid_match(room, seat)
    else:
        del room.seats[player_id]
        await room.store.delete_seat(room.room_id, player_id)
        room.publish(room_changed=True)
    if key is not None:
        _drop_connection(room, key, "kicked", CLOSE_BY_CODE["kicked"])
    room.schedule()
    return room.info()


async def _kick_mid_match(room: Room, seat: Seat) -> None:
    from jokeapp.rooms.playing import act_for

    room.afk_offers.pop(seat.player_id, None)
    if not seat.bot:
        seat.token_key = None
        seat.connected = False
        await room.store.save_seat(_seat_row(room, seat))
    concede = room.concede_action()
    conceded = concede is not None and await act_for(room, seat.player_id, dict(concede))
    if not conceded:
        room.publish(room_changed=True)


async def set_options(room: Room, options: dict[str, Any]) -> dict[str, Any]:
    """In the lobby, or after a match and before the rematch (which then plays with them)."""
    if room.status == "playing":
        raise RoomError("wrong_status")
    try:
        room.options = resolve_options(room.game.options, {**room.options, **options})
    except GameError as exc:
        raise RoomError(exc.code, exc.detail) from exc
    await room.store.save_room(room.row())
    room.publish(room_changed=True)
    return room.info()


async def afk_answer(room: Room, host: str, player_id: str, choice: str) -> dict[str, Any]:
    if player_id not in room.afk_offers or room.status != "playing":
        raise RoomError("no_afk_offer")
    if choice == "kick":
        return await kick(room, host, player_id)
    # 계속: the offer closes; the count starts again from their next absent round
    del room.afk_offers[player_id]
    room.afk_rounds.pop(player_id, None)
    await room.save_absence(player_id)
    room.publish(room_changed=True)
    return room.info()
