"""Ownership fencing (cluster mode), on the memory store, SQLite and PostgreSQL: two nodes'
stores on one database, the second claiming a room the first still believes it owns."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from jokeapp.store import tables as t
from jokeapp.store.api import ActionRow, FencedError, MatchRow, RoomRow, SeatRow, Store
from jokeapp.store.sql import SqlStore
from tests.store.conftest import sql_stores

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


async def test_a_mixed_batch_commits_every_kind_of_row_and_refuses_the_stale_room_s(
    two_nodes: list[Store],
) -> None:
    """Appends, a snapshot, a room's row, a seat and a seat's removal in one batch (one
    request on PostgreSQL): each fresh room's write is stored, the stale room's refused."""
    a, b = two_nodes
    fenced: list[str] = []
    a.on_fenced.append(fenced.append)
    rooms = ["r1", "r2", "r3", "r4", "r5", "r6"]
    for rid in rooms:
        assert await a.claim_room(rid, 1, "a")
        await a.save_room(RoomRow(rid, f"CODE{rid}", "race", {}, "playing", 1, "p1", 1.5))
        await a.begin_match(MatchRow(rid, 1, 7, ["p1", "p2"], {}))
        await a.save_seat(SeatRow(rid, "p2", "둘", None, None))
    if isinstance(a, SqlStore):
        a.commit_spacing = 0.2  # the writes below wait together for a's next commit
    assert await b.claim_room("r6", 2, "b")  # r6 moved to b while a was paused
    await a.append_action(ActionRow("r1", 1, 1, 1, "p1", {"n": 1}, False, 1))  # a commits
    before = a.round_trips if isinstance(a, SqlStore) else 0
    outcomes = await asyncio.gather(
        a.append_action(ActionRow("r1", 1, 2, 2, "p1", {"n": 2}, False, 2)),
        a.save_snapshot("r2", 1, 50, {"at": 50}),
        a.save_room(RoomRow("r3", "CODEr3", "race", {}, "finished", 1, "p1", 1.5, 9)),
        a.delete_seat("r4", "p2"),
        a.save_seat(SeatRow("r5", "p3", "셋", "k", None)),
        a.save_snapshot("r6", 1, 50, {"at": 50}),
        return_exceptions=True,
    )
    assert all(o is None for o in outcomes[:5]) and isinstance(outcomes[5], FencedError)
    assert fenced == ["r6"]
    if isinstance(a, SqlStore) and a.engine.dialect.name == "postgresql":
        assert a.round_trips - before == 1  # no BEGIN, fence, statements and COMMIT apart
    loaded = {rid: await b.load_room(rid) for rid in rooms}
    assert all(room is not None for room in loaded.values())
    assert [x.step for x in loaded["r1"].tail] == [1, 2]  # type: ignore[union-attr]
    assert loaded["r2"].snapshot == (50, {"at": 50})  # type: ignore[union-attr]
    r3 = loaded["r3"].room  # type: ignore[union-attr]
    assert (r3.status, r3.seq_reserved) == ("finished", 9)
    assert [s.player_id for s in loaded["r4"].seats] == []  # type: ignore[union-attr]
    assert sorted(s.player_id for s in loaded["r5"].seats) == ["p2", "p3"]  # type: ignore[union-attr]
    assert loaded["r6"].snapshot is None  # type: ignore[union-attr]


async def test_an_owner_frozen_inside_its_commit_does_not_hold_the_takeover_s_claim(
    tmp_path: Path,
) -> None:
    """PostgreSQL: a frozen at the worst moment, its fence's owner row locked and its COMMIT
    not sent (a stopped VM): the server ends a's idle transaction, so b's claim goes through
    while a is still frozen, and nothing of a's transaction is kept."""
    async with sql_stores("postgresql", tmp_path, 2) as (a, b):
        assert await a.claim_room("r1", 1, "a")
        await _room(a)
        conn = await a.engine.connect()
        try:
            frozen = await conn.begin()
            owners = t.room_owners
            await conn.execute(sa.select(owners).where(owners.c.room_id == "r1").with_for_update())
            await conn.execute(sa.insert(t.actions), _row(action(1)))
            # a hang guard (the server ends a's transaction after IDLE_IN_TRANSACTION_MS)
            async with asyncio.timeout(60):
                assert await b.claim_room("r1", 2, "b")
            with pytest.raises(sa.exc.DBAPIError):  # a wakes up: its transaction was ended
                await frozen.commit()
        finally:
            with contextlib.suppress(sa.exc.DBAPIError):
                await conn.close()
        assert await _steps(b) == []
        with pytest.raises(FencedError):
            await a.append_action(action(1))


def _row(row: ActionRow) -> dict[str, object]:
    return {**dataclasses.asdict(row), "action": json.dumps(row.action)}
