"""What a nickname may be: 1-12 characters after trimming, no control characters."""

from __future__ import annotations

import unicodedata

from jokeapp.rooms.errors import RoomError

MAX_NICKNAME = 12


def clean_nickname(raw: object) -> str:
    """The trimmed nickname, or RoomError(invalid_nickname)."""
    if not isinstance(raw, str):
        raise _invalid()
    name = raw.strip()
    if not 1 <= len(name) <= MAX_NICKNAME:
        raise _invalid()
    # Category C covers control, format (e.g. bidi overrides, zero-width), surrogate, private
    # use and unassigned code points: none of them belongs in a name others must read.
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise _invalid()
    return name


def _invalid() -> RoomError:
    return RoomError("invalid_nickname", "닉네임은 1~12자로 적어 주세요(제어 문자는 쓸 수 없어요).", 400)
