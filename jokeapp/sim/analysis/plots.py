"""The reports' pictures: PNG files drawn with matplotlib's Agg backend (no display).

matplotlib is imported on the first picture only, so `joke --help`, the simulator and the
collectors never load it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# Korean labels need a CJK font; the first one installed is used (DejaVu Sans has none).
FONTS = ["Noto Sans CJK KR", "Noto Sans KR", "NanumGothic", "Malgun Gothic", "DejaVu Sans"]
_plt: Any = None


def _pyplot() -> Any:
    global _plt
    if _plt is None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        plt.rcParams["font.family"] = "sans-serif"
        plt.rcParams["font.sans-serif"] = FONTS
        plt.rcParams["axes.unicode_minus"] = False
        plt.rcParams["svg.hashsalt"] = "joke"
        warnings.filterwarnings("ignore", message="Glyph .* missing from")
        warnings.filterwarnings("ignore", message="findfont")
        _plt = plt
    return _plt


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    # no date in the file, so the same figures give the same bytes
    fig.savefig(path, dpi=100, metadata={"Software": None})
    _pyplot().close(fig)


def landings(
    path: Path,
    sim: Sequence[float],
    errors: Sequence[float],
    stationary: Sequence[float],
    horizon: Sequence[float],
    names: Sequence[str],
) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(14, 5))
    x = range(len(sim))
    w = 0.28
    ax.bar(
        [i - w for i in x],
        [100 * v for v in sim],
        w,
        label="games",
        yerr=[196 * e for e in errors],
        color="#4C72B0",
        ecolor="#222",
    )
    ax.bar(
        list(x), [100 * v for v in stationary], w, label="Markov chain, stationary", color="#DD8452"
    )
    ax.bar(
        [i + w for i in x],
        [100 * v for v in horizon],
        w,
        label="Markov chain, from 출발 for the games' turns",
        color="#55A868",
    )
    ax.axhline(100 / len(sim), color="#888", lw=0.8, ls="--", label="1/40")
    ax.set_xticks(list(x))
    ax.set_xticklabels([f"{i} {n}" for i, n in enumerate(names)], rotation=90, fontsize=8)
    ax.set_ylabel("share of landings (%)")
    ax.set_ylim(0, max(100 * max(max(sim), max(stationary), max(horizon)) * 1.12, 1))
    ax.legend(fontsize=8, ncol=4, loc="upper left")
    _save(fig, path)


def seat_wins(path: Path, wins: Mapping[int, int], games: int, seats: int) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5, 3.5))
    xs = list(range(1, seats + 1))
    shares = [100 * wins.get(s, 0) / max(games, 1) for s in xs]
    errs = [196 * (p / 100 * (1 - p / 100) / max(games, 1)) ** 0.5 for p in shares]
    ax.bar(xs, shares, yerr=errs, color="#4C72B0", ecolor="#222")
    ax.axhline(100 / max(seats, 1), color="#888", lw=0.8, ls="--", label="fair")
    ax.set_xticks(xs)
    ax.set_xlabel("seat (turn order)")
    ax.set_ylabel("wins (%)")
    ax.legend(fontsize=8)
    _save(fig, path)


def counts_bar(path: Path, counts: Mapping[str, int], xlabel: str, ylabel: str) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5, 3.5))
    keys = sorted(counts, key=lambda k: -counts[k])
    ax.bar(keys, [counts[k] for k in keys], color="#4C72B0")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _save(fig, path)


def histogram(path: Path, counts: Mapping[int, int], xlabel: str, ylabel: str) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5, 3.5))
    keys = sorted(counts)
    ax.bar(keys, [counts[k] for k in keys], color="#4C72B0", width=0.9)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_yscale("log")
    _save(fig, path)


def land_returns(path: Path, names: Sequence[str], values: Sequence[float]) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(12, 4.5))
    ax.bar(range(len(names)), values, color="#4C72B0")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=90, fontsize=8)
    ax.set_ylabel("tolls earned per 만 paid")
    _save(fig, path)


def option_effects(
    path: Path,
    labels: Sequence[str],
    values: Sequence[float],
    errors: Sequence[float],
    xlabel: str,
    log: bool = False,
) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(labels) + 1.2))
    ys = list(range(len(labels)))[::-1]
    ax.barh(ys, values, xerr=[1.96 * e for e in errors], color="#4C72B0", ecolor="#222")
    ax.axvline(values[0], color="#888", lw=0.8, ls="--")
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel(xlabel)
    if log:
        ax.set_xscale("log")
    _save(fig, path)


def heatmap(
    path: Path,
    matrix: Sequence[Sequence[float]],
    rows: Sequence[str],
    cols: Sequence[str],
    title: str,
    xlabel: str,
    ylabel: str,
) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(0.8 * len(cols) + 2, 0.55 * len(rows) + 1.5))
    ax.imshow([[100 * v for v in row] for row in matrix], cmap="Blues", vmin=0, vmax=100)
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            ax.text(
                j,
                i,
                f"{100 * v:.0f}",
                ha="center",
                va="center",
                color="white" if v > 0.55 else "black",
                fontsize=8,
            )
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, fontsize=8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    _save(fig, path)


def grouped_bars(
    path: Path, groups: Sequence[str], series: Mapping[str, Sequence[float]], ylabel: str
) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(5, 0.9 * len(groups) * max(len(series), 1) * 0.5 + 3), 3.8))
    w = 0.8 / max(len(series), 1)
    for k, (label, values) in enumerate(series.items()):
        ax.bar(
            [i + (k - (len(series) - 1) / 2) * w for i in range(len(groups))],
            values,
            w,
            label=label,
        )
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    _save(fig, path)
