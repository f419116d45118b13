"""The wire types of dalmuti: every action (spec 8.2), every event (DESIGN.md "Events") and
the view (spec 8.3), as standard-library TypedDicts.

These are the one declaration of what dalmuti sends and accepts: ``joke schema`` exports
them as JSON Schema, the client's TypeScript types are generated from that, and
tests/server/test_wire_types.py checks random play against them, unknown keys included.
Keys a TypedDict cannot spell in a class body (``from``) use the functional form.

Naming: every type starts with ``Dalmuti`` (the schema holds both games' types in one
namespace); actions end in ``Action``, events in ``Event``, phases in ``Phase``.
"""

from typing import Literal, NotRequired, TypedDict

# ---------------------------------------------------------------- shared pieces

DalmutiRevolution = Literal["none", "revolution", "great"]


class DalmutiOptions(TypedDict):
    """The complete options of spec section 2 (defaults filled in)."""

    rounds: int
    scoring: Literal["rank-points", "last-round"]
    firstRanking: Literal["draw", "random"]
    revolution: bool
    jesterTaxable: bool
    passLocksOut: bool
    removeHighCards: bool
    turnSeconds: int


class DalmutiCard(TypedDict):
    """The spec's DCard: ``n`` is 1..12, 13 for a jester."""

    id: str
    n: int


class DalmutiPlay(TypedDict):
    """One set on the table; ``rank`` is its number, 13 for jesters alone."""

    cardIds: list[str]
    count: int
    rank: int
    by: str


class DalmutiRankingEntry(TypedDict):
    player: str
    rank: int
    total: int
    roundRanks: list[int]


class DalmutiResult(TypedDict):
    """The spec's GameResult (8.6)."""

    ranking: list[DalmutiRankingEntry]
    winner: list[str]
    summary: str


# ---------------------------------------------------------------- actions (spec 8.2)


class DalmutiConfirmHandAction(TypedDict):
    type: Literal["confirmHand"]
    declareRevolution: NotRequired[bool]


class DalmutiReturnTaxAction(TypedDict):
    type: Literal["returnTax"]
    cardIds: list[str]


class DalmutiPlayAction(TypedDict):
    type: Literal["play"]
    cardIds: list[str]


class DalmutiPassAction(TypedDict):
    type: Literal["pass"]


DalmutiAction = (
    DalmutiConfirmHandAction | DalmutiReturnTaxAction | DalmutiPlayAction | DalmutiPassAction
)

# ---------------------------------------------------------------- events (DESIGN.md "Events")


class DalmutiFirstRankDrawEvent(TypedDict):
    type: Literal["firstRankDraw"]
    draws: dict[str, list[int]]  # each player's draws, re-draws included
    order: list[str]


class DalmutiDealtEvent(TypedDict):
    type: Literal["dealt"]
    counts: dict[str, int]


class DalmutiRevolutionEvent(TypedDict):
    type: Literal["revolution"]
    player: str
    kind: Literal["revolution", "great"]


# The card ids of a tax move are only in the copies sent to its giver and its receiver.
DalmutiTaxPaidEvent = TypedDict(
    "DalmutiTaxPaidEvent",
    {
        "type": Literal["taxPaid"],
        "from": str,
        "to": str,
        "count": int,
        "cardIds": NotRequired[list[str]],
    },
)

DalmutiTaxReturnedEvent = TypedDict(
    "DalmutiTaxReturnedEvent",
    {
        "type": Literal["taxReturned"],
        "from": str,
        "to": str,
        "count": int,
        "cardIds": NotRequired[list[str]],
    },
)


class DalmutiPlayedEvent(TypedDict):
    type: Literal["played"]
    player: str
    cardIds: list[str]
    count: int
    rank: int


class DalmutiPassedEvent(TypedDict):
    type: Literal["passed"]
    player: str


class DalmutiTrickWonEvent(TypedDict):
    type: Literal["trickWon"]
    player: str
    next: str  # who leads the next trick


class DalmutiHandEmptiedEvent(TypedDict):
    type: Literal["handEmptied"]
    player: str
    place: int


class DalmutiRoundOverEvent(TypedDict):
    type: Literal["roundOver"]
    round: int
    order: list[str]
    points: dict[str, int]


class DalmutiGameOverEvent(TypedDict):
    type: Literal["gameOver"]
    result: DalmutiResult


DalmutiEvent = (
    DalmutiFirstRankDrawEvent
    | DalmutiDealtEvent
    | DalmutiRevolutionEvent
    | DalmutiTaxPaidEvent
    | DalmutiTaxReturnedEvent
    | DalmutiPlayedEvent
    | DalmutiPassedEvent
    | DalmutiTrickWonEvent
    | DalmutiHandEmptiedEvent
    | DalmutiRoundOverEvent
    | DalmutiGameOverEvent
)

# ---------------------------------------------------------------- the view (spec 8.3)


class DalmutiFirstRankDrawPhase(TypedDict):
    kind: Literal["firstRankDraw"]
    draws: dict[str, list[int]]


class DalmutiRevolutionCheckPhase(TypedDict):
    kind: Literal["revolutionCheck"]
    confirmed: dict[str, bool]


class DalmutiOwed(TypedDict):
    to: str
    count: int
    done: bool


class DalmutiTaxReturnPhase(TypedDict):
    kind: Literal["taxReturn"]
    owed: dict[str, DalmutiOwed]  # keyed by the player who gives cards back


class DalmutiPlayingPhase(TypedDict):
    kind: Literal["playing"]


class DalmutiRoundOverPhase(TypedDict):
    kind: Literal["roundOver"]


class DalmutiFinishedPhase(TypedDict):
    kind: Literal["finished"]


DalmutiPhase = (
    DalmutiFirstRankDrawPhase
    | DalmutiRevolutionCheckPhase
    | DalmutiTaxReturnPhase
    | DalmutiPlayingPhase
    | DalmutiRoundOverPhase
    | DalmutiFinishedPhase
)


class DalmutiTrick(TypedDict):
    leader: str
    top: DalmutiPlay | None
    passesSinceTop: list[str]
    lockedOut: list[str]
    pile: list[DalmutiPlay]


class DalmutiRoundResult(TypedDict):
    order: list[str]
    revolution: DalmutiRevolution


DalmutiTaxMove = TypedDict(
    "DalmutiTaxMove",
    {
        "kind": Literal["paid", "returned"],
        "from": str,
        "to": str,
        "count": int,
        "cardIds": NotRequired[list[str]],  # only for the giver and the receiver
    },
)


class DalmutiView(TypedDict):
    """What a player (or a spectator: ``viewer`` null, ``hand`` null) sees."""

    game: Literal["dalmuti"]
    viewer: str | None
    options: DalmutiOptions
    players: list[str]
    order: list[str]  # this round's ranks = turn order; [0] is the top rank
    titles: dict[str, str]
    round: int
    phase: DalmutiPhase
    revolution: DalmutiRevolution
    revolutionBy: str | None
    handCounts: dict[str, int]
    hand: list[DalmutiCard] | None
    trick: DalmutiTrick
    current: str | None  # only while playing
    finishOrder: list[str]
    roundResults: list[DalmutiRoundResult]
    totals: dict[str, int]
    tax: list[DalmutiTaxMove]
    discardCount: int
    result: DalmutiResult | None
    canDeclareRevolution: NotRequired[bool]  # only to the holder of both jesters
    revolutionDeclared: NotRequired[
        bool
    ]  # only to the declarer, while the check waits for the others
