"""신분 카드 게임: where each title finishes, what revolutions do, how long rounds are, and
what the jesters are worth.

`Analysis` reads every round of every record: the titles at the deal (the first round's from
the draw, later ones from the previous round's finish), a revolution and who declared it, the
finishing order, the tricks, plays and passes, and who held the jesters: in play (every
jester played is seen; the ones never played stay with the last player) and at the deal (in
play, minus the tax cards received, plus the ones given). Sums only, so batches merge.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jokeapp.games.dalmuti.data import rank_title
from jokeapp.sim.analysis import plots
from jokeapp.sim.analysis.report import Moments, RunInfo, pct, table

TAX, REVOLUTION, GREAT = "tax", "revolution", "great"
KINDS = (TAX, REVOLUTION, GREAT)
KIND_LABEL = {TAX: "tax paid", REVOLUTION: "revolution (no tax)", GREAT: "great revolution"}
JESTER_PREFIX = "13-"


def _jesters(cards: Sequence[str]) -> int:
    return sum(1 for c in cards if c.startswith(JESTER_PREFIX))


class Analysis:
    def __init__(self) -> None:
        self.players = 0
        self.games = 0
        self.rounds = 0
        self.revolution_on = True
        # (round kind, title at the deal 0.., finishing place 0..) -> rounds
        self.places: Counter[tuple[str, int, int]] = Counter()
        self.kinds: Counter[str] = Counter()
        self.declared_by: Counter[tuple[str, int]] = Counter()  # (kind, title)
        self.declarer_place: Counter[tuple[str, int]] = Counter()  # (kind, place)
        self.both_jesters = 0  # rounds in which one player was dealt both jesters
        self.both_declared = 0
        self.tricks = Moments()
        self.plays = Moments()
        self.passes = Moments()
        self.tricks_hist: Counter[int] = Counter()
        self.plays_hist: Counter[int] = Counter()
        # jesters held -> (finishing place sum, points sum, players)
        self.jester_deal: Counter[tuple[int, int]] = Counter()  # (jesters, place)
        self.jester_play: Counter[tuple[int, int]] = Counter()
        self.reigns = Moments()  # rounds in a row the first 대왕 kept the title

    def add(self, record: Mapping[str, Any], state: Any) -> None:
        players: list[str] = list(record["players"])
        self.players = len(players)
        self.revolution_on = bool(record["options"]["revolution"])
        if "cutOff" in record:
            return
        self.games += 1
        order: list[str] = []
        for event in record["setupEvents"]:
            if event["type"] == "firstRankDraw":
                order = list(event["order"])
        round_: dict[str, Any] = self._new_round(order)
        kings: list[str] = []
        for step in record["steps"]:
            for event in step["events"]:
                kind = event["type"]
                if kind == "revolution":
                    round_["kind"] = GREAT if event["kind"] == "great" else REVOLUTION
                    round_["declarer"] = event["player"]
                elif kind == "taxPaid" or kind == "taxReturned":
                    n = _jesters(event["cardIds"])
                    round_["given"][event["from"]] += n
                    round_["received"][event["to"]] += n
                elif kind == "played":
                    round_["plays"] += 1
                    round_["inplay"][event["player"]] += _jesters(event["cardIds"])
                elif kind == "passed":
                    round_["passes"] += 1
                elif kind == "trickWon":
                    round_["tricks"] += 1
                elif kind == "roundOver":
                    finish = list(event["order"])
                    self._round_over(round_, finish)
                    kings.append(finish[0])
                    round_ = self._new_round(finish)
        if kings:
            first = kings[0]
            reign = 0
            for king in kings[1:]:
                if king != first:
                    break
                reign += 1
            self.reigns.add(reign)

    @staticmethod
    def _new_round(order: list[str]) -> dict[str, Any]:
        return {
            "order": order,
            "kind": TAX,
            "declarer": None,
            "given": Counter(),
            "received": Counter(),
            "inplay": Counter(),
            "plays": 0,
            "passes": 0,
            "tricks": 1,  # the last trick ends with the round, not with trickWon
        }

    def _round_over(self, round_: dict[str, Any], finish: list[str]) -> None:
        self.rounds += 1
        kind: str = round_["kind"]
        self.kinds[kind] += 1
        order: list[str] = round_["order"]
        place = {p: i for i, p in enumerate(finish)}
        for title, player in enumerate(order):
            self.places[(kind, title, place[player])] += 1
        declarer = round_["declarer"]
        if declarer is not None:
            self.declared_by[(kind, order.index(declarer))] += 1
            self.declarer_place[(kind, place[declarer])] += 1
        inplay: Counter[str] = round_["inplay"]
        inplay[finish[-1]] += 2 - sum(inplay.values())  # never played: the last one kept them
        for player in order:
            held = inplay[player]
            dealt = held - round_["received"][player] + round_["given"][player]
            self.jester_play[(held, place[player])] += 1
            self.jester_deal[(dealt, place[player])] += 1
            if dealt == 2:
                self.both_jesters += 1
                self.both_declared += declarer == player
        self.tricks.add(round_["tricks"])
        self.plays.add(round_["plays"])
        self.passes.add(round_["passes"])
        self.tricks_hist[round_["tricks"]] += 1
        self.plays_hist[round_["plays"]] += 1

    def merge(self, other: Analysis) -> None:
        self.players = other.players or self.players
        self.revolution_on = other.revolution_on
        self.games += other.games
        self.rounds += other.rounds
        self.places.update(other.places)
        self.kinds.update(other.kinds)
        self.declared_by.update(other.declared_by)
        self.declarer_place.update(other.declarer_place)
        self.tricks_hist.update(other.tricks_hist)
        self.plays_hist.update(other.plays_hist)
        self.jester_deal.update(other.jester_deal)
        self.jester_play.update(other.jester_play)
        self.both_jesters += other.both_jesters
        self.both_declared += other.both_declared
        for mine_m, theirs_m in (
            (self.tricks, other.tricks),
            (self.plays, other.plays),
            (self.passes, other.passes),
            (self.reigns, other.reigns),
        ):
            mine_m.merge(theirs_m)

    def lines(self) -> list[str]:
        return [f"games: {self.games}, rounds: {self.rounds}"]

    # ------------------------------------------------------------------ derived
    def matrix(self, kinds: Sequence[str]) -> list[list[float]]:
        """[title][place]: the share of rounds of ``kinds`` in which that title finished there."""
        n = self.players
        rows = []
        for title in range(n):
            counts = [sum(self.places[(k, title, p)] for k in kinds) for p in range(n)]
            total = sum(counts) or 1
            rows.append([c / total for c in counts])
        return rows

    def mean_place(self, kinds: Sequence[str], title: int) -> float:
        counts = [sum(self.places[(k, title, p)] for k in kinds) for p in range(self.players)]
        total = sum(counts)
        return sum((p + 1) * c for p, c in enumerate(counts)) / total if total else 0.0

    def stays(self, kinds: Sequence[str] = KINDS) -> float:
        """The share of rounds in which the 대왕 at the deal finishes first again."""
        return self.matrix(kinds)[0][0] if self.players else 0.0

    def summary(self) -> dict[str, float]:
        n = max(self.rounds, 1)
        last = self.players - 1
        return {
            "stays": self.stays(),
            "kingPlace": self.mean_place(KINDS, 0),
            "peonPlace": self.mean_place(KINDS, last),
            "revolutions": (self.kinds[REVOLUTION] + self.kinds[GREAT]) / n,
            "tricks": self.tricks.mean,
            "plays": self.plays.mean,
        }


def titles(n: int) -> list[str]:
    return [rank_title(i, n) for i in range(n)]


def _jester_rows(counter: Counter[tuple[int, int]], n: int) -> list[list[Any]]:
    rows = []
    for held in (0, 1, 2):
        counts = [counter[(held, p)] for p in range(n)]
        total = sum(counts)
        if not total:
            continue
        mean = sum((p + 1) * c for p, c in enumerate(counts)) / total
        rows.append([held, f"{total:,}", f"{mean:.2f}", pct(counts[0] / total)])
    return rows


def report(
    main: Analysis, sweep: Sequence[tuple[str, str, Analysis]], info: RunInfo, out: Path
) -> str:
    n = main.players
    names = titles(n)
    places = [f"{p + 1}위" for p in range(n)]
    lines = info.header()
    rounds = max(main.rounds, 1)
    lines += [
        "",
        f"{main.rounds:,} rounds in {main.games:,} games. A player's *title* is the one it was "
        "dealt with (before any revolution); its *place* is where it finished the round.",
        "",
        "## Finishing place by title: how long a 대왕 stays 대왕",
        "",
    ]
    pictures = []
    for kinds, label, file in (
        ((TAX,), "rounds with tax", "places_tax.png"),
        ((REVOLUTION,), "rounds with a revolution (no tax)", "places_revolution.png"),
        ((GREAT,), "rounds with a great revolution (order turned)", "places_great.png"),
    ):
        if sum(main.kinds[k] for k in kinds):
            plots.heatmap(
                out / file,
                main.matrix(kinds),
                names,
                places,
                f"{label} (% of rounds)",
                "finishing place",
                "title at the deal",
            )
            pictures.append(f"![{label}]({file})")
    off = next((a for text, _, a in sweep if text == "revolution=false"), None)
    if off is not None and off.rounds:
        plots.heatmap(
            out / "places_no_revolution.png",
            off.matrix(KINDS),
            names,
            places,
            "option revolution off (% of rounds)",
            "finishing place",
            "title at the deal",
        )
        pictures.append("![revolution off](places_no_revolution.png)")
    lines += [" ".join(pictures), ""]
    head = ["title", *[KIND_LABEL[k] for k in KINDS], "all rounds"]
    if off is not None:
        head.append("option revolution off")
    rows = []
    for title in range(n):
        row: list[Any] = [names[title]]
        row += [f"{main.mean_place((k,), title):.2f}" if main.kinds[k] else "" for k in KINDS]
        row.append(f"{main.mean_place(KINDS, title):.2f}")
        if off is not None:
            row.append(f"{off.mean_place(KINDS, title):.2f}")
        rows.append(row)
    lines += ["Mean finishing place (1 = first out):", ""]
    lines += table(head, rows)
    stays = {k: main.stays((k,)) for k in KINDS if main.kinds[k]}
    lines += [
        "",
        "The 대왕 finishes first again in "
        + ", ".join(f"{pct(v)} of {KIND_LABEL[k]} rounds" for k, v in stays.items())
        + (f" and {pct(off.stays())} with the option revolution off" if off is not None else "")
        + f" (a fair draw: {pct(1 / max(n, 1))}). The first round's 대왕 (from the card draw) kept "
        f"the title for {main.reigns.mean:.2f} more rounds on average.",
        "",
        "## Revolutions",
        "",
    ]
    revs = main.kinds[REVOLUTION] + main.kinds[GREAT]
    lines += [
        f"- a revolution in {pct(revs / rounds)} of rounds ({pct(main.kinds[REVOLUTION] / rounds)} "
        f"a revolution, {pct(main.kinds[GREAT] / rounds)} a great one); "
        f"one player is dealt both jesters in {pct(main.both_jesters / rounds)} of rounds and "
        f"declares in {pct(main.both_declared / max(main.both_jesters, 1))} of those (the bots' choice).",
    ]
    for kind in (REVOLUTION, GREAT):
        total = main.kinds[kind]
        if not total:
            continue
        by: Counter[str] = Counter()
        for t in range(n):
            by[names[t]] += main.declared_by[(kind, t)]  # the 평민 seats under one name
        mean = sum((p + 1) * main.declarer_place[(kind, p)] for p in range(n)) / total
        who, count = by.most_common(1)[0]
        lines.append(
            f"- {KIND_LABEL[kind]}: declared most by a {who} "
            f"({pct(count / total)}); the declarer finishes {mean:.2f} on average, "
            f"first in {pct(main.declarer_place[(kind, 0)] / total)}."
        )
    if main.kinds[GREAT] and main.kinds[TAX]:
        lines.append(
            f"- a 대농노 who turns the order finishes {main.mean_place((GREAT,), n - 1):.2f} on "
            f"average, against {main.mean_place((TAX,), n - 1):.2f} when paying tax; the 대왕 of "
            f"that deal finishes {main.mean_place((GREAT,), 0):.2f} (with tax "
            f"{main.mean_place((TAX,), 0):.2f})."
        )
    if main.kinds[REVOLUTION] and main.kinds[TAX]:
        lines.append(
            f"- without tax (a revolution) the 대왕 finishes {main.mean_place((REVOLUTION,), 0):.2f} "
            f"and the 대농노 {main.mean_place((REVOLUTION,), n - 1):.2f}."
        )
    lines += ["", "## Tricks and plays per round", ""]
    plots.histogram(out / "tricks.png", dict(main.tricks_hist), "tricks in a round", "rounds")
    plots.histogram(
        out / "plays.png", dict(main.plays_hist), "plays (sets laid) in a round", "rounds"
    )
    lines += [
        "![tricks per round](tricks.png) ![plays per round](plays.png)",
        "",
        f"A round has {main.tricks.mean:.1f} tricks (sd {main.tricks.sd:.1f}), {main.plays.mean:.1f} "
        f"plays (sd {main.plays.sd:.1f}) and {main.passes.mean:.1f} passes.",
        "",
        "## The value of holding jesters",
        "",
    ]
    series = {}
    for label, counter in (
        ("dealt", main.jester_deal),
        ("held in play, after tax", main.jester_play),
    ):
        means = []
        for held in (0, 1, 2):
            counts = [counter[(held, p)] for p in range(n)]
            total = sum(counts)
            means.append(sum((p + 1) * c for p, c in enumerate(counts)) / total if total else 0)
        series[label] = means
    plots.grouped_bars(
        out / "jesters.png",
        ["0 jesters", "1 jester", "2 jesters"],
        series,
        "mean finishing place (lower is better)",
    )
    dealt = series["dealt"]
    lines += [
        "![jesters](jesters.png)",
        "",
        f"A player dealt one jester finishes {dealt[0] - dealt[1]:.2f} places better on average "
        f"than one dealt none, and both jesters {dealt[0] - dealt[2]:.2f} places better (with "
        "rank points, one place is one point a round).",
        "",
    ]
    head = ["jesters", "player-rounds", "mean place", "first out"]
    lines += ["Dealt (before tax):", ""] + table(head, _jester_rows(main.jester_deal, n))
    lines += ["", "Held in play (after tax):", ""] + table(head, _jester_rows(main.jester_play, n))
    lines.append("")
    if sweep:
        base = main.summary()
        lines += ["## Each option's effect", ""]
        labels = ["default"] + [text for text, _, _ in sweep]
        plots.option_effects(
            out / "options.png",
            labels,
            [base["stays"] * 100] + [a.summary()["stays"] * 100 for _, _, a in sweep],
            [0.0] * len(labels),
            "대왕 finishes first again (% of rounds)",
        )
        lines += [
            "![options](options.png)",
            "",
            "Every choice is played with the same seeds as the others; a choice that changes "
            "nothing the bots do plays the very same games.",
            "",
        ]
        rows = []
        for text, label, a in [("default", "", main), *sweep]:
            s = a.summary()
            rows.append(
                [
                    f"`{text}`" if text != "default" else text,
                    label,
                    pct(s["stays"]),
                    f"{s['kingPlace']:.2f}",
                    f"{s['peonPlace']:.2f}",
                    pct(s["revolutions"]),
                    f"{s['tricks']:.1f}",
                    f"{s['plays']:.1f}",
                ]
            )
        lines += table(
            [
                "option",
                "",
                "대왕 first again",
                "대왕 mean place",
                "대농노 mean place",
                "revolutions",
                "tricks/round",
                "plays/round",
            ],
            rows,
        )
        lines.append("")
    return "\n".join(lines)


def facts(main: Analysis) -> list[str]:
    """A few short Korean facts for the client's rules screen."""
    revs = main.kinds[REVOLUTION] + main.kinds[GREAT]
    return [
        f"대왕이 또 1등으로 나갈 확률 {round(100 * main.stays())}%",
        f"혁명은 {round(100 * revs / max(main.rounds, 1))}%의 라운드에서 일어나요",
        f"한 라운드는 평균 {main.tricks.mean:.0f}트릭",
    ]
