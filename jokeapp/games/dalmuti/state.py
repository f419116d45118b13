"""The game state (spec 8.1) as slotted dataclasses. Cards are ints (see data.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from jokeapp.core.contract import Pending
from jokeapp.core.rng import Rng
from jokeapp.games.dalmuti.options import DalmutiOptions

# Pending kinds and their deadlines in seconds (spec 8.5; a turn takes ``turnSeconds``).
PLAY = "play"
CONFIRM_HAND = "confirmHand"
RETURN_TAX = "returnTax"
REVOLUTION_CHECK_SECONDS = 20
TAX_RETURN_SECONDS = 30

NO_REVOLUTION = "none"
REVOLUTION = "revolution"
GREAT_REVOLUTION = "great"


# Phases. ``kind`` is the spec's discriminator; each phase keeps only its own data.


@dataclass(slots=True)
class FirstRankDraw:
    draws: dict[str, list[int]]
    kind: str = "firstRankDraw"


@dataclass(slots=True)
class RevolutionCheck:
    confirmed: dict[str, bool]
    # Who declared a revolution while confirming: it waits, secret, until everyone has
    # confirmed (spec 8.2, 8.3), so it lives here and not in the public ``revolution``.
    declared_by: str | None = None
    kind: str = "revolutionCheck"


@dataclass(slots=True)
class Owed:
    """What a high rank still has to give back after being paid tax."""

    to: str
    count: int
    done: bool = False


@dataclass(slots=True)
class TaxReturn:
    owed: dict[str, Owed]  # keyed by the player who gives cards back
    kind: str = "taxReturn"


@dataclass(slots=True)
class Playing:
    kind: str = "playing"


@dataclass(slots=True)
class RoundOver:
    kind: str = "roundOver"


@dataclass(slots=True)
class Finished:
    kind: str = "finished"


Phase = FirstRankDraw | RevolutionCheck | TaxReturn | Playing | RoundOver | Finished


@dataclass(slots=True)
class Play:
    """One set on the table. ``rank`` is the number of its number cards, 13 for jesters alone."""

    cards: tuple[int, ...]
    count: int
    rank: int
    by: str


@dataclass(slots=True)
class Trick:
    leader: str
    top: Play | None = None
    passes_since_top: list[str] = field(default_factory=list)
    locked_out: list[str] = field(default_factory=list)
    pile: list[Play] = field(default_factory=list)


@dataclass(slots=True)
class TaxMove:
    giver: str
    receiver: str
    cards: tuple[int, ...]


@dataclass(slots=True)
class RoundResult:
    order: list[str]
    revolution: str


@dataclass(slots=True)
class DalmutiState:
    options: DalmutiOptions
    rng: Rng
    players: list[str]  # as given to setup, never changes
    order: list[str]  # this round's ranks = seats = turn order; [0] is the top rank
    round: int
    hands: dict[str, list[int]]  # each kept sorted
    phase: Phase
    revolution: str
    revolution_by: str | None  # who declared this round's revolution: it is public
    tax_log: list[TaxMove]
    trick: Trick
    current: str
    finish_order: list[str]
    round_results: list[RoundResult]
    totals: dict[str, int]
    # Cards of this round's cleared tricks: with hands and the trick pile they account for
    # the whole deck (an addition to the spec's shape, see docs/rules-decisions.md).
    discard: list[int] = field(default_factory=list)
    seq: int = 0  # actions applied so far
    # Every Pending the game can report, built once per player and kind: a Pending depends
    # only on the player, the kind and the options, all fixed for the whole game (the options
    # are frozen), and it is frozen, so this never goes stale. Not game data: left out of JSON
    # and comparisons.
    pendings: dict[str, dict[str, Pending]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.pendings = {kind: {} for kind in (PLAY, CONFIRM_HAND, RETURN_TAX)}
        for player in self.players:
            for kind in self.pendings:
                self.pendings[kind][player] = Pending(player, kind, self.deadline(kind))

    def deadline(self, kind: str) -> int:
        """The time budget of a pending kind (spec 8.5)."""
        if kind == CONFIRM_HAND:
            return REVOLUTION_CHECK_SECONDS
        if kind == RETURN_TAX:
            return TAX_RETURN_SECONDS
        return self.options.turn_seconds

    def pending(self, player: str, kind: str) -> Pending:
        """``player`` must act now: a ``kind`` decision with its deadline, as prebuilt
        (``timeouts.pending``, asked before every move, reads the turn's straight from
        ``pendings``)."""
        found = self.pendings[kind].get(player)
        if found is None:  # not one of this game's players: made on the spot
            found = Pending(player, kind, self.deadline(kind))
        return found
