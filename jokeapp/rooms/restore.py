"""Rebuilding a room from the store: after a restart, or when a finished room is looked up."""

from __future__ import annotations

from typing import Any

from jokeapp.core.contract import Game
from jokeapp.rooms.clock import Clock
from jokeapp.rooms.match import LoggedStep, Match
from jokeapp.rooms.members import Seat, Spectator
from jokeapp.rooms.room import Room
from jokeapp.rooms.series import Series
from jokeapp.rooms.status import RoomStatus
from jokeapp.store.api import LoadedRoom, Store


def restore_room(
    loaded: LoadedRoom,
    game: Game[Any],
    store: Store,
    clock: Clock,
    bot_delay: float,
    *,
    resume_clocks: bool = False,
) -> Room:
    """``resume_clocks``: the open decisions started when the last action was applied (a
    node taking the room over), so a deadline that passed meanwhile fires at once; without
    it they start now (a restart gives everyone their time again)."""
    row = loaded.room
    room = Room(
        room_id=row.room_id,
        code=row.code,
        game=game,
        options=row.options,
        store=store,
        clock=clock,
        bot_delay=bot_delay,
        created_at=row.created_at,
    )
    now = clock.now()
    status = RoomStatus(row.status)
    room.series = Series(
        status=status,
        number=row.match,
        finished_at=now if status is RoomStatus.FINISHED else None,
        last_client_seq=dict(loaded.last_client_seq),
    )
    room.members.host_id = row.host_id
    for seat_row in loaded.seats:
        # Nobody is connected to a server that just started: people get their grace from now.
        room.members.seats[seat_row.player_id] = Seat(
            seat_row.player_id,
            seat_row.nickname,
            seat_row.token_key,
            seat_row.bot_policy,
            connected=False,
            disconnected_at=now,
        )
    for spec_row in loaded.spectators:
        room.members.spectators[spec_row.token_key] = Spectator(
            spec_row.token_key, spec_row.nickname
        )
    room.audience.seq = loaded.last_seq
    if loaded.match is not None:
        m = loaded.match
        tail = [LoggedStep(a.actor, a.action, a.auto) for a in loaded.tail]
        match = Match.restore(game, m.match, m.options, m.players, m.seed, loaded.snapshot, tail)
        if loaded.tail:
            match.steps = loaded.tail[-1].step
        room.series.match = match
        if status is RoomStatus.PLAYING and not match.over:
            since = loaded.last_action_at if resume_clocks else None
            room.book.refresh(game.pending(match.state), None, since or now)
            room.absences.load(loaded.absences)
        room.series.abandoned = bool((m.result or {}).get("abandoned"))
    return room
