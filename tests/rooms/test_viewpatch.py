"""Views sent as what changed: the patch between the view a viewer holds and the next."""

from __future__ import annotations

import json
from typing import Any

import jsonpatch
import jsonpointer
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jokeapp.core.contract import ViewParts, view_parts
from jokeapp.rooms.clock import FakeClock
from jokeapp.rooms.manager import RoomManager
from jokeapp.rooms.viewpatch import MAX_OPS, Patch, SentViews, apply_patch, diff
from tests.rooms.conftest import FakeConn
from tests.rooms.view_stream import GAMES, stream


def same(a: Any, b: Any) -> bool:
    """Equal as JSON, types included (``1`` is not ``true``), whatever the key order."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def copied(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def rfc6902(doc: Any, ops: Any) -> Any:
    """``ops`` applied by the RFC 6902 reference library, each read as the operation it is:
    a lone path is ``remove``; ``[path, value]`` is ``add`` for a new member or a new last
    item, else ``replace``."""
    for op in ops:
        if isinstance(op, str):
            doc = jsonpatch.apply_patch(doc, [{"op": "remove", "path": op}])
            continue
        path, value = op
        new = False
        if path:
            parent_path, _, last = path.rpartition("/")
            parent = jsonpointer.resolve_pointer(doc, parent_path)
            if isinstance(parent, list):
                new = last == str(len(parent))
            else:
                new = jsonpointer.unescape(last) not in parent
        kind = "add" if new else "replace"
        doc = jsonpatch.apply_patch(doc, [{"op": kind, "path": path, "value": value}])
    return doc


keys = st.sampled_from(["a", "b", "c", "p1", "a/b", "m~n", "", "0", "10"])


def json_of(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        st.none() | leaves | st.sampled_from(["x", "y", "한"]),
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner, max_size=5),
        max_leaves=30,
    )


# A view keeps each field's type (jokeapp/games/*/wire.py): a field is a number or a boolean,
# never one then the other, which ``==`` could not tell apart inside an equal container.
kinds = st.sampled_from([json_of(st.integers(-3, 3)), json_of(st.booleans())])
json_pairs = kinds.flatmap(lambda values: st.tuples(values, values))
json_values = kinds.flatmap(lambda values: values)


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(json_pairs)
def test_a_diff_applied_by_an_rfc_6902_library_gives_the_new_value(pair: tuple[Any, Any]) -> None:
    old, new = pair
    ops = diff(old, new)
    assert same(rfc6902(copied(old), ops), new)
    assert same(apply_patch(copied(old), ops), new)
    # as the wire carries them: a path alone, or a path and its value
    wire = msgspec.json.decode(msgspec.json.encode(ops))
    assert all(isinstance(op, str) or (len(op) == 2 and isinstance(op[0], str)) for op in wire)
    assert same(apply_patch(copied(old), wire), new)


@settings(deadline=None)
@given(json_values)
def test_an_equal_value_needs_no_operation(value: Any) -> None:
    assert diff(value, copied(value)) == []


def test_a_type_change_is_a_replace_and_keys_are_escaped() -> None:
    assert diff({"a": 1}, {"a": "1"}) == [("/a", "1")]
    assert diff({"a": None}, {"a": False}) == [("/a", False)]
    assert diff({"a": 1}, {"a": None}) == [("/a", None)]  # null is a value, not a removal
    assert diff({"a": 1, "b": 2}, {"b": 2}) == ["/a"]
    assert diff([1], {"0": 1}) == [("", {"0": 1})]
    assert diff({"a/b": 1, "m~n": 1}, {"a/b": 2, "m~n": 2}) == [("/a~1b", 2), ("/m~0n", 2)]
    # a card played from the middle of a hand is one remove, not a shift of every later card
    hand = [{"id": f"0{n}"} for n in range(1, 8)]
    assert diff(hand, hand[:2] + hand[4:]) == ["/2", "/2"]
    # a list grows at its end; what was inserted before the end is put item by item
    assert diff(hand, [*hand, {"id": "08"}]) == [("/7", {"id": "08"})]
    grown = [*hand[:3], {"id": "x"}, *hand[3:]]
    assert same(apply_patch(copied(hand), diff(hand, grown)), grown)


def test_a_patch_that_does_not_fit_the_view_raises() -> None:
    misfits: list[Patch] = [
        ["/b"],
        [("/a/0", 1)],
        [("/l/3", 1)],
        [("/l/-", 1)],
        [("/l/01", 1)],
        [""],
    ]
    for ops in misfits:
        with pytest.raises((KeyError, IndexError, ValueError, TypeError)):
            apply_patch({"a": 1, "l": [1, 2]}, ops)


def whole(views: dict[str | None, Any]) -> ViewParts:
    """Views with no public part: all of each view its viewer's own."""
    return ViewParts({}, views)


def test_a_viewer_gets_its_whole_view_first_then_patches_then_nothing_if_unchanged() -> None:
    sent = SentViews()
    assert sent.update(whole({"p1": {"round": 1}})) == {"p1": ({"round": 1}, None)}  # held none
    replaced = [("/round", 2)]
    assert sent.update(whole({"p1": {"round": 2}})) == {"p1": (None, replaced)}
    assert sent.update(whole({"p1": {"round": 2}})) == {"p1": (None, None)}
    big = {str(i): i for i in range(MAX_OPS + 1)}
    assert sent.update(whole({"p1": big})) == {"p1": (big, None)}  # a patch as big as the view
    sent.update(whole({"p2": {"round": 3}}))
    assert sent.update(whole({"p1": {"round": 3}})) == {"p1": ({"round": 3}, None)}  # forgotten
    # no match: no view, and nothing held
    assert sent.update(ViewParts({}, {"p1": None})) == {"p1": (None, None)}
    assert sent.update(whole({"p1": {"round": 3}})) == {"p1": ({"round": 3}, None)}


