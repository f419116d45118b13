"""What changed in a viewer's view: a patch from the view last sent to the next.

An update carries the patch instead of the whole view (docs/protocol.md, "Views and patches"):
a client applies it to the view it holds, the one of the previous update or of its snapshot.
A patch is a list of operations, applied in order, each on a JSON Pointer (RFC 6901) path:
``[path, value]`` puts ``value`` there (an object's member, new or not; a list's item, or a new
last item when the index is the list's length) and a lone ``path`` removes what is there (a
list's later items move down). Half the bytes of RFC 6902's ``{"op": "replace", "path": …,
"value": …}`` for the same meaning; the tests check the patches against Python's jsonpatch
(RFC 6902) too, each operation read as the ``add``, ``replace`` or ``remove`` it is.

The diff is hand-rolled rather than ``jsonpatch.make_patch``: views are plain JSON (dicts,
lists, str, int, bool, None) and almost all of a view is unchanged from one step to the next,
so equal subtrees are skipped by C-level ``==`` and only the changed paths are walked in
Python. Measured 2026-12-01 over whole games of random bots (every seat's view, every
step): about 25 times faster than ``make_patch`` in marble and 45 times in the card game,
which matters as every update of every viewer needs one.

A value whose type changes (``1`` to ``True``) is replaced, except inside a container that
``==`` already found equal: views keep a field's type, so that cannot happen in a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Op = str | tuple[str, Any]  # a path to remove, or (path, value) to put there
Patch = list[Op]

_MISSING: Any = object()
_SCALARS = frozenset({int, str, bool, float, type(None)})

# Past this many operations a patch is no smaller than the view: send the view itself.
MAX_OPS = 48


def _token(key: Any) -> str:
    text = key if type(key) is str else str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return text


def diff(old: Any, new: Any) -> Patch:
    """The operations that turn ``old`` into ``new`` (both JSON values)."""
    ops: Patch = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: Patch) -> None:
    if old is new:
        return
    kind = type(old)
    if kind is not type(new):
        ops.append((path, new))
    elif kind is dict:
        if old != new:
            _diff_dict(old, new, path, ops)
    elif kind is list:
        if old != new:
            _diff_list(old, new, path, ops)
    elif old != new:
        ops.append((path, new))


def _diff_dict(old: dict[Any, Any], new: dict[Any, Any], path: str, ops: Patch) -> None:
    removed = 0
    for key, value in old.items():
        after = new.get(key, _MISSING)
        if after is value or (type(after) is type(value) and after == value):
            continue  # most of a view: nothing to build, not even the path
        if after is _MISSING:
            ops.append(f"{path}/{_token(key)}")
            removed += 1
        else:
            _diff(value, after, f"{path}/{_token(key)}", ops)
    if len(new) != len(old) - removed:
        for key, value in new.items():
            if key not in old:
                ops.append((f"{path}/{_token(key)}", value))


def _diff_list(old: list[Any], new: list[Any], path: str, ops: Patch) -> None:
    n_old, n_new = len(old), len(new)
    if not n_new or not n_old:
        ops.append((path, new))
        return
    # the common head (and, unless the list grows, tail) are unchanged; what lies between is
    # changed or cut, and a longer list grows at its end (a patch puts items, it never inserts)
    head = 0
    shorter = min(n_old, n_new)
    while head < shorter and old[head] == new[head]:
        head += 1
    tail = 0
    if n_new <= n_old:
        while tail < shorter - head and old[n_old - 1 - tail] == new[n_new - 1 - tail]:
            tail += 1
    mid_old, mid_new = n_old - head - tail, n_new - head - tail
    start = len(ops)
    for i in range(head, head + min(mid_old, mid_new)):
        _diff(old[i], new[i], f"{path}/{i}", ops)
    if mid_old > mid_new:
        cut = f"{path}/{head + mid_new}"
        ops.extend([cut] * (mid_old - mid_new))
    else:
        for i in range(head + mid_old, head + mid_new):
            ops.append((f"{path}/{i}", new[i]))
    made = len(ops) - start
    if made > n_new or (made > 1 and n_new <= 4 * made and all(type(v) in _SCALARS for v in new)):
        # more operations than items, or a short list of numbers or names (the dice): the
        # list itself is the smaller patch
        del ops[start:]
        ops.append((path, new))


def _diff_by_key(old: dict[str, Any], new: dict[str, Any]) -> dict[Any, Patch]:
    """``diff`` of two dicts, the operations grouped by the top-level key they touch."""
    get = old.get
    by_key: dict[Any, Patch] = {}
    # the unchanged keys (most) are passed over by C-level comparisons in the comprehension
    for key in [k for k, v in new.items() if v is not get(k, _MISSING) and v != get(k, _MISSING)]:
        before = get(key, _MISSING)
        after = new[key]
        if before is _MISSING:
            by_key[key] = [(f"/{_token(key)}", after)]
        else:
            ops: Patch = []
            _diff(before, after, f"/{_token(key)}", ops)
            by_key[key] = ops
    for key in [k for k in old if k not in new]:
        by_key[key] = [f"/{_token(key)}"]
    return by_key


def _diff_sharing(
    held: dict[str, Any],
    view: dict[str, Any],
    ref: tuple[dict[str, Any], dict[str, Any], dict[Any, Patch]],
) -> Patch:
    """``diff(held, view)``, taking ``ref``'s operations (the first viewer's held view, new
    view and operations by key) for every key whose value is the very object of ``ref``'s,
    before and after: a game's ``views`` shares what every viewer sees alike."""
    ref_held, ref_view, ref_ops = ref
    ref_get, ref_held_get = ref_view.get, ref_held.get
    # this viewer's own keys (its hand, its choices), and those it held apart from the first;
    # for every other key, before and after are the first's very objects (or both absent)
    own = {k for k, v in view.items() if v is not ref_get(k, _MISSING)}
    own.update([k for k in ref_view if k not in view])
    own.update([k for k, v in held.items() if v is not ref_held_get(k, _MISSING)])
    own.update([k for k in ref_held if k not in held])
    ops: Patch = [op for key, key_ops in ref_ops.items() if key not in own for op in key_ops]
    for key in own:
        before, after = held.get(key, _MISSING), view.get(key, _MISSING)
        if after is _MISSING:
            if before is not _MISSING:
                ops.append(f"/{_token(key)}")
        elif before is _MISSING:
            ops.append((f"/{_token(key)}", after))
        else:
            _diff(before, after, f"/{_token(key)}", ops)
    return ops


