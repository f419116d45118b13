"""The dalmuti game object: the core contract over this package's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jokeapp.core.bots import Bot
from jokeapp.core.contract import Action, Event, Game, OptionSpec, ViewParts, WireTypes
from jokeapp.core.errors import InvalidOptions
from jokeapp.core.options import options_from
from jokeapp.games.dalmuti import legal, serial, timeouts, view_legal
from jokeapp.games.dalmuti import view as views
from jokeapp.games.dalmuti.actions import action_type, cards_from_hand, declared, reject
from jokeapp.games.dalmuti.bots import BOTS
from jokeapp.games.dalmuti.data import CARD_IDS
from jokeapp.games.dalmuti.legal import PASS
from jokeapp.games.dalmuti.options import OPTIONS, DalmutiOptions
from jokeapp.games.dalmuti.presentation import presentation_pause
from jokeapp.games.dalmuti.revolution import check_confirm, confirm_hand
from jokeapp.games.dalmuti.rounds import game_result
from jokeapp.games.dalmuti.setup import start_game
from jokeapp.games.dalmuti.state import (
    DalmutiState,
    RevolutionCheck,
    TaxReturn,
)
from jokeapp.games.dalmuti.stats import DalmutiStats
from jokeapp.games.dalmuti.tables import display_tables
from jokeapp.games.dalmuti.tax import check_return_count, owed_by, return_tax
from jokeapp.games.dalmuti.tricks import check_pass, check_play, pass_turn, play, try_play
from jokeapp.games.dalmuti.wire import DalmutiAction, DalmutiEvent, DalmutiView

MIN_PLAYERS = 4
MAX_PLAYERS = 8


def check_players(players: Sequence[str]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        detail = {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(players)}
        raise InvalidOptions("invalid_player_count", detail)
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise InvalidOptions("invalid_players")


def apply_play_or_pass(state: DalmutiState, actor: str, kind: str, action: Action) -> list[Event]:
    if state.phase.kind != "playing":
        reject("wrong_phase")
    if actor != state.current:
        reject("not_your_turn")
    if kind == "pass":
        check_pass(state)
        return pass_turn(state, actor)
    cards = cards_from_hand(action, state.hands[actor])
    rank = check_play(state, actor, cards)
    return play(state, actor, cards, rank, [CARD_IDS[card] for card in cards])


def apply_confirm(state: DalmutiState, actor: str, action: Action) -> list[Event]:
    if not isinstance(state.phase, RevolutionCheck):
        reject("wrong_phase")
    declare = declared(action)
    check_confirm(state, actor, declare)
    return confirm_hand(state, actor, declare)


def apply_return(state: DalmutiState, actor: str, action: Action) -> list[Event]:
    if not isinstance(state.phase, TaxReturn):
        reject("wrong_phase")
    owed = owed_by(state, actor)
    cards = cards_from_hand(action, state.hands[actor])
    check_return_count(owed, cards)
    return return_tax(state, actor, owed, cards)


def apply(state: DalmutiState, actor: str, action: Any) -> list[Event]:
    """The game's ``apply``. The common case first, at once: an allowed ``pass`` (the
    shared ``PASS`` known by itself, any other well-formed) or a well-formed legal ``play``
    by the player whose turn it is (who is always one of the players: ``from_json`` checks
    ``current``); anything else, with nothing changed, goes to ``apply_checked`` and its
    errors. ``action: Any``: it is anything the network sent until checked (compiled by mypyc,
    a ``dict`` annotation would raise TypeError instead of IllegalAction)."""
    if actor == state.current and state.phase.kind == "playing":
        if action is PASS:
            if state.trick.top is not None:
                state.seq += 1
                return pass_turn(state, actor)
        elif type(action) is dict:
            kind = action.get("type")
            if kind == "pass":
                if len(action) == 1 and state.trick.top is not None:
                    state.seq += 1
                    return pass_turn(state, actor)
            elif kind == "play" and len(action) == 2:
                events = try_play(state, actor, action.get("cardIds"))
                if events is not None:
                    state.seq += 1
                    return events
    events = apply_checked(state, actor, action)
    state.seq += 1
    return events


def apply_checked(state: DalmutiState, actor: str, action: Any) -> list[Event]:
    """Every action, checked in the order of its possible errors."""
    kind = action_type(action)
    if actor not in state.hands:
        reject("not_a_player")
    if state.phase.kind == "finished":
        reject("game_over")
    if kind == "play" or kind == "pass":
        return apply_play_or_pass(state, actor, kind, action)
    if kind == "confirmHand":
        return apply_confirm(state, actor, action)
    return apply_return(state, actor, action)


def is_over(state: DalmutiState) -> bool:
    return state.phase.kind == "finished"


class DalmutiGame:
    id = "dalmuti"
    title = "신분 카드 게임"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: tuple[OptionSpec, ...] = OPTIONS
    bots: Mapping[str, Bot] = BOTS
    wire = WireTypes(action=DalmutiAction, event=DalmutiEvent, view=DalmutiView)
    absence = timeouts.ABSENCE
    stats = DalmutiStats  # the simulator's balance statistics

    def start(
        self, options: Mapping[str, Any], players: Sequence[str], seed: int
    ) -> tuple[DalmutiState, list[Event]]:
        resolved = options_from(DalmutiOptions, options)
        check_players(players)
        return start_game(resolved, players, seed)

    def setup(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> DalmutiState:
        return self.start(options, players, seed)[0]

    apply = staticmethod(apply)  # asked for every move: no bound method's extra call

    pending = staticmethod(timeouts.pending)  # asked before every move: no extra call
    next_player = staticmethod(timeouts.pending_player)  # the simulator's (contract.next_player)

    def on_timeout(self, state: DalmutiState, player: str) -> Action:
        return timeouts.on_timeout(state, player)

    def view(self, state: DalmutiState, viewer: str | None) -> dict[str, Any]:
        return views.view(state, viewer)

    def view_parts(self, state: DalmutiState, viewers: list[str | None]) -> ViewParts:
        return views.view_parts(state, viewers)

    def redact_event(self, event: Event, viewer: str | None) -> Event | None:
        return views.redact_event(event, viewer)

    legal_actions = staticmethod(legal.legal_actions)

    def legal_actions_from_view(self, view: Mapping[str, Any], player: str) -> list[Action]:
        return view_legal.legal_actions_from_view(view, player)

    # Optional contract hook (jokeapp.core.contract.legal_sequence); asked before every move
    # of a random bot.
    legal_sequence = staticmethod(legal.legal_sequence)
    # Optional contract hook (jokeapp.core.contract.pick_legal): every move of a random bot.
    pick_legal = staticmethod(legal.pick_legal)

    is_over = staticmethod(is_over)  # asked before every move: no extra call

    def result(self, state: DalmutiState) -> dict[str, Any] | None:
        return game_result(state) if state.phase.kind == "finished" else None

    def to_json(self, state: DalmutiState) -> dict[str, Any]:
        return serial.to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> DalmutiState:
        return serial.from_json(data)

    def presentation_pause(self, events: Sequence[Event]) -> float:
        """Optional contract hook (jokeapp.core.contract.presentation_pause)."""
        return presentation_pause(events)

    def display_tables(self) -> dict[str, Any]:
        """Optional contract hook (jokeapp.core.contract.display_tables)."""
        return display_tables(MIN_PLAYERS, MAX_PLAYERS)


GAME: Game[DalmutiState] = DalmutiGame()  # mypy checks the class against the contract here
