"""Ownership fencing (cluster mode), on the memory store, SQLite and PostgreSQL: two nodes'
stores on one database, the second claiming a room the first still believes it owns."""

from __future__ import annotations

import asyncio

import pytest

from jokeapp.store.api import ActionRow, FencedError, MatchRow, RoomRow, Store
from jokeapp.store.sql import SqlStore

ROOM = RoomRow("r1", "ABCDEF", "race", {}, "playing", 1, "p1", 1.5)


def action(step: int) -> ActionRow:
    return ActionRow("r1", 1, step, step, "p1", {"type": "step", "n": step}, False, step)


async def _room(store: Store) -> None:
    await store.save_room(ROOM)
    await store.begin_match(MatchRow("r1", 1, 7, ["p1", "p2"], {}))


async def _steps(store: Store) -> list[int]:
    stored = await store.match_log("r1", 1)
    assert stored is not None
    return [a.step for a in stored[1]]


async def test_a_stale_owner_cannot_append_and_is_told_which_room(two_nodes: list[Store]) -> None:
    a, b = two_nodes
    fenced: list[str] = []
    a.on_fenced.append(fenced.append)
    assert await a.claim_room("r1", 1, "a")
    await _room(a)
    await a.append_action(action(1))
    # a's lease expired while it was paused; b took the room over with the next epoch
    assert await b.claim_room("r1", 2, "b")
    assert await b.room_owner("r1") == (2, "b")
    with pytest.raises(FencedError) as refused:
        await a.append_action(action(2))
    assert refused.value.room_id == "r1" and fenced == ["r1"]
    with pytest.raises(FencedError):
        await a.save_room(RoomRow("r1", "ABCDEF", "race", {}, "finished", 1, "p1", 1.5))
    await b.append_action(action(2))
    assert await _steps(b) == [1, 2]
    loaded = await b.load_room("r1")
    assert loaded is not None and loaded.room.status == "playing"  # a's write left nothing


async def test_an_older_epoch_cannot_claim_back(two_nodes: list[Store]) -> None:
    a, b = two_nodes
    assert await b.claim_room("r1", 3, "b")
    assert not await a.claim_room("r1", 2, "a")
    assert not await a.claim_room("r1", 3, "a")
    assert await b.room_owner("r1") == (3, "b")
    await _room(b)  # b still writes: a's refused claims changed nothing


async def test_a_released_room_is_fenced_locally_and_unclaimed_rooms_write_freely(
    two_nodes: list[Store],
) -> None:
    a, b = two_nodes
    await _room(a)  # never claimed: one process without a cluster writes as before
    await a.append_action(action(1))
    assert await a.room_owner("r1") is None
    assert await a.claim_room("r1", 1, "a")
    a.release_room("r1")  # a let the lease go (or lost it): nothing more from a
    with pytest.raises(FencedError):
        await a.append_action(action(2))
    assert await _steps(b) == [1]


async def test_writes_queued_before_a_takeover_are_refused_after_it(
    two_nodes: list[Store],
) -> None:
    a, b = two_nodes
    assert await a.claim_room("r1", 1, "a")
    await _room(a)
    # many writes in flight from a, and b's claim racing them: each of a's writes is either
    # in the log before b's claim took effect or refused, never after it
    pending = [asyncio.ensure_future(a.append_action(action(n))) for n in range(1, 40)]
    await asyncio.sleep(0)
    assert await b.claim_room("r1", 2, "b")
    outcomes = await asyncio.gather(*pending, return_exceptions=True)
    stored = await _steps(b)
    accepted = [n for n, o in zip(range(1, 40), outcomes, strict=True) if o is None]
    assert all(isinstance(o, FencedError) for o in outcomes if o is not None)
    assert stored == accepted  # every acknowledged write is in the log, no refused one is
    await b.append_action(action(len(stored) + 1))
    with pytest.raises(FencedError):
        await a.append_action(action(len(stored) + 2))


async def test_one_batch_of_actions_commits_the_fresh_rooms_and_refuses_the_stale_one(
    two_nodes: list[Store],
) -> None:
    a, b = two_nodes
    fenced: list[str] = []
    a.on_fenced.append(fenced.append)
    rooms = {"r1": 1, "r2": 1, "r3": None}  # r3: never claimed (written freely)
    for rid, epoch in rooms.items():
        if epoch is not None:
            assert await a.claim_room(rid, epoch, "a")
        await a.save_room(RoomRow(rid, f"CODE{rid}", "race", {}, "playing", 1, "p1", 1.5))
        await a.begin_match(MatchRow(rid, 1, 7, ["p1", "p2"], {}))
    if isinstance(a, SqlStore):
        a.commit_spacing = 0.2  # the appends below wait together for a's next commit
    assert await b.claim_room("r2", 2, "b")  # r2 moved to b while a was paused

    def step(rid: str, n: int) -> ActionRow:
        return ActionRow(rid, 1, n, n, "p1", {"type": "step", "n": n}, False, n)

    outcomes = await asyncio.gather(
        *(a.append_action(step(rid, n)) for n in (1, 2) for rid in rooms),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if o is not None]
    assert len(refused) == 2 and all(isinstance(o, FencedError) for o in refused)
    assert set(fenced) == {"r2"}
    for rid, steps in (("r1", [1, 2]), ("r2", []), ("r3", [1, 2])):
        stored = await b.match_log(rid, 1)
        assert stored is not None and [x.step for x in stored[1]] == steps
        assert [x.action for x in stored[1]] == [{"type": "step", "n": n} for n in steps]
