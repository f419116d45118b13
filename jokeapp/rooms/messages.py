"""What a room tells people: its info, the open deadlines, a snapshot, and the update sent to
every open connection (each viewer's own copy of the events and the view)."""

from __future__ import annotations

from typing import Any

from jokeapp.core.contract import Event
from jokeapp.rooms.room import Room


def room_info(room: Room) -> dict[str, Any]:
    members, series = room.members, room.series
    away = room.away_players()
    return {
        "roomId": room.room_id,
        "code": room.code,
        "game": room.game.id,
        "title": room.game.title,
        "options": room.options,
        "status": str(series.status),
        "match": series.number,
        "hostId": members.host_id,
        "seats": [s.info(members.host_id, s.player_id in away) for s in members.in_seat_order()],
        "spectators": len(members.spectators),
        "minPlayers": room.game.min_players,
        "maxPlayers": room.game.max_players,
        "seedHash": series.match.seed_hash if series.match is not None else None,
        "afkOffers": [
            {"playerId": p, "rounds": n} for p, n in sorted(room.absences.offers.items())
        ],
        "abandoned": series.abandoned,
    }


def pending_info(room: Room) -> list[dict[str, Any]]:
    if room.match is None or not room.series.playing:
        return []
    out = []
    for decision in room.book.decisions:
        when = room.book.deadline(decision, room.members.seats.get(decision.player))
        out.append(
            {
                "player": decision.player,
                "kind": decision.kind,
                "deadline": None if when is None else int(when * 1000),
            }
        )
    return out


def snapshot(room: Room, key: str) -> dict[str, Any]:
    seat = room.members.seat_of(key)
    spectator = room.members.spectators.get(key)
    viewer = seat.player_id if seat is not None else None
    nickname = seat.nickname if seat is not None else (spectator.nickname if spectator else "")
    match = room.match
    return {
        "type": "snapshot",
        "seq": room.audience.seq,
        "room": room_info(room),
        "you": {
            "playerId": viewer,
            "role": "player" if seat is not None else "spectator",
            "nickname": nickname,
            "host": viewer is not None and viewer == room.members.host_id,
        },
        "view": room.view_for(viewer),
        "pending": pending_info(room),
        "seedHash": match.seed_hash if match is not None else None,
        "lastClientSeq": room.series.last_client_seq.get(viewer, 0) if viewer else 0,
        "setupEvents": setup_events_for(room, viewer),
    }


def setup_events_for(room: Room, viewer: str | None) -> list[Event] | None:
    """The viewer's copy of the match's setup events (a draw, a deal) until its first step,
    so someone who connects before anyone played can still be shown how it began."""
    match = room.match
    if match is None or not room.series.playing or match.steps > 0:
        return None
    return redacted(room, match.setup_events, viewer)


def publish(
    room: Room,
    events: list[Event] | None = None,
    *,
    room_changed: bool = False,
    actor: str | None = None,
    auto: bool = False,
    ack: tuple[str, int] | None = None,
) -> None:
    """Takes the next update number and sends it to everyone, filtered per viewer."""
    audience = room.audience
    seq = audience.next_seq()
    away = room.away_players()
    if away != audience.away_sent:
        room_changed = True  # a seat's ``away`` changed: everyone must see it
    if room_changed:
        audience.away_sent = away
    info = room_info(room) if room_changed else None
    pending = pending_info(room)
    per_viewer: dict[str | None, dict[str, Any]] = {}
    for key, conn in audience:
        viewer = room.members.viewer_of(key)
        if viewer not in per_viewer:
            per_viewer[viewer] = {
                "type": "update",
                "seq": seq,
                "events": redacted(room, events or [], viewer),
                "view": room.view_for(viewer),
                "pending": pending,
                "room": info,
                "ack": None,
                "actor": actor,
                "auto": auto,
            }
        message = per_viewer[viewer]
        if ack is not None and ack[0] == key:
            message = {**message, "ack": ack[1]}
        conn.send(message)


def redacted(room: Room, events: list[Event], viewer: str | None) -> list[Event]:
    out = []
    for event in events:
        copy = room.game.redact_event(event, viewer)
        if copy is not None:
            out.append(copy)
    return out
