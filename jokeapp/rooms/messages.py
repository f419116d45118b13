"""What a room tells people, built as the wire's Structs (jokeapp.wire.protocol): its info,
the open deadlines, a snapshot, and the update sent to every open connection (each viewer's
own copy of the events and the view)."""

from __future__ import annotations

from typing import Any

import msgspec

from jokeapp.core.bots import offered_levels
from jokeapp.core.contract import Event, Game, ViewParts, redacted
from jokeapp.rooms.commands import Connection
from jokeapp.rooms.members import Seat
from jokeapp.rooms.room import Room
from jokeapp.rooms.viewpatch import Patch
from jokeapp.wire import protocol as p


def game_info(game: Game[Any]) -> p.GameInfo:
    return p.GameInfo(
        id=game.id,
        title=game.title,
        min_players=game.min_players,
        max_players=game.max_players,
        options=[
            p.OptionInfo(key=o.key, label=o.label, choices=list(o.choices), default=o.default)
            for o in game.options
        ],
        bots=list(game.bots),  # in level order: random, easy, normal, hard
        levels=offered_levels(game.bots),  # what a host picks from: easy, normal, hard
    )


def seat_info(seat: Seat, host_id: str | None, away: bool) -> p.SeatInfo:
    return p.SeatInfo(
        player_id=seat.player_id,
        nickname=seat.nickname,
        bot=seat.bot,
        connected=seat.connected or seat.bot,
        host=seat.player_id == host_id,
        bot_policy=seat.bot_policy,
        away=away,
    )


def room_info(room: Room) -> p.RoomInfo:
    members, series = room.members, room.series
    away = room.away_players()
    return p.RoomInfo(
        room_id=room.room_id,
        code=room.code,
        game=room.game.id,
        title=room.game.title,
        options=room.options,
        status=series.status,
        match=series.number,
        host_id=members.host_id,
        seats=[seat_info(s, members.host_id, s.player_id in away) for s in members.in_seat_order()],
        spectators=len(members.spectators),
        min_players=room.game.min_players,
        max_players=room.game.max_players,
        seed_hash=series.match.seed_hash if series.match is not None else None,
        afk_offers=[
            p.AfkOffer(player_id=player, rounds=n)
            for player, n in sorted(room.absences.offers.items())
        ],
        abandoned=series.abandoned,
    )


def pending_info(room: Room, deadlines: list[float | None] | None = None) -> list[p.PendingInfo]:
    """The open decisions with their deadlines (``deadlines``: the book's, already worked out
    for this update)."""
    if room.match is None or not room.series.playing:
        return []
    book = room.book
    if deadlines is None:
        deadlines = book.deadlines(room.members.seats)
    out = []
    for decision, when in zip(book.decisions, deadlines, strict=True):
        out.append(
            p.PendingInfo(
                player=decision.player,
                kind=decision.kind,
                deadline=None if when is None else int(when * 1000),
            )
        )
    return out


def snapshot(room: Room, key: str) -> p.SnapshotMessage:
    seat = room.members.seat_of(key)
    spectator = room.members.spectators.get(key)
    viewer = seat.player_id if seat is not None else None
    nickname = seat.nickname if seat is not None else (spectator.nickname if spectator else "")
    match = room.match
    view = room.view_for(viewer)
    room.audience.views.sent(viewer, view)  # the next update patches this one
    return p.SnapshotMessage(
        seq=room.audience.seq,
        room=room_info(room),
        you=p.You(
            player_id=viewer,
            role="player" if seat is not None else "spectator",
            nickname=nickname,
            host=viewer is not None and viewer == room.members.host_id,
        ),
        view=view,
        pending=pending_info(room),
        seed_hash=match.seed_hash if match is not None else None,
        last_client_seq=room.series.last_client_seq.get(viewer, 0) if viewer else 0,
        setup_events=setup_events_for(room, viewer),
    )


