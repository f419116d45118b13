"""Finite Markov chains: the stationary distribution and the walk from a start.

A chain is a row-stochastic matrix given sparsely: ``rows[i]`` maps each next state ``j`` to
the probability of going from ``i`` to ``j``. Standard library only; the chains here have a
few hundred states at most, so a dense Gaussian elimination is plenty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Rows = Sequence[Mapping[int, float]]


class NotStochastic(ValueError):
    """A row does not sum to one, or names a state outside the chain."""


def check_rows(rows: Rows, tolerance: float = 1e-9) -> None:
    size = len(rows)
    for i, row in enumerate(rows):
        if any(not 0 <= j < size or p < 0 for j, p in row.items()):
            raise NotStochastic(f"row {i} names a state outside 0..{size - 1} or a negative p")
        total = sum(row.values())
        if abs(total - 1.0) > tolerance:
            raise NotStochastic(f"row {i} sums to {total}, not 1")


def stationary(rows: Rows) -> list[float]:
    """The distribution pi with pi P = pi and sum(pi) = 1, for an irreducible chain.

    Solves (P^T - I) pi = 0 with one equation replaced by sum(pi) = 1, by Gaussian
    elimination with partial pivoting. Raises ValueError when that system is singular (the
    chain has more than one closed class)."""
    check_rows(rows)
    n = len(rows)
    # a[r][c]: equation r (balance of state r), coefficient of pi_c; last column the constant
    a = [[0.0] * (n + 1) for _ in range(n)]
    for i, row in enumerate(rows):
        for j, p in row.items():
            a[j][i] += p
    for r in range(n):
        a[r][r] -= 1.0
    a[n - 1] = [1.0] * n + [1.0]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("the chain has no unique stationary distribution")
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                factor = a[r][col] / lead[col]
                other = a[r]
                for c in range(col, n + 1):
                    other[c] -= factor * lead[c]
    return [a[r][n] / a[r][r] for r in range(n)]


def step(dist: Sequence[float], rows: Rows) -> list[float]:
    """The distribution one step after ``dist``."""
    nxt = [0.0] * len(rows)
    for i, mass in enumerate(dist):
        if mass:
            for j, p in rows[i].items():
                nxt[j] += mass * p
    return nxt
