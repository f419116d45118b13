"""세계 여행 땅따먹기: what the games say, next to the board's Markov chain.

`Analysis` collects, per game, the landings on every square, the turns each piece
played, the space trips and escape cards (the choices the chain takes from the games), wins
by seat order, end reasons, game length, and per land the tolls it earned and what was paid
for it. Sums only, so batches from worker processes merge (jokeapp.sim.parallel).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jokeapp.games.marble.data import BOARD, BOARD_SIZE, CITIES, ESCAPE_CARD, ISLAND_POS, LANDS
from jokeapp.sim.analysis import plots
from jokeapp.sim.analysis.marble_chain import BoardChain, Choices, Rules
from jokeapp.sim.analysis.report import Moments, RunInfo, pct, share_ci, table

TURN_ACTIONS = frozenset(
    {"ROLL", "SPACE_TRAVEL", "USE_ESCAPE_CARD", "PAY_ISLAND_FEE", "PROPOSE_TRADE"}
)
ISLAND_ACTIONS = frozenset({"ROLL", "USE_ESCAPE_CARD", "PAY_ISLAND_FEE"})
# How far apart the simulated and the chain's shares may be, in standard errors, for the
# report (and tests/sim/test_markov.py) to call them in agreement: 4.5 SE on any of the 40
# squares happens by chance about once in 4,000 runs.
AGREE_SE = 4.5


class Analysis:
    def __init__(self) -> None:
        self.games = 0
        self.cut_off = 0
        self.seats = 0
        self.island_turns = 3
        self.landings = [0] * BOARD_SIZE
        # per game c (landings on a square) and n (all landings): sums for the SE of c/n
        self.landings_sq = [0] * BOARD_SIZE
        self.landings_cn = [0] * BOARD_SIZE
        self.total_n = 0
        self.total_n2 = 0
        self.turns_at_least: list[int] = []  # [t]: pieces that played a (t+1)-th turn
        self.space_dest: Counter[int] = Counter()
        self.escape_chances = 0
        self.escape_used = 0
        self.wins_by_seat: Counter[int] = Counter()
        self.reasons: Counter[str] = Counter()
        self.rounds: Counter[int] = Counter()
        self.steps = Moments()
        self.round_moments = Moments()
        self.bankruptcies = 0
        self.tolls: Counter[int] = Counter()
        self.paid: Counter[int] = Counter()
        self.bought: Counter[int] = Counter()

    # ------------------------------------------------------------------ collecting
    def add(self, record: Mapping[str, Any], state: Any) -> None:
        self.seats = len(record["players"])
        self.island_turns = int(record["options"]["islandTurns"])
        if "cutOff" in record:
            self.cut_off += 1
            return
        self.games += 1
        counts = [0] * BOARD_SIZE
        turns: Counter[str] = Counter()
        last_turn: str | None = None
        island_left: Counter[str] = Counter()
        holds: set[str] = set()
        for step in record["steps"]:
            actor, kind = step["actor"], step["action"]["type"]
            if kind in TURN_ACTIONS and actor != last_turn:
                turns[actor] += 1
                last_turn = actor
            if kind in ISLAND_ACTIONS and island_left[actor] > 0 and actor in holds:
                self.escape_chances += 1
                self.escape_used += kind == "USE_ESCAPE_CARD"
            if kind == "SPACE_TRAVEL":
                self.space_dest[int(step["action"]["dest"])] += 1
            for event in step["events"]:
                self._event(event, counts, island_left, holds)
        n = sum(counts)
        self.total_n += n
        self.total_n2 += n * n
        for pos, c in enumerate(counts):
            self.landings[pos] += c
            self.landings_sq[pos] += c * c
            self.landings_cn[pos] += c * n
        for played in turns.values():
            while len(self.turns_at_least) < played:
                self.turns_at_least.append(0)
            for t in range(played):
                self.turns_at_least[t] += 1
        result = record["result"]
        order = list(state.order)
        for winner in result["winners"]:
            self.wins_by_seat[order.index(winner) + 1] += 1
        self.reasons[result["reason"]] += 1
        self.rounds[int(state.round)] += 1
        self.round_moments.add(state.round)
        self.steps.add(len(record["steps"]))

    def _event(
        self,
        event: Mapping[str, Any],
        counts: list[int],
        island_left: Counter[str],
        holds: set[str],
    ) -> None:
        kind = event["type"]
        if kind == "moved":
            counts[event["to"]] += 1
        elif kind == "toIsland":
            island_left[event["player"]] = self.island_turns
            if event["reason"] != "landed":  # landing on the square was counted as a move
                counts[ISLAND_POS] += 1
        elif kind == "islandRoll" and not event["escaped"]:
            island_left[event["player"]] -= 1
        elif kind == "escaped":
            island_left[event["player"]] = 0
            if event["how"] == "card":
                holds.discard(event["player"])
        elif kind == "cardDrawn" and event["cardId"] == ESCAPE_CARD:
            holds.add(event["player"])
        elif kind == "bankrupt":
            self.bankruptcies += 1
            holds.discard(event["player"])
        elif kind == "tollPaid" and not event["waived"]:
            self.tolls[event["pos"]] += event["amount"]
        elif kind == "bought":
            self.paid[event["pos"]] += event["price"]
            self.bought[event["pos"]] += 1
        elif kind in ("built", "takeover"):
            self.paid[event["pos"]] += event["cost" if kind == "built" else "price"]

    def merge(self, other: Analysis) -> None:
        self.games += other.games
        self.cut_off += other.cut_off
        self.seats = other.seats or self.seats
        self.island_turns = other.island_turns
        for mine, theirs in (
            (self.landings, other.landings),
            (self.landings_sq, other.landings_sq),
            (self.landings_cn, other.landings_cn),
        ):
            for i, v in enumerate(theirs):
                mine[i] += v
        self.total_n += other.total_n
        self.total_n2 += other.total_n2
        while len(self.turns_at_least) < len(other.turns_at_least):
            self.turns_at_least.append(0)
        for t, v in enumerate(other.turns_at_least):
            self.turns_at_least[t] += v
        self.space_dest.update(other.space_dest)
        self.wins_by_seat.update(other.wins_by_seat)
        self.reasons.update(other.reasons)
        self.rounds.update(other.rounds)
        self.tolls.update(other.tolls)
        self.paid.update(other.paid)
        self.bought.update(other.bought)
        self.escape_chances += other.escape_chances
        self.escape_used += other.escape_used
        self.steps.merge(other.steps)
        self.round_moments.merge(other.round_moments)
        self.bankruptcies += other.bankruptcies

    def lines(self) -> list[str]:
        return [
            f"finished games: {self.games}, cut off: {self.cut_off}",
            f"mean rounds: {self.round_moments.mean:.2f}",
        ]

    # ------------------------------------------------------------------ derived
    def shares(self) -> list[float]:
        total = self.total_n or 1
        return [c / total for c in self.landings]

    def share_errors(self) -> list[float]:
        """The standard error of each square's share, games as the independent units (the
        ratio estimator's delta method: the variance of c - r n over games)."""
        g, total = self.games, self.total_n
        if g < 2 or not total:
            return [0.0] * BOARD_SIZE
        mean_n = total / g
        errors = []
        for pos in range(BOARD_SIZE):
            r = self.landings[pos] / total
            resid = self.landings_sq[pos] - 2 * r * self.landings_cn[pos] + r * r * self.total_n2
            errors.append(math.sqrt(max(resid, 0.0) / (g * (g - 1))) / mean_n)
        return errors

    def choices(self) -> Choices:
        """The bots' own choices, as measured: space destinations and escape card use."""
        trips = sum(self.space_dest.values())
        dest = (
            {d: n / trips for d, n in sorted(self.space_dest.items())}
            if trips
            else Choices().space_dest
        )
        use = self.escape_used / self.escape_chances if self.escape_chances else 1.0
        return Choices(space_dest=dest, escape_use=use)

    def chain(self) -> BoardChain:
        return BoardChain.build(Rules(island_turns=self.island_turns), self.choices())

    def summary(self) -> dict[str, float]:
        n = max(self.games, 1)
        return {
            "rounds": self.round_moments.mean,
            "roundsSe": self.round_moments.se,
            "actions": self.steps.mean,
            "actionsSe": self.steps.se,
            "bankruptEnd": self.reasons["lastSurvivor"] / n,
            "bankruptcies": self.bankruptcies / n,
            "cutOff": self.cut_off,
            "games": self.games,
        }