def setup_events_for(room: Room, viewer: str | None) -> list[Event] | None:
    """The viewer's copy of the match's setup events (a draw, a deal) until its first step,
    so someone who connects before anyone played can still be shown how it began."""
    match = room.match
    if match is None or not room.series.playing or match.steps > 0:
        return None
    return redacted(room.game, match.setup_events, viewer)


def publish(
    room: Room,
    events: list[Event] | None = None,
    *,
    room_changed: bool = False,
    actor: str | None = None,
    auto: bool = False,
    ack: tuple[str, int] | None = None,
    deadlines: list[float | None] | None = None,
) -> None:
    """Takes the next update number and sends it to everyone, filtered per viewer;
    ``deadlines``: the book's ``deadlines`` of now, if the caller worked them out."""
    audience = room.audience
    seq = audience.next_seq()
    away = room.away_players()
    if away != audience.away_sent:
        room_changed = True  # a seat's ``away`` changed: everyone must see it
    if room_changed:
        audience.away_sent = away
    info = room_info(room) if room_changed else None
    pending = pending_info(room, deadlines)
    viewer_of = room.members.viewer_of
    # every open connection with its viewer, once (a send may not change who is here)
    reached = [(key, conn, viewer_of(key)) for key, conn in audience]
    # every viewer's view at once, each sent as a patch of the one it holds (or whole); the
    # bots about to move get theirs in the same pass (their own keys over the same public
    # part), kept for their moves (Room.bot_view)
    viewers = dict.fromkeys([v for _, _, v in reached])
    bots = room.deciding_bots()
    if bots:
        shown = room.views_for([*viewers, *(b for b in bots if b not in viewers)])
        room.keep_bot_views(ViewParts(shown.public, {b: shown.own[b] for b in bots}))
        shown = ViewParts(shown.public, {v: shown.own[v] for v in viewers})
    else:
        shown = room.views_for(viewers)
    views = audience.views.update(shown)
    game = room.game
    events = events or []
    per_viewer: dict[str | None, p.UpdateMessage] = {}
    # the patched updates built so far, by what they carry: a viewer whose patch and events
    # equal one of them gets that very message (one object, which a socket encodes once)
    built: list[tuple[tuple[Patch | None, list[Event]], p.UpdateMessage]] = []
    acked: tuple[Connection, p.UpdateMessage] | None = None
    outgoing: dict[int, tuple[p.UpdateMessage, list[Connection]]] = {}  # by message, in order
    for key, conn, viewer in reached:
        message = per_viewer.get(viewer)
        if message is None:
            view, patch = views[viewer]
            seen = redacted(game, events, viewer) if events else []
            parts = (patch, seen)
            if view is None:
                message = next((m for carried, m in built if carried == parts), None)
            if message is None:
                message = p.UpdateMessage(
                    seq=seq,
                    events=seen,
                    view=view,
                    patch=patch,
                    pending=pending,
                    room=info,
                    ack=None,
                    actor=actor,
                    auto=auto,
                )
                if view is None:
                    built.append((parts, message))
            per_viewer[viewer] = message
        if ack is not None and ack[0] == key:
            acked = (conn, msgspec.structs.replace(message, ack=ack[1]))
        else:
            found = outgoing.get(id(message))
            if found is None:
                outgoing[id(message)] = (message, [conn])
            else:
                found[1].append(conn)
    # each message to all its connections one after the other (a socket encodes it once then);
    # the one the acting player's copy adds its ``ack`` to goes last, just before that copy,
    # whose encoding is then spliced from it (protocol.encode_acked)
    if acked is not None:
        base = outgoing.pop(id(per_viewer[viewer_of(ack[0])]), None) if ack is not None else None
        if base is not None:
            outgoing[id(base[0])] = base
    for message, conns in outgoing.values():
        for conn in conns:
            conn.send(message)
    if acked is not None:
        acked[0].send(acked[1])
