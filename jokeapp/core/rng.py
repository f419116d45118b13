"""The seeded generator every game keeps inside its state.

Algorithm: SFC32 (Chris Doty-Humphrey's "small fast chaotic" generator, 32-bit variant).
The whole state is four unsigned 32-bit integers ``a, b, c, d``; one step is

    t = (a + b + d) mod 2^32
    d = (d + 1) mod 2^32
    a = b XOR (b >> 9)
    b = (c + (c << 3)) mod 2^32
    c = ((c << 21) | (c >> 11)) mod 2^32 + t  (mod 2^32)
    output t

Seeding from a non-negative integer ``seed`` (taken mod 2^64):
``a = 0, b = seed mod 2^32, c = (seed >> 32) mod 2^32, d = 1``, then 12 outputs are
discarded. ``rng()`` is ``output / 2^32``, a float in [0, 1).

A dice roll is ``1 + floor(rng() * 6)`` and ``floor(rng() * n)`` picks among n. Both are
computed as ``(output * n) >> 32``, which is the same number exactly: ``output * n`` is
below 2^53 and dividing by 2^32 is exact in binary floating point.

A shuffle is Fisher-Yates from the end: for i = n-1 down to 1, j = floor(rng() * (i + 1)),
swap items i and j.

Test vectors live in tests/core/test_rng.py; any implementation that reproduces them
reproduces every dice roll and shuffle of a recorded game.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

_MASK = 0xFFFFFFFF
# (d + 1) mod 2^32 is d + 1 below this: a one-digit int (CPython's digits are 30 bits), which
# the interpreter compares without the general path that _MASK, two digits, takes.
_ONE_DIGIT = (1 << 30) - 1

# below(n) for small n and dice() read their picks from tables, by the top bits of the
# output (unmasked, below 3 * 2^32: its top bits index a table of three copies). A bucket of
# outputs lying wholly within one pick gives that pick; the few a pick boundary cuts give
# None, and the product tells.
_TOP_SHIFT = 26
_BUCKETS = 1 << (32 - _TOP_SHIFT)
_SMALL = 9  # below(n) by table for n below this


def _pick(bucket: int, n: int) -> int | None:
    low, high = bucket << _TOP_SHIFT, ((bucket + 1) << _TOP_SHIFT) - 1
    pick = (low * n) >> 32
    return pick if pick == (high * n) >> 32 else None


def _picks_table() -> tuple[tuple[int | None, ...], ...]:
    return tuple(tuple(_pick(bucket, n) for bucket in range(_BUCKETS)) * 3 for n in range(_SMALL))


def _dice_table() -> tuple[tuple[tuple[int, int] | None, ...], ...]:
    faces = [None if pick is None else 1 + pick for pick in _PICKS[6]]
    pairs = {(x, y): (x, y) for x in range(1, 7) for y in range(1, 7)}  # 36 tuples, shared
    rows = [
        tuple(None if x is None or y is None else pairs[x, y] for y in faces)
        for x in faces[:_BUCKETS]
    ]
    return tuple(rows * 3)


_PICKS = _picks_table()
_DICE = _dice_table()


class Rng:
    """SFC32. Mutable; its state is the four integers in ``state``."""

    __slots__ = ("a", "b", "c", "d")

    def __init__(self, a: int, b: int, c: int, d: int) -> None:
        self.a = a & _MASK
        self.b = b & _MASK
        self.c = c & _MASK
        self.d = d & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        if seed < 0:
            raise ValueError("seed must be a non-negative integer")
        seed &= 0xFFFFFFFFFFFFFFFF
        a, b, c = 0, seed & _MASK, seed >> 32
        for d in range(1, 13):  # next_u32's step inline (as in below), its outputs discarded
            t = a + b + d
            a, b, c = b ^ (b >> 9), (c * 9) & _MASK, ((c << 21) + (c >> 11) + t) & _MASK
        return cls(a, b, c, 13)

    @property
    def state(self) -> list[int]:
        return [self.a, self.b, self.c, self.d]

    def copy(self) -> Rng:
        return Rng(self.a, self.b, self.c, self.d)

    def next_u32(self) -> int:
        a, b, c, d = self.a, self.b, self.c, self.d
        t = (a + b + d) & _MASK
        self.d = (d + 1) & _MASK
        self.a = b ^ (b >> 9)
        self.b = (c + (c << 3)) & _MASK
        self.c = ((((c << 21) | (c >> 11)) & _MASK) + t) & _MASK
        return t

    def random(self) -> float:
        """``rng()`` of the specs: a float in [0, 1)."""
        return self.next_u32() / 4294967296.0

    # below, die, dice and shuffle take next_u32's step inline: they are called on every move.

    def below(self, n: int) -> int:
        """``floor(rng() * n)``, exactly."""
        b, c, d = self.b, self.c, self.d  # a is read once: no local for it
        t = self.a + b + d  # t before its mod 2^32: c's own mask takes it
        self.d = d + 1 if d < _ONE_DIGIT else (d + 1) & _MASK  # c + (c << 3) is c * 9: the
        self.a = b ^ (b >> 9)  # same numbers in fewer operations on two-digit ints
        self.b = (c * 9) & _MASK
        # the rotation's halves share no bit, so | is +, and the one mask takes both parts
        self.c = ((c << 21) + (c >> 11) + t) & _MASK
        if n == 1:  # a single choice (most of a card game's moves): taken, its pick always 0
            return 0
        if 1 < n < _SMALL:  # two to eight choices (most of the others): by the table, mostly
            pick = _PICKS[n][t >> _TOP_SHIFT]
            if pick is not None:
                return pick
        return ((t & _MASK) * n) >> 32

    def die(self) -> int:
        """``1 + floor(rng() * 6)``."""
        a, b, c, d = self.a, self.b, self.c, self.d
        t = (a + b + d) & _MASK
        self.d = d + 1 if d < _ONE_DIGIT else (d + 1) & _MASK  # as in below
        self.a = b ^ (b >> 9)
        self.b = (c * 9) & _MASK
        self.c = ((c << 21) + (c >> 11) + t) & _MASK  # as in below
        return 1 + ((t * 6) >> 32)

    def dice(self) -> tuple[int, int]:
        """Two ``die()`` rolls, the first one first, in one call (every marble roll).

        The two outputs are summed without their mask (below 3 * 2^32: each word is below
        2^32); c's mask takes them, and the pair is read from _DICE by their top bits."""
        a, b, c, d = self.a, self.b, self.c, self.d
        first = a + b + d
        b1 = (c * 9) & _MASK
        c1 = ((c << 21) + (c >> 11) + first) & _MASK
        d += 1  # at most 2^32 unmasked: the second sum stays below 3 * 2^32
        second = (b ^ (b >> 9)) + b1 + d
        self.a = b1 ^ (b1 >> 9)
        self.b = (c1 * 9) & _MASK
        self.c = ((c1 << 21) + (c1 >> 11) + second) & _MASK
        self.d = d + 1 if d < _MASK else (d + 1) & _MASK  # (d + 2) mod 2^32
        pair = _DICE[first >> _TOP_SHIFT][second >> _TOP_SHIFT]
        if pair is None:  # a top-bits bucket a face boundary cuts: the product tells
            return 1 + (((first & _MASK) * 6) >> 32), 1 + (((second & _MASK) * 6) >> 32)
        return pair

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place, from the last index down."""
        a, b, c, d = self.a, self.b, self.c, self.d
        for i in range(len(items) - 1, 0, -1):
            t = a + b + d  # as in below
            d = d + 1 if d < _ONE_DIGIT else (d + 1) & _MASK
            a, b, c = b ^ (b >> 9), (c * 9) & _MASK, ((c << 21) + (c >> 11) + t) & _MASK
            j = ((t & _MASK) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
        self.a, self.b, self.c, self.d = a, b, c, d

    def to_json(self) -> dict[str, object]:
        return {"algorithm": "sfc32", "state": self.state}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Rng:
        if data.get("algorithm") != "sfc32":
            raise ValueError("unknown rng algorithm")
        state = data.get("state")
        if not isinstance(state, list) or len(state) != 4:
            raise ValueError("rng state must be four integers")
        a, b, c, d = (int(x) for x in state)
        return cls(a, b, c, d)
