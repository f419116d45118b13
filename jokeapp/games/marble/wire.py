"""The wire types of marble: every action (spec 8.2), every event (DESIGN.md "Events") and
the view (spec 8.3), as standard-library TypedDicts.

These are the one declaration of what marble sends and accepts: ``joke schema`` exports them
as JSON Schema, the client's TypeScript types are generated from that, and
tests/server/test_wire_types.py checks random play against them, unknown keys included.
Keys a TypedDict cannot spell in a class body (``from``) use the functional form.

Naming: every type starts with ``Marble`` (the schema holds both games' types in one
namespace); actions end in ``Action``, events in ``Event``.
"""

from typing import Literal, NotRequired, TypedDict

# ---------------------------------------------------------------- shared pieces

MarbleLevel = Literal[0, 1, 2, 3, 4]  # 0 land only, 1 villa, 2 building, 3 hotel, 4 landmark
MarblePhase = Literal["turnStart", "decide", "debt", "tradeResponse", "finished"]
MarbleHeldCard = Literal["L11", "L12"]  # the escape card and the toll waiver
MarbleSaleWhat = Literal["top", "all"]


class MarbleOptions(TypedDict):
    """The complete options of spec section 2 (defaults filled in)."""

    startMoney: int
    salary: int
    maxRounds: int
    buildOnPurchase: bool
    islandTurns: int
    islandFee: int
    takeover: bool
    landmark: bool
    monopolyWin: bool
    trade: bool
    turnSeconds: int | None


class MarbleTradeSide(TypedDict):
    lands: list[int]
    cash: int


MarbleTrade = TypedDict(
    "MarbleTrade",
    {"from": str, "to": str, "give": MarbleTradeSide, "take": MarbleTradeSide},
)


class MarblePlayerCreditor(TypedDict):
    kind: Literal["player"]
    id: str


class MarbleBankCreditor(TypedDict):
    kind: Literal["bank"]


class MarbleFundCreditor(TypedDict):
    kind: Literal["fund"]


MarbleCreditor = MarblePlayerCreditor | MarbleBankCreditor | MarbleFundCreditor


class MarbleRankingEntry(TypedDict):
    rank: int
    player: str
    totalAssets: int
    cash: int
    lands: int
    bankruptAtRound: int | None


class MarbleResult(TypedDict):
    """The spec's MarbleResult (8.6)."""

    reason: Literal["lastSurvivor", "roundLimit", "monopoly"]
    monopolyType: NotRequired[Literal["triple", "line", "tour"]]
    ranking: list[MarbleRankingEntry]
    winners: list[str]
    summary: str


# ---------------------------------------------------------------- actions (spec 8.2)


class MarbleRollAction(TypedDict):
    type: Literal["ROLL"]


class MarblePayIslandFeeAction(TypedDict):
    type: Literal["PAY_ISLAND_FEE"]


class MarbleUseEscapeCardAction(TypedDict):
    type: Literal["USE_ESCAPE_CARD"]


class MarbleSpaceTravelAction(TypedDict):
    type: Literal["SPACE_TRAVEL"]
    dest: int


class MarbleBuyAction(TypedDict):
    type: Literal["BUY"]


class MarbleBuildAction(TypedDict):
    type: Literal["BUILD"]
    level: int


class MarbleTakeoverAction(TypedDict):
    type: Literal["TAKEOVER"]


class MarblePassAction(TypedDict):
    type: Literal["PASS"]


class MarbleSellAction(TypedDict):
    type: Literal["SELL"]
    pos: int
    what: MarbleSaleWhat


class MarbleProposeTradeAction(TypedDict):
    type: Literal["PROPOSE_TRADE"]
    to: str
    give: MarbleTradeSide
    take: MarbleTradeSide


class MarbleTradeRespondAction(TypedDict):
    type: Literal["TRADE_RESPOND"]
    accept: bool


class MarbleConcedeAction(TypedDict):
    type: Literal["CONCEDE"]


MarbleAction = (
    MarbleRollAction
    | MarblePayIslandFeeAction
    | MarbleUseEscapeCardAction
    | MarbleSpaceTravelAction
    | MarbleBuyAction
    | MarbleBuildAction
    | MarbleTakeoverAction
    | MarblePassAction
    | MarbleSellAction
    | MarbleProposeTradeAction
    | MarbleTradeRespondAction
    | MarbleConcedeAction
)

