"""Viewers whose update is the same get the very same message (a socket encodes it once);
the one acknowledging an action gets its own copy, and is sent it last."""

from __future__ import annotations

from typing import Any

from jokeapp.rooms import commands as cmd
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.members import token_key
from jokeapp.wire.protocol import ServerMessage, UpdateMessage


class KeptConn:
    def __init__(self, log: list[tuple[KeptConn, Any]]) -> None:
        self.log = log

    def send(self, message: ServerMessage) -> None:
        self.log.append((self, message))

    def close(self, code: int) -> None:
        pass


async def test_a_marble_action_sends_one_shared_update_and_one_acknowledgement(
    manager: RoomManager,
) -> None:
    room, host, _ = await manager.create("marble", {}, "n1")
    tokens = [host]
    for i in range(2, 5):
        token, _ = await room.call(cmd.Join(f"n{i}", "player"))
        tokens.append(token)
    log: list[tuple[KeptConn, Any]] = []
    conns = {}
    for token in tokens:
        conn = KeptConn(log)
        await room.call(cmd.Connect(conn, token))
        seat = room.members.seat_of(token_key(token))
        assert seat is not None
        conns[seat.player_id] = conn
    await room.call(cmd.Start(host))
    assert room.match is not None
    state = room.match.state
    player = state.order[state.current]
    log.clear()
    await room.call(cmd.ClientAction(conns[player], 1, {"type": "ROLL"}))
    updates = [(c, m) for c, m in log if isinstance(m, UpdateMessage)]
    assert len(updates) == 4
    others = [m for c, m in updates if c is not conns[player]]
    mine = updates[-1]
    assert mine[0] is conns[player] and mine[1].ack == 1  # the acknowledgement goes last
    # only the actor's own view can differ (a decision's choices are the mover's): the other
    # three viewers get one message, wherever they sit in the room's order
    assert others[0] is others[1] is others[2] and others[0].ack is None
    assert mine[1].events == others[0].events
