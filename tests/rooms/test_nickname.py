"""Nicknames are judged by Unicode category and counted in grapheme clusters."""

from __future__ import annotations

import unicodedata

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from jokeapp.rooms.errors import RoomError
from jokeapp.rooms.nickname import MAX_NICKNAME, REFUSED_CATEGORIES, clean_nickname

ACCEPTED = [
    ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # family: emoji joined by ZWJ, one character
    ("👩\u200d💻", "👩\u200d💻"),
    ("👩🏽\u200d💻", "👩🏽\u200d💻"),  # with a skin tone
    ("❤️\u200d🔥", "❤️\u200d🔥"),  # with a variation selector
    (
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    ),
    ("  수진 ", "수진"),
    ("\u3000민호\u00a0", "민호"),  # ideographic and no-break spaces are trimmed
    ("김 철수", "김 철수"),
    ("가" * MAX_NICKNAME, "가" * MAX_NICKNAME),
    ("👍🏽" * MAX_NICKNAME, "👍🏽" * MAX_NICKNAME),  # 24 code points, 12 characters
    ("👨\u200d👩\u200d👧" * MAX_NICKNAME, "👨\u200d👩\u200d👧" * MAX_NICKNAME),
]

REFUSED = [
    "",
    "   ",
    "가" * (MAX_NICKNAME + 1),
    "a\nb",
    "a\x00b",
    "보\u202eb",
    "a\u2028b",
    "a\u2029b",  # line / paragraph separators, like \n
    "\x1c수진",
    "수진\x1f",
    "수진\x85",
    "\x85",  # str.strip() would have dropped these silently
    "a\u200bb",  # zero-width space
    "a\u200db",
    "\u200d",  # a ZWJ that joins no emoji
    "\ue000",
    "a\ud800b",
    "\U000e0001",  # private use, a lone surrogate, a stray tag
    "\U0010fffe",  # unassigned
]


@pytest.mark.parametrize(("raw", "clean"), ACCEPTED)
def test_named_nicknames_are_accepted(raw: str, clean: str) -> None:
    assert clean_nickname(raw) == clean


@pytest.mark.parametrize("raw", REFUSED)
def test_named_nicknames_are_refused(raw: str) -> None:
    with pytest.raises(RoomError) as err:
        clean_nickname(raw)
    assert err.value.code == "invalid_nickname" and err.value.status == 400


def _printable(ch: str) -> bool:
    return unicodedata.category(ch) not in REFUSED_CATEGORIES


visible = st.characters(
    blacklist_categories=("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn", "Zs", "Mn", "Mc", "Me")
)


@given(
    st.lists(visible, min_size=1, max_size=MAX_NICKNAME).map("".join),
    st.sampled_from([" ", "\u3000", ""]),
)
def test_visible_names_are_kept_whole_and_only_spaces_trimmed(name: str, pad: str) -> None:
    clusters = regex.findall(r"\X", name)
    if len(clusters) > MAX_NICKNAME:
        return
    assert clean_nickname(pad + name + pad) == name


@given(
    st.text(st.characters(), min_size=0, max_size=6),
    st.characters(whitelist_categories=("Cc", "Cf", "Zl", "Zp", "Co", "Cn")),
    st.text(st.characters(), min_size=0, max_size=6),
)
def test_a_non_printable_character_outside_an_emoji_sequence_is_refused(
    before: str, bad: str, after: str
) -> None:
    name = before + bad + after
    try:
        clean = clean_nickname(name)
    except RoomError as exc:
        assert exc.code == "invalid_nickname"
        return
    # Accepted only when every non-printable character sits inside an emoji sequence
    # (ZWJ between emoji, a flag's tags), and never dropped silently.
    assert bad in clean and unicodedata.category(bad) == "Cf"
    cluster = next(c for c in regex.findall(r"\X", clean) if bad in c)
    assert regex.match(r"\p{Extended_Pictographic}", cluster)


@given(st.text(st.characters(), max_size=20))
def test_whatever_is_accepted_is_trimmed_short_and_printable_or_emoji(raw: str) -> None:
    try:
        clean = clean_nickname(raw)
    except RoomError:
        return
    assert 1 <= len(regex.findall(r"\X", clean)) <= MAX_NICKNAME
    assert clean == raw.strip("".join(ch for ch in set(raw) if unicodedata.category(ch) == "Zs"))
    for cluster in regex.findall(r"\X", clean):
        if not all(_printable(ch) for ch in cluster):
            assert regex.match(r"\p{Extended_Pictographic}", cluster)
