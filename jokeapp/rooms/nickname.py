"""What a nickname may be: 1-12 visible characters (grapheme clusters) after trimming spaces.

Characters are judged by their Unicode category, and length is counted in grapheme clusters
(what a reader sees as one character: 👨‍👩‍👧 is one, 한 is one), using the ``regex``
package's ``\\X``. Refused anywhere in a name: control (Cc), format (Cf), line and paragraph
separators (Zl, Zp), surrogates (Cs), private use (Co) and unassigned (Cn) code points —
none of them is something other people can read. The one exception is the format
characters that build an emoji: a zero-width joiner between two emoji (👩‍💻) and the tag
characters of a flag (🏴 + tags + cancel tag). Only space separators (Zs: the ordinary
space, the no-break space, the ideographic space …) are trimmed from the ends; anything else
at an end is judged like the rest of the name, never silently dropped.
"""

from __future__ import annotations

import unicodedata

import regex

from jokeapp.rooms.errors import RoomError

MAX_NICKNAME = 12

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})

# An emoji with its modifiers (skin tone, variation selector, keycap).
_EMOJI = r"\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0E\uFE0F\u20E3]*"
# Clusters whose format characters are allowed: emoji joined by ZWJ, or a flag's tag sequence.
_EMOJI_SEQUENCE = regex.compile(
    rf"{_EMOJI}(?:\u200D{_EMOJI})+|\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F"
)
_GRAPHEME = regex.compile(r"\X")


def trim_spaces(raw: str) -> str:
    """``raw`` without the space separators (Zs) at its ends; nothing else is dropped."""
    start, end = 0, len(raw)
    while start < end and unicodedata.category(raw[start]) == "Zs":
        start += 1
    while end > start and unicodedata.category(raw[end - 1]) == "Zs":
        end -= 1
    return raw[start:end]


def _readable(cluster: str) -> bool:
    refused = {unicodedata.category(ch) for ch in cluster} & REFUSED_CATEGORIES
    if not refused:
        return True
    return refused == {"Cf"} and _EMOJI_SEQUENCE.fullmatch(cluster) is not None


def clean_nickname(raw: object) -> str:
    """The trimmed nickname, or RoomError(invalid_nickname)."""
    if not isinstance(raw, str):
        raise RoomError("invalid_nickname")
    name = trim_spaces(raw)
    clusters = _GRAPHEME.findall(name)
    if not 1 <= len(clusters) <= MAX_NICKNAME or not all(_readable(c) for c in clusters):
        raise RoomError("invalid_nickname")
    return name
