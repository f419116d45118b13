"""Rebuilding a room from the store: after a restart, or when a finished room is looked up."""

from __future__ import annotations

from typing import Any

from jokeapp.core.contract import Game
from jokeapp.rooms.clock import Clock
from jokeapp.rooms.match import LoggedStep, Match
from jokeapp.rooms.members import Members, Seat, Spectator
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
    now = clock.now()
    status = RoomStatus(row.status)
    match = _match(loaded, game)
    room = Room(
        room_id=row.room_id,
        code=row.code,
        game=game,
        options=row.options,
        store=store,
        clock=clock,
        bot_delay=bot_delay,
        created_at=row.created_at,
        members=_members(loaded, now),
        series=Series(
            status=status,
            number=row.match,
            match=match,
            abandoned=bool(
                loaded.match is not None and (loaded.match.result or {}).get("abandoned")
            ),
            finished_at=now if status is RoomStatus.FINISHED else None,
            last_client_seq=dict(loaded.last_client_seq),
        ),
        # above every number sent: the log's last action's, and those reserved for room changes
        seq=max(loaded.last_seq, row.seq_reserved),
        seq_reserved=row.seq_reserved,
    )
    if match is not None and status is RoomStatus.PLAYING and not match.over:
        since = loaded.last_action_at if resume_clocks else None
        room.book.refresh(game.pending(match.state), None, since or now)
        room.absences.load(loaded.absences)
    return room


def _members(loaded: LoadedRoom, now: float) -> Members:
    # Nobody is connected to a server that just started: people get their grace from now.
    seats = {
        r.player_id: Seat(
            r.player_id, r.nickname, r.token_key, r.bot_policy, connected=False, disconnected_at=now
        )
        for r in loaded.seats
    }
    spectators = {r.token_key: Spectator(r.token_key, r.nickname) for r in loaded.spectators}
    return Members(seats, spectators, loaded.room.host_id)


def _match(loaded: LoadedRoom, game: Game[Any]) -> Match | None:
    """The room's last match, from its snapshot and the log's tail (None before the first)."""
    m = loaded.match
    if m is None:
        return None
    tail = [LoggedStep(a.actor, a.action, a.auto) for a in loaded.tail]
    match = Match.restore(game, m.match, m.options, m.players, m.seed, loaded.snapshot, tail)
    match.remember_only(r.player_id for r in loaded.seats if r.bot_policy is not None)
    if loaded.tail:
        match.steps = loaded.tail[-1].step
    return match
