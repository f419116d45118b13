"""The acting player's copy of an update (its ``ack``) is spliced from the update's own
encoding (protocol.encode_acked), byte for byte what encoding it in full gives."""

from __future__ import annotations

import itertools
from typing import Any

import msgspec
import pytest

from jokeapp.server import ws
from jokeapp.wire import protocol as p


def _updates() -> list[p.UpdateMessage]:
    out = []
    for view, patch, room, actor, auto in itertools.product(
        [None, {"a": 1, "actor": "p2", "patch": [1]}],
        [None, [["/a", 2], "/b", ["/c", {"ack": 3, "auto": True}]]],
        [
            None,
            p.RoomInfo(
                room_id="r",
                code="C",
                game="g",
                title="t",
                options={},
                status=p.RoomStatus.PLAYING,
                match=1,
                host_id="p1",
                seats=[],
                spectators=0,
                min_players=2,
                max_players=4,
                seed_hash=None,
                afk_offers=[],
                abandoned=False,
            ),
        ],  # fmt: skip
        [None, "p1", 'p"2\\'],
        [False, True],
    ):
        out.append(
            p.UpdateMessage(
                seq=7,
                events=[{"type": "moved", "actor": "p1"}],
                pending=[p.PendingInfo(player="p1", kind="roll", deadline=123)],
                view=view,
                patch=patch,  # type: ignore[arg-type]
                room=room,
                actor=actor,
                auto=auto,
            )
        )
    return out


@pytest.mark.parametrize("message", _updates())
def test_the_spliced_ack_is_the_full_encoding(message: p.UpdateMessage) -> None:
    for ack in (0, 1, 12345):
        full = p.encode(msgspec.structs.replace(message, ack=ack))
        assert p.encode_acked(p.encode(message), message, ack) == full


def test_a_socket_splices_the_ack_of_the_update_it_just_encoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    message = _updates()[-1]
    acked = msgspec.structs.replace(message, ack=9)
    encoded: list[Any] = []
    real = p.encode

    def counted(value: Any) -> bytes:
        encoded.append(value)
        return real(value)

    monkeypatch.setattr(p, "encode", counted)
    payload, _ = ws._encoded(message)
    acked_payload, framed = ws._encoded(acked)
    assert acked_payload == real(acked)
    assert encoded == [message]  # the whole update encoded once, its acked copy spliced
    assert framed.endswith(acked_payload)
    other = msgspec.structs.replace(message, events=[], ack=9)  # not the same parts
    assert ws._encoded(other)[0] == real(other)
    assert encoded[-1] is other