# ---------------------------------------------------------------- events (DESIGN.md "Events")
# Money is in 만; ``from``/``to`` of a payment are a player id, "bank" or "fund".


class MarbleRolledEvent(TypedDict):
    type: Literal["rolled"]
    player: str
    dice: list[int]
    double: bool


MarbleMovedEvent = TypedDict(
    "MarbleMovedEvent",
    {
        "type": Literal["moved"],
        "player": str,
        "from": int,
        "to": int,
        "passedStart": bool,
        "by": Literal["dice", "card", "space"],
    },
)


class MarbleSalaryEvent(TypedDict):
    type: Literal["salary"]
    player: str
    amount: int


class MarbleBoughtEvent(TypedDict):
    type: Literal["bought"]
    player: str
    pos: int
    price: int


class MarbleBuiltEvent(TypedDict):
    type: Literal["built"]
    player: str
    pos: int
    level: int
    cost: int


MarbleTollPaidEvent = TypedDict(
    "MarbleTollPaidEvent",
    {
        "type": Literal["tollPaid"],
        "from": str,
        "to": str,
        "pos": int,
        "amount": int,
        "waived": bool,  # the toll waiver was used: nothing changed hands
    },
)

MarbleTakeoverEvent = TypedDict(
    "MarbleTakeoverEvent",
    {"type": Literal["takeover"], "player": str, "from": str, "pos": int, "price": int},
)


class MarbleCardDrawnEvent(TypedDict):
    type: Literal["cardDrawn"]
    player: str
    cardId: str


MarbleTransferEvent = TypedDict(
    "MarbleTransferEvent",
    {
        "type": Literal["transfer"],
        "from": str,
        "to": str,
        "amount": int,
        "reason": str,  # the card id, or "islandFee"
    },
)


class MarbleFundPaidEvent(TypedDict):
    type: Literal["fundPaid"]
    player: str
    amount: int


class MarbleFundReceivedEvent(TypedDict):
    type: Literal["fundReceived"]
    player: str
    amount: int


class MarbleToIslandEvent(TypedDict):
    type: Literal["toIsland"]
    player: str
    reason: Literal["tripleDouble", "landed", "card"]


class MarbleIslandRollEvent(TypedDict):
    type: Literal["islandRoll"]
    player: str
    dice: list[int]
    escaped: bool


class MarbleEscapedEvent(TypedDict):
    type: Literal["escaped"]
    player: str
    how: Literal["double", "card", "fee"]


class MarbleSpaceTravelEvent(TypedDict):
    type: Literal["spaceTravel"]
    player: str
    dest: int
    fee: int
    to: str | None  # who got the fare (None: nobody owns the spaceport)


class MarbleSoldEvent(TypedDict):
    type: Literal["sold"]
    player: str
    pos: int
    what: MarbleSaleWhat
    amount: int


class MarbleDebtEvent(TypedDict):
    type: Literal["debt"]
    player: str
    amount: int
    to: str


class MarbleBankruptEvent(TypedDict):
    type: Literal["bankrupt"]
    player: str
    creditor: str
    amount: int


MarbleTradeProposedEvent = TypedDict(
    "MarbleTradeProposedEvent",
    {
        "type": Literal["tradeProposed"],
        "from": str,
        "to": str,
        "give": MarbleTradeSide,
        "take": MarbleTradeSide,
    },
)

MarbleTradeResolvedEvent = TypedDict(
    "MarbleTradeResolvedEvent",
    {
        "type": Literal["tradeResolved"],
        "accepted": bool,
        "failed": bool,  # accepted too late (no longer possible) or a party left
        "from": str,
        "to": str,
        "give": MarbleTradeSide,
        "take": MarbleTradeSide,
    },
)


class MarbleRoundEndEvent(TypedDict):
    type: Literal["roundEnd"]
    round: int


class MarbleDokjeomEvent(TypedDict):
    """독점 승리 (spec 5.7). Named in the spec's Korean word: the English one is a trademark
    that the client's source may not contain."""

    type: Literal["monopoly"]
    player: str
    kind: Literal["triple", "line", "tour"]


