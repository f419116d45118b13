"""Store behaviour, identical on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from jokeapp.store.api import ActionRow, MatchRow, RoomRow, SeatRow, SpectatorRow, StoreError
from jokeapp.store.sql import SqlStore, database_url

ROOM = RoomRow("r1", "ABCDEF", "race", {"turnSeconds": 10}, "lobby", 0, "p1", 1.5)


async def test_room_seats_and_spectators_round_trip(sql_store: SqlStore) -> None:
    await sql_store.save_room(ROOM)
    await sql_store.save_seat(SeatRow("r1", "p1", "수진", "k1", None))
    await sql_store.save_seat(SeatRow("r1", "p2", "봇 1", None, "random"))
    await sql_store.save_spectator(SpectatorRow("r1", "k9", "구경"))
    loaded = await sql_store.load_room("ABCDEF")
    assert loaded is not None and loaded.room == ROOM
    assert sorted((s.player_id, s.nickname, s.token_key, s.bot_policy) for s in loaded.seats) == [
        ("p1", "수진", "k1", None),
        ("p2", "봇 1", None, "random"),
    ]
    assert loaded.spectators == [SpectatorRow("r1", "k9", "구경")] and loaded.match is None
    await sql_store.delete_seat("r1", "p2")
    await sql_store.delete_spectator("r1", "k9")
    again = await sql_store.load_room("r1")
    assert (
        again is not None
        and [s.player_id for s in again.seats] == ["p1"]
        and again.spectators == []
    )
    assert await sql_store.code_taken("ABCDEF") and not await sql_store.code_taken("ZZZZZZ")
    assert await sql_store.load_room("nope") is None


async def test_room_updates_are_upserts(sql_store: SqlStore) -> None:
    await sql_store.save_room(ROOM)
    await sql_store.save_room(
        RoomRow("r1", "ABCDEF", "race", {"turnSeconds": 30}, "playing", 1, "p2", 1.5)
    )
    loaded = await sql_store.load_room("r1")
    assert (
        loaded is not None
        and loaded.room.status == "playing"
        and loaded.room.options == {"turnSeconds": 30}
    )
    assert await sql_store.unfinished_room_ids() == ["r1"]


async def test_a_rooms_reserved_update_numbers_are_kept_with_its_row(sql_store: SqlStore) -> None:
    await sql_store.save_room(ROOM)
    loaded = await sql_store.load_room("r1")
    assert loaded is not None and loaded.room.seq_reserved == 0
    await sql_store.save_room(
        RoomRow("r1", "ABCDEF", "race", {"turnSeconds": 10}, "lobby", 0, "p1", 1.5, 2**31 - 1)
    )
    loaded = await sql_store.load_room("ABCDEF")
    assert loaded is not None and loaded.room.seq_reserved == 2**31 - 1


async def test_action_log_is_unique_per_room_match_and_step(sql_store: SqlStore) -> None:
    await sql_store.save_room(ROOM)
    await sql_store.begin_match(MatchRow("r1", 1, 2**62 + 7, ["p1", "p2"], {"turnSeconds": 10}))
    await sql_store.append_action(ActionRow("r1", 1, 1, 5, "p1", {"type": "confirm"}, False, 1))
    with pytest.raises(StoreError):
        await sql_store.append_action(ActionRow("r1", 1, 1, 6, "p2", {"type": "confirm"}, False, 1))
    await sql_store.append_action(
        ActionRow("r1", 1, 2, 6, "p2", {"type": "step", "n": 2}, True, None)
    )
    stored = await sql_store.match_log("r1", 1)
    assert stored is not None
    row, actions = stored
    assert row.seed == 2**62 + 7 and row.players == ["p1", "p2"]
    assert [(a.step, a.actor, a.action, a.auto) for a in actions] == [
        (1, "p1", {"type": "confirm"}, False),
        (2, "p2", {"type": "step", "n": 2}, True),
    ]


async def test_a_failed_write_does_not_fail_the_writes_committed_with_it(
    sql_store: SqlStore,
) -> None:
    await sql_store.save_room(ROOM)
    await sql_store.begin_match(MatchRow("r1", 1, 1, ["p1"], {}))
    await sql_store.append_action(ActionRow("r1", 1, 1, 1, "p1", {"type": "a"}, False))
    good = [
        sql_store.append_action(ActionRow("r1", 1, s, s, "p1", {"type": "a"}, False))
        for s in range(2, 30)
    ]
    bad = sql_store.append_action(ActionRow("r1", 1, 1, 99, "p1", {"type": "dup"}, False))
    outcomes = await asyncio.gather(*good, bad, return_exceptions=True)
    assert all(o is None for o in outcomes[:-1]) and isinstance(outcomes[-1], StoreError)
    stored = await sql_store.match_log("r1", 1)
    assert stored is not None and [a.step for a in stored[1]] == list(range(1, 30))


async def test_load_gives_the_latest_snapshot_and_the_tail_after_it(sql_store: SqlStore) -> None:
    await sql_store.save_room(RoomRow("r1", "ABCDEF", "race", {}, "playing", 1, "p1", 0.0))
    await sql_store.begin_match(MatchRow("r1", 1, 9, ["p1", "p2"], {}))
    for step in range(1, 8):
        await sql_store.append_action(
            ActionRow("r1", 1, step, step + 10, "p1", {"n": step}, False, step)
        )
    await sql_store.save_snapshot("r1", 1, 3, {"at": 3})
    await sql_store.save_snapshot("r1", 1, 5, {"at": 5, "text": "한글"})
    loaded = await sql_store.load_room("r1")
    assert loaded is not None and loaded.snapshot == (5, {"at": 5, "text": "한글"})
    assert [a.step for a in loaded.tail] == [6, 7] and loaded.last_seq == 17
    assert loaded.last_client_seq == {"p1": 7}


async def test_results_are_kept_per_match(sql_store: SqlStore) -> None:
    await sql_store.save_room(ROOM)
    await sql_store.begin_match(MatchRow("r1", 1, 9, ["p1", "p2"], {}))
    await sql_store.finish_match("r1", 1, {"winners": ["p2"]})
    stored = await sql_store.match_log("r1", 1)
    assert stored is not None and stored[0].result == {"winners": ["p2"]}


def test_database_url_takes_a_path_or_a_postgres_url() -> None:
    assert database_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("var/x.sqlite3").startswith("sqlite+aiosqlite:////")


async def test_absence_counters_are_kept_per_match_and_upserted(sql_store: SqlStore) -> None:
    from jokeapp.store.api import AbsenceRow

    await sql_store.save_room(RoomRow("r1", "ABCDEF", "race", {}, "playing", 2, "p1", 1.5))
    await sql_store.begin_match(MatchRow("r1", 1, 1, ["p1", "p2"], {}))
    await sql_store.begin_match(MatchRow("r1", 2, 2, ["p1", "p2"], {}))
    await sql_store.save_absence(
        AbsenceRow("r1", 1, "p2", 3, 2, 7, 2)
    )  # an earlier match: not loaded
    await sql_store.save_absence(AbsenceRow("r1", 2, "p2", 1, 1, 4, None))
    await sql_store.save_absence(AbsenceRow("r1", 2, "p2", 2, 2, 5, 2))
    loaded = await sql_store.load_room("r1")
    assert loaded is not None and loaded.absences == [AbsenceRow("r1", 2, "p2", 2, 2, 5, 2)]


async def test_a_batch_of_actions_is_one_request_on_postgresql(sql_store: SqlStore) -> None:
    await sql_store.save_room(RoomRow("r1", "ABCDEF", "race", {}, "playing", 1, "p1", 1.5))
    await sql_store.begin_match(MatchRow("r1", 1, 7, ["p1"], {}))
    assert await sql_store.claim_room("r1", 1, "a")
    sql_store.commit_spacing = 0.2  # the actions below wait together for the next commit
    await sql_store.append_action(ActionRow("r1", 1, 1, 1, "p1", {"n": 1}, False, 1, 2.5))
    before = sql_store.round_trips
    await asyncio.gather(
        *(
            sql_store.append_action(ActionRow("r1", 1, n, n, "p1", {"n": n}, n == 3, None, None))
            for n in (2, 3, 4)
        )
    )
    if sql_store.engine.dialect.name == "postgresql":
        assert sql_store.round_trips - before == 1  # no BEGIN, fence, INSERT and COMMIT apart
    stored = await sql_store.match_log("r1", 1)
    assert stored is not None
    assert [(x.step, x.auto, x.client_seq, x.at) for x in stored[1]] == [
        (1, False, 1, 2.5), (2, False, None, None), (3, True, None, None), (4, False, None, None)
    ]  # fmt: skip


async def test_appends_come_back_after_postgresql_dropped_the_connections(
    pg_store: SqlStore,
) -> None:
    await pg_store.save_room(RoomRow("r1", "ABCDEF", "race", {}, "playing", 1, "p1", 1.5))
    await pg_store.begin_match(MatchRow("r1", 1, 7, ["p1"], {}))
    await pg_store.engine.dispose()
    await pg_store.append_action(ActionRow("r1", 1, 1, 1, "p1", {"n": 1}, False, 1))
    assert pg_store._held is not None  # the connection the writer holds, its appends' one
    pid = pg_store._held[1].get_server_pid()
    import asyncpg  # type: ignore[import-untyped]

    admin = await asyncpg.connect(str(pg_store.engine.url).replace("+asyncpg", ""))
    try:
        await admin.execute("SELECT pg_terminate_backend($1)", pid)  # as a restart would
        while await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid):
            await asyncio.sleep(0.01)  # the backend ends a moment after it is told to
    finally:
        await admin.close()
    accepted: list[int] = []
    for step in range(2, 12):
        try:
            await pg_store.append_action(ActionRow("r1", 1, step, step, "p1", {}, False, step))
        except StoreError:
            assert not accepted  # a lost connection fails its write, and is not handed out again
            continue
        accepted.append(step)
    stored = await pg_store.match_log("r1", 1)
    assert stored is not None and [x.step for x in stored[1]] == [1, *accepted]
    assert len(accepted) >= 5


async def test_two_writes_of_one_room_in_a_batch_are_applied_in_their_order(
    sql_store: SqlStore,
) -> None:
    await sql_store.save_room(RoomRow("r1", "ABCDEF", "race", {}, "lobby", 0, "p1", 1.5))
    await sql_store.save_seat(SeatRow("r1", "p2", "둘", None, None))
    sql_store.commit_spacing = 0.2  # the writes of each gather wait together for one commit
    await sql_store.save_seat(SeatRow("r1", "p9", "구", None, None))  # a commit begins now
    await asyncio.gather(
        sql_store.delete_seat("r1", "p2"),
        sql_store.save_seat(SeatRow("r1", "p2", "새", None, None)),
    )
    loaded = await sql_store.load_room("r1")
    assert loaded is not None and {s.player_id: s.nickname for s in loaded.seats} == {
        "p2": "새",
        "p9": "구",
    }
    await asyncio.gather(
        sql_store.save_seat(SeatRow("r1", "p9", "다시", None, None)),
        sql_store.delete_seat("r1", "p9"),
    )
    loaded = await sql_store.load_room("r1")
    assert loaded is not None and [s.player_id for s in loaded.seats] == ["p2"]
