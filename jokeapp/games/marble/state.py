"""MarbleState (spec 8.1) as slotted dataclasses; JSON shape lives in serial.py.

A creditor is kept as one string: a player id, ``"bank"`` or ``"fund"`` (player ids may not
be those two words), the same spelling the events use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jokeapp.core.contract import Pending
from jokeapp.core.rng import Rng
from jokeapp.games.marble.data import BANK as BANK
from jokeapp.games.marble.data import FUND as FUND

# A real import, not one for type checking only: compiled (mypyc), the dataclasses below name
# MarbleOptions at run time, so its module must be loaded first (options.py takes BANK and FUND
# from data.py for that reason).
from jokeapp.games.marble.options import MarbleOptions

TURN_START = "turnStart"
DECIDE = "decide"
DEBT = "debt"
TRADE_RESPONSE = "tradeResponse"
FINISHED = "finished"


@dataclass(slots=True)
class Player:
    pos: int = 0
    cash: int = 0
    alive: bool = True
    bankrupt_at_round: int | None = None
    island_left: int = 0
    space_pending: bool = False
    held_cards: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Deed:
    """One land's ownership: who, and the building level (0 = land only)."""

    owner: str
    level: int = 0


@dataclass(frozen=True, slots=True)
class Decision:
    """What the player who reached ``pos`` may do there. Frozen: the common ones are made
    once and shared (landing.py)."""

    pos: int
    can_buy: bool = False
    can_build: int | None = None
    can_takeover: int | None = None  # the takeover price
    bought_this_visit: bool = False


@dataclass(slots=True)
class Payment:
    """A payment someone must make; ``reason`` says which event settles it and what follows.

    reason: ``toll`` (pos = the land), ``fund`` (space 38), ``spaceFee`` (pos = destination)
    or a card id.
    """

    player: str
    amount: int
    to: str
    reason: str
    pos: int | None = None


@dataclass(slots=True)
class Debt:
    payment: Payment
    queue: list[Payment] = field(default_factory=list)


@dataclass(slots=True)
class Trade:
    from_: str
    to: str
    give_lands: list[int]
    give_cash: int
    take_lands: list[int]
    take_cash: int


@dataclass(slots=True)
class MarbleState:
    options: MarbleOptions
    rng: Rng
    order: list[str]
    players: dict[str, Player]
    deck: list[str]
    current: int = 0
    round: int = 1
    phase: str = TURN_START
    owners: dict[int, Deed] = field(default_factory=dict)
    fund: int = 0
    doubles_this_turn: int = 0
    cards_this_turn: int = 0
    decision: Decision | None = None
    debt: Debt | None = None
    pending_trade: Trade | None = None
    trades_this_turn: int = 0
    extra_roll: bool = False
    last_roll: tuple[int, int] | None = None
    turn_seq: int = 0
    # Beyond the spec's shape: who went bankrupt in which order (ranking needs it when two
    # fall in the same round); derived from alive/bankruptAtRound when a state omits it.
    eliminated: list[str] = field(default_factory=list)
    # The Pendings the game has reported, by phase and player, each made the first time it is
    # asked for: a Pending depends only on the player, the phase and the options, all fixed for
    # the whole game, and it is frozen, so this never goes stale (timeouts.pending, asked
    # before every move, reads it). Not game data: left out of JSON and comparisons.
    pendings: dict[str, dict[str, Pending]] = field(init=False, repr=False, compare=False)
    # The view's JSON of the parts that seldom change (the options, the deeds), each with the
    # values it was made of: the next view built from equal values takes those very objects,
    # which the view patches then pass over by identity (serial.to_json). Not game data either.
    shown: dict[str, tuple[Any, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.pendings = {TURN_START: {}, DECIDE: {}, DEBT: {}, TRADE_RESPONSE: {}}
        self.shown = {}

    @property
    def current_player(self) -> str:
        return self.order[self.current]

    def alive_count(self) -> int:
        return sum(1 for p in self.players.values() if p.alive)