class MarbleGameOverEvent(TypedDict):
    type: Literal["gameOver"]
    result: MarbleResult


MarbleEvent = (
    MarbleRolledEvent
    | MarbleMovedEvent
    | MarbleSalaryEvent
    | MarbleBoughtEvent
    | MarbleBuiltEvent
    | MarbleTollPaidEvent
    | MarbleTakeoverEvent
    | MarbleCardDrawnEvent
    | MarbleTransferEvent
    | MarbleFundPaidEvent
    | MarbleFundReceivedEvent
    | MarbleToIslandEvent
    | MarbleIslandRollEvent
    | MarbleEscapedEvent
    | MarbleSpaceTravelEvent
    | MarbleSoldEvent
    | MarbleDebtEvent
    | MarbleBankruptEvent
    | MarbleTradeProposedEvent
    | MarbleTradeResolvedEvent
    | MarbleRoundEndEvent
    | MarbleDokjeomEvent
    | MarbleGameOverEvent
)

# ---------------------------------------------------------------- the view (spec 8.3)


class MarblePlayer(TypedDict):
    pos: int
    cash: int
    alive: bool
    bankruptAtRound: int | None
    islandLeft: int  # 0: not on the island
    spacePending: bool
    heldCards: list[MarbleHeldCard]


class MarbleDeed(TypedDict):
    owner: str
    level: MarbleLevel


class MarbleDecision(TypedDict):
    pos: int
    canBuy: bool
    canBuild: MarbleLevel | None
    canTakeover: int | None  # the takeover price
    boughtThisVisit: bool


class MarblePayment(TypedDict):
    """A payment owed: by whom, how much, to whom, what for (``toll``, ``fund``,
    ``spaceFee`` or a card id) and the board index it concerns."""

    player: str
    amount: int
    to: MarbleCreditor
    reason: str
    pos: int | None


class MarbleDebt(TypedDict):
    player: str
    amount: int
    to: MarbleCreditor
    reason: str
    pos: int | None
    then: Literal["continueTurn", "nextCreditor"]
    queue: list[MarblePayment]


class MarbleChoice(TypedDict):
    """One option of the decision maker, with its cost preview."""

    type: Literal["BUY", "BUILD", "TAKEOVER", "PASS"]
    level: NotRequired[int]  # BUILD only
    cost: int
    cashAfter: int
    affordable: bool


class MarbleSaleCandidate(TypedDict):
    pos: int
    what: MarbleSaleWhat
    amount: int


class MarbleSpaceDestination(TypedDict):
    dest: int
    salary: bool  # flying there passes 출발
    toll: int  # the toll waiting there (0: none)


class MarbleSpacePreview(TypedDict):
    fee: int
    to: str | None
    destinations: list[MarbleSpaceDestination]


class MarbleView(TypedDict):
    """What a player (or a spectator: ``viewer`` null) sees: the spec's State without
    ``deck``, ``rng``, ``turnSeq`` and ``current`` (``currentPlayer`` names that player); the
    optional keys go only to the player they concern."""

    options: MarbleOptions
    order: list[str]
    round: int
    phase: MarblePhase
    players: dict[str, MarblePlayer]
    owners: dict[str, MarbleDeed]  # keyed by the board index as a string
    fund: int
    doublesThisTurn: int
    cardsThisTurn: int
    decision: MarbleDecision | None
    debt: MarbleDebt | None
    pendingTrade: MarbleTrade | None
    tradesThisTurn: int
    extraRoll: bool
    lastRoll: list[int] | None  # two dice; a tuple type would generate `never[]` in TS
    deadlineAt: None  # the server owns clocks: always null in the engine
    eliminated: list[str]  # bankruptcies, in order
    result: MarbleResult | None
    deckCount: int
    currentPlayer: str
    viewer: str | None
    choices: NotRequired[list[MarbleChoice]]  # the decision maker, in ``decide``
    spaceTravel: NotRequired[MarbleSpacePreview]  # the traveller, in ``turnStart``
    saleCandidates: NotRequired[list[MarbleSaleCandidate]]  # the debtor, in ``debt``
    shortfall: NotRequired[int]
    raisable: NotRequired[int]
