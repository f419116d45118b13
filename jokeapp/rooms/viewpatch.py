"""What changed in a viewer's view: a JSON Patch (RFC 6902) from the view last sent to the next.

An update carries the patch instead of the whole view (docs/protocol.md, "Views and patches"):
a client applies it to the view it holds, the one of the previous update or of its snapshot.
Only ``add``, ``remove`` and ``replace`` are produced, so any RFC 6902 library applies them
(the client uses fast-json-patch; the tests check against Python's jsonpatch too).

The diff is hand-rolled rather than ``jsonpatch.make_patch``: views are plain JSON (dicts,
lists, str, int, bool, None) and almost all of a view is unchanged from one step to the next,
so equal subtrees are skipped by C-level ``==`` and only the changed paths are walked in
Python. Measured on whole marble games, 25 to 40 times faster than ``make_patch``
(BENCHMARKS.md, "View patches"), which matters as every update of every viewer needs one.

A value whose type changes (``1`` to ``True``) is replaced, except inside a container that
``==`` already found equal: views keep a field's type, so that cannot happen in a game.
"""

from __future__ import annotations

from typing import Any

Patch = list[dict[str, Any]]

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
        ops.append({"op": "replace", "path": path, "value": new})
    elif kind is dict:
        if old != new:
            _diff_dict(old, new, path, ops)
    elif kind is list:
        if old != new:
            _diff_list(old, new, path, ops)
    elif old != new:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(old: dict[Any, Any], new: dict[Any, Any], path: str, ops: Patch) -> None:
    for key, value in old.items():
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{_token(key)}"})
        else:
            after = new[key]
            if after is not value:
                _diff(value, after, f"{path}/{_token(key)}", ops)
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{_token(key)}", "value": value})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: Patch) -> None:
    n_old, n_new = len(old), len(new)
    if not n_new or not n_old:
        ops.append({"op": "replace", "path": path, "value": new})
        return
    # the common head and tail are unchanged; what lies between is changed, cut or grown
    head = 0
    shorter = min(n_old, n_new)
    while head < shorter and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shorter - head and old[n_old - 1 - tail] == new[n_new - 1 - tail]:
        tail += 1
    mid_old, mid_new = n_old - head - tail, n_new - head - tail
    start = len(ops)
    for i in range(head, head + min(mid_old, mid_new)):
        _diff(old[i], new[i], f"{path}/{i}", ops)
    if mid_old > mid_new:
        cut = f"{path}/{head + mid_new}"
        ops.extend({"op": "remove", "path": cut} for _ in range(mid_old - mid_new))
    else:
        for i in range(head + mid_old, head + mid_new):
            ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
    if len(ops) - start > n_new:
        del ops[start:]  # more operations than the new list has items: the list itself
        ops.append({"op": "replace", "path": path, "value": new})


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

    def next(
        self, viewer: str | None, view: dict[str, Any] | None
    ) -> tuple[dict[str, Any] | None, Patch | None]:
        """The update's ``(view, patch)`` for ``viewer``: the patch from the view it holds, the
        whole view when it holds none or the patch would be as big, or neither when unchanged."""
        held = self._views.get(viewer)
        self._views[viewer] = view
        if view is None:
            return None, None
        if held is None:
            return view, None
        ops = diff(held, view)
        if not ops:
            return None, None
        if len(ops) > MAX_OPS:
            return view, None
        return None, ops

    def keep_only(self, viewers: set[str | None]) -> None:
        for viewer in [v for v in self._views if v not in viewers]:
            del self._views[viewer]

    def clear(self) -> None:
        self._views.clear()


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def apply_patch(doc: Any, ops: Patch) -> Any:
    """Applies ``ops`` (add, remove, replace) to ``doc`` in place and returns the result (a new
    object only when the root itself is replaced). For Python clients: the load generator and
    the tests; a path that does not fit ``doc`` raises (KeyError, IndexError, ValueError)."""
    for op in ops:
        path = op["path"]
        kind = op["op"]
        if path == "":
            if kind == "remove":
                raise ValueError("cannot remove the whole document")
            doc = op["value"]
            continue
        tokens = path.split("/")
        parent = doc
        for token in tokens[1:-1]:
            parent = parent[int(token)] if type(parent) is list else parent[_unescape(token)]
        last = _unescape(tokens[-1])
        if type(parent) is list:
            if kind == "add":
                index = len(parent) if last == "-" else int(last)
                if not 0 <= index <= len(parent):
                    raise IndexError(path)
                parent.insert(index, op["value"])
            elif kind == "remove":
                del parent[int(last)]
            elif kind == "replace":
                parent[int(last)] = op["value"]
            else:
                raise ValueError(f"unsupported op {kind!r}")
        elif kind == "add":
            parent[last] = op["value"]
        elif kind == "remove":
            del parent[last]
        elif kind == "replace":
            if last not in parent:
                raise KeyError(path)
            parent[last] = op["value"]
        else:
            raise ValueError(f"unsupported op {kind!r}")
    return doc