def test_viewers_who_share_the_public_part_share_its_operations() -> None:
    sent = SentViews()
    before = ViewParts({"board": [1, 2], "round": 1}, {"p1": {"me": "p1"}, "p2": {"me": "p2"}})
    sent.update(before)
    after = ViewParts({"board": [1, 3], "round": 1}, {"p1": {"me": "p1"}, "p2": {"me": "p2"}})
    out = sent.update(after)
    assert out["p1"] == (None, [("/board/1", 3)])
    assert out["p1"][1] is out["p2"][1]  # one list: the viewers get one message
    # an own key that replaces a public one, and one that goes away
    later = ViewParts({"board": [1, 3], "round": 2}, {"p1": {"round": 9}, "p2": {"me": "p2"}})
    out = sent.update(later)
    assert out["p2"] == (None, [("/round", 2)])
    assert same(rfc6902(after.view("p1"), out["p1"][1]), later.view("p1"))


parts_pairs = kinds.flatmap(
    lambda values: st.lists(st.dictionaries(keys, values, max_size=4), min_size=6, max_size=6)
)


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(parts_pairs, st.booleans())
def test_a_patch_of_view_parts_turns_the_view_held_into_the_next(
    dicts: list[dict[str, Any]], snapshot: bool
) -> None:
    public, own_a, own_b, public_next, own_a_next, own_b_next = dicts
    sent = SentViews()
    first = ViewParts(public, {"a": own_a, "b": own_b})
    sent.update(first)
    if snapshot:
        sent.sent("b", copied(first.view("b")))  # b reconnected: it holds its snapshot's view
    second = ViewParts(public_next, {"a": own_a_next, "b": own_b_next})
    out = sent.update(second)
    for viewer in ("a", "b"):
        view, ops = out[viewer]
        held = view if view is not None else rfc6902(copied(first.view(viewer)), ops or [])
        assert same(held, second.view(viewer)), viewer


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_patched_views_equal_whole_views_over_a_whole_game(
    game_id: str, players: int, seed: int
) -> None:
    held: dict[str | None, Any] = {}
    patched = 0
    for raw in stream(game_id, players, seed):
        line = msgspec.json.decode(raw)
        viewer = line["viewer"]
        if line["snapshot"] or line["view"] is not None:
            held[viewer] = line["view"]
        elif line["patch"]:
            mine = apply_patch(copied(held[viewer]), line["patch"])
            held[viewer] = rfc6902(held[viewer], line["patch"])
            assert same(mine, held[viewer]), (viewer, line["step"])
            patched += 1
        assert same(held[viewer], line["full"]), (viewer, line["step"])
    assert patched > 50


async def test_a_room_sends_patches_that_keep_each_connection_on_the_rooms_view(
    manager: RoomManager, clock: FakeClock
) -> None:
    from tests.rooms.conftest import run_until_over

    room, host, _ = await manager.create("marble", {"maxRounds": 15}, "수진")
    from jokeapp.rooms import commands as cmd

    await room.call(cmd.AddBot(host, "random"))
    watch, _ = await room.call(cmd.Join("", "spectator"))
    p1, watcher = FakeConn(), FakeConn()
    await room.call(cmd.Connect(p1, host))
    await room.call(cmd.Start(host))
    await room.call(cmd.Connect(watcher, watch))  # mid-match: a snapshot, then patches
    await run_until_over(manager, clock, room)
    for conn, viewer in ((p1, "p1"), (watcher, None)):
        updates = conn.of_type("update")
        assert any(u["patch"] for u in updates)
        assert same(conn.view, room.view_for(viewer))
    # the first update of the match carries the whole view (p1 held none before)
    start = next(u for u in p1.of_type("update") if (u["room"] or {}).get("status") == "playing")
    assert start["patch"] is None and start["view"] is not None


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_view_parts_of_the_live_state_equal_each_viewers_view_of_a_fresh_copy(
    game_id: str, players: int, seed: int
) -> None:
    """Over a whole game, step by step on the one live state (whose view may reuse parts of
    the last view it built): every viewer's view equals the one a copy of the state read back
    from its JSON gives, with nothing reused."""
    from jokeapp.core.replay import walk
    from jokeapp.games import get_game
    from jokeapp.sim.play import play_recorded, player_ids

    game = get_game(game_id)
    seats = player_ids(players)
    bots = dict.fromkeys(seats, game.bots["random"])
    played = play_recorded(game, {}, seats, seed, bots)
    log = [(step["actor"], step["action"]) for step in played.record["steps"]]
    viewers: list[str | None] = [*seats, None]
    for state, _ in walk(game, {}, seats, seed, log):
        parts = view_parts(game, state, viewers)
        fresh = game.from_json(copied(game.to_json(state)))
        for viewer in viewers:
            assert same(parts.view(viewer), game.view(fresh, viewer)), viewer
