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

from itertools import compress
from operator import is_not
from typing import Any

from jokeapp.core.contract import ViewParts

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
    if type(old) is not type(new):
        ops.append((path, new))
    elif old != new:
        _changed(old, new, path, ops)


def _changed(old: Any, new: Any, path: str, ops: Patch) -> None:
    """``_diff`` of two values of one type already found unequal: not compared again (a
    container's ``==`` is a walk of it up to its first difference)."""
    kind = type(old)
    if kind is dict:
        _diff_dict(old, new, path, ops)
    elif kind is list:
        _diff_list(old, new, path, ops)
    else:
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
        elif type(after) is not type(value):
            ops.append((f"{path}/{_token(key)}", after))
        else:
            _changed(value, after, f"{path}/{_token(key)}", ops)
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


def _moved(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The keys whose value in ``a`` is not ``b``'s very object: ``a``'s keys whose value
    differs or that ``b`` lacks, then ``b``'s keys that ``a`` lacks (each key once).

    Two views built alike hold their keys in the same order (a view is the public part, then
    the viewer's own keys at its end), so the values are compared by position at C level
    (``map(is_not)``) over the common leading keys; keys in another order take the slow path."""
    keys_a = list(a)
    if len(keys_a) == len(b) and keys_a == list(b):  # the same keys (a public part's)
        return list(compress(keys_a, map(is_not, a.values(), b.values())))
    keys_b = list(b)
    n = min(len(keys_a), len(keys_b))
    if keys_a[:n] == keys_b[:n]:
        out = list(compress(keys_a, map(is_not, a.values(), b.values())))
        out += keys_a[n:]
        out += keys_b[n:]
        return out
    get = b.get
    out = [k for k, v in a.items() if v is not get(k, _MISSING)]
    out += [k for k in b if k not in a]
    return out


def _diff_by_key(old: dict[str, Any], new: dict[str, Any]) -> dict[Any, Patch]:
    """``diff`` of two dicts, the operations grouped by the top-level key they touch."""
    get = old.get
    by_key: dict[Any, Patch] = {}
    # the keys whose objects are the same (found at C level) are unchanged; of the others,
    # those rebuilt equal are passed over by C-level ``==``
    for key in _moved(new, old):
        before = get(key, _MISSING)
        after = new.get(key, _MISSING)
        if after is _MISSING:
            by_key[key] = [f"/{_token(key)}"]
        elif before is _MISSING or type(before) is not type(after):
            by_key[key] = [(f"/{_token(key)}", after)]
        elif before != after:
            ops: Patch = []
            _changed(before, after, f"/{_token(key)}", ops)
            by_key[key] = ops
    return by_key


def _own_ops(
    held: tuple[dict[str, Any], dict[str, Any]],
    parts: tuple[dict[str, Any], dict[str, Any]],
    public_ops: tuple[dict[Any, Patch], Patch],
) -> Patch:
    """``diff`` of a viewer's view held to its next one, both as (public, own) parts: the
    public part's operations (``public_ops``: by key and all of them, worked out once for every
    viewer) for every key that is no own key of the viewer's, before or after; the own keys
    are compared here. With no own operation the very list of all the public's is returned
    (the viewers who share it get one message, encoded once)."""
    held_public, held_own = held
    public, own = parts
    by_key, every = public_ops
    mine = held_own.keys() | own.keys()  # a handful: who it is, its hand, its choices
    ops: Patch = []
    for key in mine:
        before = held_own.get(key, _MISSING)
        if before is _MISSING:
            before = held_public.get(key, _MISSING)
        after = own.get(key, _MISSING)
        if after is _MISSING:
            after = public.get(key, _MISSING)
        if before is after:
            continue
        if after is _MISSING:
            ops.append(f"/{_token(key)}")
        elif before is _MISSING:
            ops.append((f"/{_token(key)}", after))
        else:
            _diff(before, after, f"/{_token(key)}", ops)
    if by_key.keys() & mine:
        return [op for key, key_ops in by_key.items() if key not in mine for op in key_ops] + ops
    return every + ops if ops else every


_NOTHING: dict[str, Any] = {}  # the public part of a view held whole (all of it its own)


class SentViews:
    """Per viewer (a seat id, or None for the spectators), the view its connections hold.

    Every open connection of a viewer has received the same updates since its snapshot, so
    one copy per viewer serves them all. A viewer with no open connection is forgotten: it
    gets a snapshot, with the whole view, when it connects. A view is held as its parts
    (``ViewParts``: the public part, shared by every viewer, and the viewer's own keys).
    """

    __slots__ = ("_views",)

    def __init__(self) -> None:
        self._views: dict[str | None, tuple[dict[str, Any], dict[str, Any]] | None] = {}

    def sent(self, viewer: str | None, view: dict[str, Any] | None) -> None:
        """``view`` went out whole (a snapshot) to a connection of ``viewer``."""
        self._views[viewer] = None if view is None else (_NOTHING, view)

    def update(
        self, parts: ViewParts
    ) -> dict[str | None, tuple[dict[str, Any] | None, Patch | None]]:
        """Each update's ``(view, patch)``, for every viewer of ``parts`` (those with an open
        connection): the patch from the view it holds, the whole view when it holds none or
        the patch would be as big, or neither when unchanged. Viewers left out are forgotten.

        The public part's diff is worked out once, key by key, for every viewer that holds
        the same public part (all of them, but one just sent a snapshot); each viewer takes
        those operations for every key that is not its own, and only its own keys (a
        handful) are compared for it. The views held share the public part: one copy."""
        out: dict[str | None, tuple[dict[str, Any] | None, Patch | None]] = {}
        held_views, self._views = self._views, {}
        public = parts.public
        # the public part's operations by key, per public part held (by its id; held here)
        by_public: dict[int, tuple[dict[str, Any], tuple[dict[Any, Patch], Patch]]] = {}
        for viewer, own in parts.own.items():
            if own is None:
                self._views[viewer] = None
                out[viewer] = (None, None)
                continue
            now = (public, own)
            self._views[viewer] = now
            held = held_views.get(viewer)
            if held is None:
                out[viewer] = (parts.view(viewer), None)
                continue
            found = by_public.get(id(held[0]))
            if found is None:
                by_key = _diff_by_key(held[0], public)
                every = [op for key_ops in by_key.values() for op in key_ops]
                found = by_public[id(held[0])] = (held[0], (by_key, every))
            ops = _own_ops(held, now, found[1])
            if len(ops) > MAX_OPS:
                out[viewer] = (parts.view(viewer), None)
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
