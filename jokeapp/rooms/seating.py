"""Who sits where: joining, leaving, the host's bots, kicks and answers to an AFK offer."""

from __future__ import annotations

from jokeapp.core.bots import level_name
from jokeapp.core.codes import CLOSE_BY_CODE, CLOSE_NORMAL
from jokeapp.rooms.errors import RoomError, error_frame
from jokeapp.rooms.members import Seat, Spectator, new_token, token_key
from jokeapp.rooms.messages import publish, room_info
from jokeapp.rooms.nickname import clean_nickname, trim_spaces
from jokeapp.rooms.room import Room
from jokeapp.rooms.status import RoomStatus
from jokeapp.rooms.turns import act_for
from jokeapp.store.api import SeatRow, SpectatorRow
from jokeapp.wire import protocol as p


def seat_row(room: Room, seat: Seat) -> SeatRow:
    return SeatRow(room.room_id, seat.player_id, seat.nickname, seat.token_key, seat.bot_policy)


async def join(room: Room, raw_nickname: str, role: str) -> tuple[str, str | None]:
    """Returns (token, player id or None for a spectator)."""
    members = room.members
    if role == "spectator" and isinstance(raw_nickname, str) and not trim_spaces(raw_nickname):
        nickname = members.spectator_name()  # a spectator need not type a name
    else:
        nickname = clean_nickname(raw_nickname)
    token = new_token()
    key = token_key(token)
    if role == "spectator":
        members.spectators[key] = Spectator(key, nickname)
        await room.store.save_spectator(SpectatorRow(room.room_id, key, nickname))
        publish(room, room_changed=True)
        return token, None
    if room.status != RoomStatus.LOBBY:
        raise RoomError("already_started")
    player_id = members.free_player_id(room.game.max_players)
    if player_id is None:
        raise RoomError("room_full")
    if any(s.nickname == nickname for s in members.seats.values()):
        raise RoomError("nickname_taken")
    seat = Seat(player_id, nickname, key)
    became_host = members.sit(seat)
    await room.store.save_seat(seat_row(room, seat))
    if became_host:
        await room.store.save_room(room.row())
    publish(room, room_changed=True)
    return token, player_id


async def leave(room: Room, token: str) -> None:
    key = token_key(token)
    if key in room.members.spectators:
        del room.members.spectators[key]
        await room.store.delete_spectator(room.room_id, key)
        drop_connection(room, key, None, CLOSE_NORMAL)
        publish(room, room_changed=True)
        return
    seat = room.members.seat_of(key)
    if seat is None:
        raise RoomError("bad_token")
    await _vacate(room, seat)
    drop_connection(room, key, None, CLOSE_NORMAL)
    if room.series.playing and not room.members.people_left():
        await room.finish(abandoned=True)  # bots never play on by themselves
    publish(room, room_changed=True)
    room.schedule()


async def _vacate(room: Room, seat: Seat) -> None:
    """Frees a seat in the lobby; mid-match the seat stays, played by the timeout rules."""
    if room.series.playing:
        seat.left()
        await room.store.save_seat(seat_row(room, seat))
    else:
        room.members.unseat(seat.player_id)
        await room.store.delete_seat(room.room_id, seat.player_id)
    if room.members.pass_host(seat.player_id):
        await room.store.save_room(room.row())


def drop_connection(room: Room, key: str, code: str | None, close_code: int) -> None:
    conn = room.audience.detach(key)
    if conn is not None:
        if code is not None:
            conn.send(error_frame(code))
        conn.close(close_code)


async def drop_gone_seats(room: Room) -> None:
    """Seats of people who left or were kicked during the last match: nobody comes back."""
    for seat in room.members.gone():
        room.members.unseat(seat.player_id)
        await room.store.delete_seat(room.room_id, seat.player_id)


async def add_bot(room: Room, policy: str) -> str:
    if room.series.playing:
        raise RoomError("wrong_status")
    if policy not in room.game.bots:
        raise RoomError("unknown_bot")
    if room.status == RoomStatus.FINISHED:
        await drop_gone_seats(room)  # e.g. after a kick: the bot may take that seat
    player_id = room.members.free_player_id(room.game.max_players)
    if player_id is None:
        raise RoomError("no_free_seat")
    bots = sum(1 for s in room.members.seats.values() if s.bot)
    seat = Seat(player_id, f"봇 {bots + 1}", None, bot_policy=level_name(room.game.bots, policy))
    room.members.sit(seat)
    await room.store.save_seat(seat_row(room, seat))
    publish(room, room_changed=True)
    return player_id


async def remove_bot(room: Room, player_id: str) -> p.RoomInfo:
    if room.series.playing:
        raise RoomError("wrong_status")
    seat = room.members.seats.get(player_id)
    if seat is None or not seat.bot:
        raise RoomError("seat_not_found")
    room.members.unseat(player_id)
    await room.store.delete_seat(room.room_id, player_id)
    publish(room, room_changed=True)
    return room_info(room)


async def kick(room: Room, host: str, player_id: str) -> p.RoomInfo:
    if player_id == host:
        raise RoomError("cannot_kick_self")
    seat = room.members.seats.get(player_id)
    if seat is None:
        raise RoomError("seat_not_found")
    key = seat.token_key
    if room.series.playing:
        await _kick_mid_match(room, seat)
    else:
        room.members.unseat(player_id)
        await room.store.delete_seat(room.room_id, player_id)
        publish(room, room_changed=True)
    if key is not None:
        drop_connection(room, key, "kicked", CLOSE_BY_CODE["kicked"])
    room.schedule()
    return room_info(room)


async def _kick_mid_match(room: Room, seat: Seat) -> None:
    room.absences.withdraw_offer(seat.player_id)
    if not seat.bot:
        seat.left()
        await room.store.save_seat(seat_row(room, seat))
    action = room.kick_action()
    applied = action is not None and await act_for(room, seat.player_id, dict(action))
    if not applied:
        publish(room, room_changed=True)


async def afk_answer(room: Room, host: str, player_id: str, choice: str) -> p.RoomInfo:
    if player_id not in room.absences.offers or not room.series.playing:
        raise RoomError("no_afk_offer")
    if choice == "kick":
        return await kick(room, host, player_id)
    room.absences.kept(player_id)  # 계속: the count starts again from their next absent round
    await room.save_absence(player_id)
    publish(room, room_changed=True)
    return room_info(room)