class SentViews:
    """Per viewer (a seat id, or None for the spectators), the view its connections hold.

    Every open connection of a viewer has received the same updates since its snapshot, so
    one copy per viewer serves them all. A viewer with no open connection is forgotten: it
    gets a snapshot, with the whole view, when it connects.
    """

    __slots__ = ("_views",)

    def __init__(self) -> None:
        self._views: dict[str | None, dict[str, Any] | None] = {}

    def sent(self, viewer: str | None, view: dict[str, Any] | None) -> None:
        """``view`` went out whole (a snapshot) to a connection of ``viewer``."""
        self._views[viewer] = view

    def update(
        self, views: Mapping[str | None, dict[str, Any] | None]
    ) -> dict[str | None, tuple[dict[str, Any] | None, Patch | None]]:
        """Each update's ``(view, patch)``, for every viewer with an open connection: the patch
        from the view it holds, the whole view when it holds none or the patch would be as big,
        or neither when unchanged. Viewers left out are forgotten.

        The views of a room's viewers are mostly the same (the board, the scores): a game's
        ``views`` builds that part once and shares its objects between them. So the first
        viewer's diff is worked out key by key, and another viewer takes the first's operations
        for every key whose value is the first's very object, before and after; only its own
        keys are compared. The views held share those objects too: one copy in memory."""
        out: dict[str | None, tuple[dict[str, Any] | None, Patch | None]] = {}
        held_views, self._views = self._views, {}
        ref: tuple[dict[str, Any], dict[str, Any], dict[Any, Patch]] | None = None
        for viewer, view in views.items():
            self._views[viewer] = view
            held = held_views.get(viewer)
            if view is None:
                out[viewer] = (None, None)
                continue
            if ref is not None:
                ops = _diff_sharing(held, view, ref) if held is not None else []
            else:
                by_key = _diff_by_key(held, view) if held is not None else {}
                if held is not None:
                    ref = (held, view, by_key)
                ops = [op for key_ops in by_key.values() for op in key_ops]
            if held is None or len(ops) > MAX_OPS:
                out[viewer] = (view, None)
            else:
                out[viewer] = (None, ops or None)
        return out

    def clear(self) -> None:
        self._views.clear()


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def apply_patch(doc: Any, ops: Patch) -> Any:
    """Applies ``ops`` to ``doc`` in place and returns the result (a new object only when the
    root itself is put). For Python clients: the load generator and the tests; a path that does
    not fit ``doc`` raises (KeyError, IndexError, ValueError, TypeError)."""
    for op in ops:
        removing = type(op) is str
        path: str = op if removing else op[0]  # type: ignore[assignment]
        if path == "":
            if removing:
                raise ValueError("cannot remove the whole document")
            doc = op[1]
            continue
        tokens = path.split("/")
        if tokens[0]:
            raise ValueError(f"not a JSON Pointer: {path!r}")
        parent = doc
        for token in tokens[1:-1]:
            parent = parent[_index(token)] if type(parent) is list else parent[_unescape(token)]
        last = tokens[-1]
        if type(parent) is list:
            index = _index(last)
            if removing:
                del parent[index]
            elif index == len(parent):
                parent.append(op[1])
            else:
                parent[index] = op[1]
        elif type(parent) is dict:
            if removing:
                del parent[_unescape(last)]
            else:
                parent[_unescape(last)] = op[1]
        else:
            raise TypeError(f"{path!r}: not in an object or a list")
    return doc


def _index(token: str) -> int:
    """A list index of a JSON Pointer: digits without a leading zero, as RFC 6901 says."""
    if not token.isdigit() or (token[0] == "0" and len(token) > 1) or not token.isascii():
        raise IndexError(token)
    return int(token)