def name(pos: int) -> str:
    return f"{pos} {BOARD[pos].name}"


def report(
    main: Analysis, sweep: Sequence[tuple[str, str, Analysis]], info: RunInfo, out: Path
) -> str:
    """Writes the PNGs into ``out`` and returns report.md's text. ``sweep``: (option=value,
    Korean label, its games)."""
    lines = info.header()
    lines += ["", "## Landing on each square: the games and the Markov chain", ""]
    chain = main.chain()
    stat = chain.stationary_landings()
    horizon = chain.horizon_landings(main.turns_at_least)
    sim = main.shares()
    errors = main.share_errors()
    choices = main.choices()
    plots.landings(out / "landings.png", sim, errors, stat, horizon, [t.name for t in BOARD])
    diff = max(range(BOARD_SIZE), key=lambda p: abs(sim[p] - stat[p]))
    hdiff = max(range(BOARD_SIZE), key=lambda p: abs(sim[p] - horizon[p]) / (errors[p] or 1))
    top = sorted(range(BOARD_SIZE), key=lambda p: -stat[p])[:3]
    by_gap = sorted(range(BOARD_SIZE), key=lambda p: sim[p] - stat[p])
    over, under = by_gap[::-1][:3], by_gap[:3]
    lines += [
        "![landing shares](landings.png)",
        "",
        f"A landing is every arrival on a square (dice, card and space moves, and being sent to "
        f"무인도); {main.total_n:,} landings in {main.games:,} games. The chain ({len(chain.states)} "
        "turn-start states, `jokeapp/sim/analysis/marble_chain.py`) follows 2d6, doubles and the "
        "third double, 무인도, 우주여행 and the lucky cards' moves exactly; it takes from the games "
        f"where players fly from 우주여행 and that a player on the island uses the escape card "
        f"{pct(choices.escape_use)} of the time it can, and draws each card as if uniformly from "
        "the deck.",
        "",
        "- **stationary** (a piece that plays for ever): most landed on "
        + ", ".join(f"{name(p)} {pct(stat[p], 2)}" for p in top)
        + f"; a plain loop would give {pct(1 / BOARD_SIZE, 2)} each.",
        f"- **largest difference, games vs stationary**: {name(diff)}, {pct(sim[diff], 2)} in the "
        f"games against {pct(stat[diff], 2)} ({100 * (sim[diff] - stat[diff]):+.2f} points). Games "
        f"last about {main.round_moments.mean:.1f} rounds from 출발, too short to forget the start; "
        "landed on more than in the long run: "
        + ", ".join(f"{name(p)} ({100 * (sim[p] - stat[p]):+.2f})" for p in over)
        + "; less: "
        + ", ".join(f"{name(p)} ({100 * (sim[p] - stat[p]):+.2f})" for p in under)
        + ".",
        f"- **the same chain walked from 출발** for the turns the games actually had (the "
        f"*horizon* bars): largest gap {name(hdiff)}, {pct(sim[hdiff], 2)} vs {pct(horizon[hdiff], 2)}, "
        f"{abs(sim[hdiff] - horizon[hdiff]) / (errors[hdiff] or 1):.1f} standard errors "
        f"({'within' if abs(sim[hdiff] - horizon[hdiff]) <= AGREE_SE * (errors[hdiff] or 1) else 'beyond'} "
        f"the {AGREE_SE} SE the tests allow).",
        "",
    ]
    rows = [
        [name(p), pct(sim[p], 2), pct(errors[p], 3), pct(stat[p], 2), pct(horizon[p], 2)]
        for p in range(BOARD_SIZE)
    ]
    lines += ["<details><summary>every square</summary>", ""]
    lines += table(["square", "games", "± SE", "stationary", "horizon"], rows)
    lines += ["", "</details>", ""]

    lines += ["## Wins by seat order", ""]
    plots.seat_wins(out / "seats.png", main.wins_by_seat, main.games, main.seats)
    seat_rows = []
    for seat in range(1, main.seats + 1):
        p, lo, hi = share_ci(main.wins_by_seat[seat], main.games)
        seat_rows.append([seat, f"{main.wins_by_seat[seat]:,}", pct(p), f"{pct(lo)}–{pct(hi)}"])
    lines += ["![wins by seat](seats.png)", ""]
    lines += table(["seat (turn order)", "wins", "share", "95% interval"], seat_rows)
    lines += [
        "",
        f"A fair seat wins {pct(1 / max(main.seats, 1))}; shared wins count for each winner.",
        "",
    ]

    lines += ["## End reasons and game length", ""]
    plots.counts_bar(out / "reasons.png", dict(main.reasons), "end reason", "games")
    plots.histogram(out / "length.png", dict(main.rounds), "rounds played", "games")
    lines += ["![end reasons](reasons.png) ![game length](length.png)", ""]
    lines += table(
        ["end reason", "games", "share"],
        [[r, f"{c:,}", pct(c / max(main.games, 1))] for r, c in main.reasons.most_common()],
    )
    lines += [
        "",
        f"Mean length {main.round_moments.mean:.2f} rounds (sd {main.round_moments.sd:.2f}), "
        f"{main.steps.mean:.0f} actions; {main.bankruptcies / max(main.games, 1):.2f} bankruptcies "
        f"a game; {main.cut_off} games cut off at the step cap.",
        "",
    ]

    lines += ["## Return on each land", ""]
    lands = sorted(LANDS)
    ret = {p: main.tolls[p] / main.paid[p] if main.paid[p] else 0.0 for p in lands}
    plots.land_returns(out / "returns.png", [name(p) for p in lands], [ret[p] for p in lands])
    best = sorted(lands, key=lambda p: -ret[p])
    lines += [
        "![tolls per price paid](returns.png)",
        "",
        "Tolls paid to the owner (waived ones and what a bankrupt player hands over not counted) per 만 paid for the land "
        "(purchase, buildings, takeovers), over all games. Best: "
        + ", ".join(f"{name(p)} {ret[p]:.2f}" for p in best[:3])
        + "; worst: "
        + ", ".join(f"{name(p)} {ret[p]:.2f}" for p in best[-3:])
        + ".",
        "",
    ]
    lines += table(
        ["land", "purchases", "paid", "tolls", "tolls per 만 paid"],
        [
            [
                name(p),
                f"{main.bought[p]:,}",
                f"{main.paid[p]:,}",
                f"{main.tolls[p]:,}",
                f"{ret[p]:.2f}",
            ]
            for p in lands
        ],
    )
    lines.append("")

    if sweep:
        base = main.summary()
        lines += ["## Each option's effect on game length", ""]
        labels = ["default"] + [text for text, _, _ in sweep]
        # actions, not rounds: with a round limit most games play every round
        values = [base["actions"]] + [a.summary()["actions"] for _, _, a in sweep]
        errs = [base["actionsSe"]] + [a.summary()["actionsSe"] for _, _, a in sweep]
        plots.option_effects(
            out / "options.png", labels, values, errs, "mean actions a game (log scale)", log=True
        )
        lines += [
            "![options](options.png)",
            "",
            "Every choice is played with the same seeds as the others, so the differences are "
            "the option's, not the dice's; a choice that changes nothing the bots do plays the "
            "very same games.",
            "",
        ]
        cut = [text for text, _, a in sweep if a.cut_off]
        if cut:
            lines += [
                "A game still running at the step cap (see the command) is cut off: it has no "
                "result and is left out of the means, which are therefore too low for "
                + ", ".join(f"`{t}`" for t in cut)
                + ".",
                "",
            ]
        rows = [
            [
                "default",
                "",
                f"{base['rounds']:.2f}",
                "",
                f"{base['actions']:.0f}",
                pct(base["bankruptEnd"]),
                str(int(base["cutOff"])),
            ]
        ]
        for text, label, a in sweep:
            s = a.summary()
            rows.append(
                [
                    f"`{text}`",
                    label,
                    f"{s['rounds']:.2f}",
                    f"{s['rounds'] - base['rounds']:+.2f}",
                    f"{s['actions']:.0f}",
                    pct(s["bankruptEnd"]),
                    str(int(s["cutOff"])),
                ]
            )
        lines += table(
            [
                "option",
                "",
                "mean rounds",
                "vs default",
                "mean actions",
                "ended by bankruptcy",
                "cut off",
            ],
            rows,
        )
        lines.append("")
    return "\n".join(lines)


def facts(main: Analysis) -> list[str]:
    """A few short Korean facts for the client's rules screen."""
    n = max(main.games, 1)
    seat1 = main.wins_by_seat[1] / n
    sim = main.shares()
    top = max(sorted(LANDS), key=lambda p: sim[p])
    best_city = max(CITIES, key=lambda p: main.tolls[p] / main.paid[p] if main.paid[p] else 0.0)
    return [
        f"출발 순서 1번이 이길 확률 {round(100 * seat1)}%",
        f"가장 많이 밟히는 땅은 {BOARD[top].name}",
        f"도시 중 통행료를 가장 잘 버는 곳은 {BOARD[best_city].name}",
    ]
