"""The marble Game object: the core contract wired to the rules modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from jokeapp.core.bots import Bot
from jokeapp.core.contract import Action, Event, ViewParts, WireTypes
from jokeapp.core.options import options_from
from jokeapp.core.rng import Rng
from jokeapp.games.marble import actions as A
from jokeapp.games.marble.actions import SHARED, action_type, reject
from jokeapp.games.marble.concede import concede
from jokeapp.games.marble.data import CARD_IDS
from jokeapp.games.marble.debt import sell_for_debt
from jokeapp.games.marble.decision import build, buy, pass_decision, takeover
from jokeapp.games.marble.dice import roll
from jokeapp.games.marble.island import pay_island_fee, use_escape_card
from jokeapp.games.marble.legal import legal_actions, legal_sequence, pick_legal
from jokeapp.games.marble.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    MarbleOptions,
    check_players,
)
from jokeapp.games.marble.presentation import presentation_pause
from jokeapp.games.marble.ranking import game_result
from jokeapp.games.marble.serial import from_json, to_json
from jokeapp.games.marble.space import space_travel
from jokeapp.games.marble.state import FINISHED, MarbleState, Player
from jokeapp.games.marble.stats import MarbleStats
from jokeapp.games.marble.tables import display_tables
from jokeapp.games.marble.timeouts import ABSENCE, on_timeout, pending, pending_player
from jokeapp.games.marble.timeouts import ROLL as ROLL_ACTION
from jokeapp.games.marble.trade import propose_trade, respond_trade
from jokeapp.games.marble.view import view, view_parts
from jokeapp.games.marble.view_legal import legal_actions_from_view
from jokeapp.games.marble.wire import MarbleAction, MarbleEvent, MarbleView

Handler = Callable[[MarbleState, list[Event], str, Action], None]
Rule = Callable[[MarbleState, list[Event], str], None]

# The actions without fields, by type: ``{"type": t}`` is all of such an action, so apply
# checks its shape by its length and calls its rule directly (most moves are ROLL and PASS).
PLAIN: dict[str, Rule] = {
    A.ROLL: roll,
    A.PAY_ISLAND_FEE: pay_island_fee,
    A.USE_ESCAPE_CARD: use_escape_card,
    A.BUY: buy,
    A.TAKEOVER: takeover,
    A.PASS: pass_decision,
    A.CONCEDE: concede,
}

# The actions with fields, read once action_type has checked them.
HANDLERS: dict[str, Handler] = {
    A.SPACE_TRAVEL: lambda s, e, p, a: space_travel(s, e, p, a["dest"]),
    A.BUILD: lambda s, e, p, a: build(s, e, p, a["level"]),
    A.SELL: lambda s, e, p, a: sell_for_debt(s, e, p, a["pos"], a["what"]),
    A.PROPOSE_TRADE: lambda s, e, p, a: propose_trade(s, e, p, a["to"], a["give"], a["take"]),
    A.TRADE_RESPOND: lambda s, e, p, a: respond_trade(s, e, p, a["accept"]),
}

BUY_ACTION, PASS_ACTION = SHARED[A.BUY], SHARED[A.PASS]  # told by identity, as ROLL_ACTION

if {k for k, f in A.FIELDS.items() if not f} != set(PLAIN) or set(A.FIELDS) != {*PLAIN, *HANDLERS}:
    raise AssertionError("every action type has its rule: PLAIN without fields, else HANDLERS")


def is_over(state: MarbleState) -> bool:
    return state.phase == FINISHED


class MarbleGame:
    id = "marble"
    title = "세계 여행 땅따먹기"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = OPTIONS
    wire = WireTypes(action=MarbleAction, event=MarbleEvent, view=MarbleView)
    absence = ABSENCE
    stats = MarbleStats  # the simulator's balance statistics

    def __init__(self, bots: Mapping[str, Bot]) -> None:
        self.bots = bots

    def start(
        self, options: Mapping[str, Any], players: Sequence[str], seed: int
    ) -> tuple[MarbleState, list[Event]]:
        """Turn order first, then the deck, both shuffled by the game's rng; no setup events
        (the order is in the state for everyone to see)."""
        resolved = options_from(MarbleOptions, options)
        seats = check_players(players)
        rng = Rng.from_seed(seed)
        order = list(seats)
        rng.shuffle(order)
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        money = resolved.start_money
        table = {p: Player(cash=money) for p in seats}
        return MarbleState(resolved, rng, order, table, deck), []

    def setup(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> MarbleState:
        return self.start(options, players, seed)[0]

    def apply(self, state: MarbleState, actor: str, action: Any) -> list[Event]:
        # ``action: Any``: it is anything the network sent until checked here (compiled by
        # mypyc, a ``dict`` annotation would raise TypeError instead of IllegalAction)
        # an action of one key, a known type without fields (most moves), is well formed as it
        # is: its rule is called without action_type's look-ups, nor a handler's extra call
        rule: Rule | None
        if action is ROLL_ACTION:  # the commonest: the shared ROLL a bot's legal list holds
            rule = roll
        elif action is PASS_ACTION:  # the next commonest shared ones: a land's decision
            rule = pass_decision
        elif action is BUY_ACTION:
            rule = buy
        else:
            rule = None
            if type(action) is dict:
                if action == ROLL_ACTION:  # the next commonest, by one comparison
                    rule = roll
                elif len(action) == 1 and type(kind := action.get("type")) is str:
                    rule = PLAIN.get(kind)
            if rule is None:
                handler = HANDLERS[action_type(action)]
        if state.phase == FINISHED:
            reject("game_over")
        piece = state.players.get(actor) if type(actor) is str else None
        if piece is None:
            reject("not_a_player")
        if not piece.alive:
            reject("out_of_game")
        events: list[Event] = []
        if rule is not None:
            rule(state, events, actor)
        else:
            handler(state, events, actor, action)
        return events

    pending = staticmethod(pending)  # asked before every move: no extra call
    next_player = staticmethod(pending_player)  # the simulator's pending (contract.next_player)

    def on_timeout(self, state: MarbleState, player: str) -> Action:
        return on_timeout(state, player)

    def view(self, state: MarbleState, viewer: str | None) -> dict[str, Any]:
        return view(state, viewer)

    def view_parts(self, state: MarbleState, viewers: list[str | None]) -> ViewParts:
        return view_parts(state, viewers)

    def redact_event(self, event: Event, viewer: str | None) -> Event | None:
        """Every marble event is public (a card's id is shown as it is drawn)."""
        return event

    legal_actions = staticmethod(legal_actions)
    # Optional contract hook (core.contract.legal_sequence): a random bot's every move with
    # trading off, no extra call
    legal_sequence = staticmethod(legal_sequence)
    # Optional contract hook (core.contract.pick_legal): a random bot's every move with trading
    # off, in one call
    pick_legal = staticmethod(pick_legal)

    def legal_actions_from_view(self, view: Mapping[str, Any], player: str) -> list[Action]:
        return legal_actions_from_view(view, player)

    is_over = staticmethod(is_over)  # asked before every move: no extra call

    def result(self, state: MarbleState) -> dict[str, Any] | None:
        return game_result(state)

    def to_json(self, state: MarbleState) -> dict[str, Any]:
        return to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> MarbleState:
        return from_json(data)

    # Optional hooks of the contract (jokeapp.core.contract.round_of / presentation_pause).

    def round_of(self, state: MarbleState) -> int:
        return state.round

    def presentation_pause(self, events: Sequence[Event]) -> float:
        return presentation_pause(events)

    def display_tables(self) -> dict[str, Any]:
        return display_tables()
