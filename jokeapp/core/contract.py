"""The protocol every game implements (see DESIGN.md, "The game contract")."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

Action = dict[str, Any]
Event = dict[str, Any]

S = TypeVar("S")

if TYPE_CHECKING:
    from jokeapp.core.bots import Bot
    from jokeapp.core.rng import Rng

# Bots (core/bots.py) decide from their seat's knowledge only, never the state, and draw their
# randomness from their own Rng, never the game's.


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One row of a spec's options table."""

    key: str
    choices: tuple[Any, ...]
    default: Any
    label: str  # Korean description shown when creating a room


@dataclass(frozen=True, slots=True)
class WireTypes:
    """A game's wire types: what ``joke schema`` exports and the client's types come from.

    Each is a standard-library type (a TypedDict, or a union of TypedDicts tagged by one
    ``Literal`` key): ``action`` every action ``apply`` accepts, ``event`` every event (as
    sent to any viewer), ``view`` what ``view`` returns for a player or a spectator.
    """

    action: Any
    event: Any
    view: Any


@dataclass(frozen=True, slots=True)
class AbsencePolicy:
    """What the room does for a player who is not there (each spec's section 8.5).

    Data the game declares as ``Game.absence``; the room layer reads it and names no game.

    - ``grace``: seconds a disconnected player keeps their own clock; after it the timeout
      rule acts for them at once (None: they keep their normal deadlines).
    - ``short_after`` / ``short_seconds``: after that many timeouts in a row a player's
      deadline shrinks to ``short_seconds`` (None: never).
    - ``afk_rounds`` / ``afk_kind``: once the timeout rule has started an absent player's turn
      (a decision of kind ``afk_kind``) in that many rounds in a row, the host is offered
      강퇴/계속 for them (None: never offered).
    - ``kick_action``: the action a kick applies for the player mid-match (None: the seat
      stays and the timeout rule plays it).
    """

    grace: float | None = None
    short_after: int | None = None
    short_seconds: float = 5.0
    afk_rounds: int | None = None
    afk_kind: str | None = None
    kick_action: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.afk_rounds is not None and self.afk_kind is None:
            raise ValueError("an absence policy with afk_rounds needs the afk_kind it counts")


@dataclass(frozen=True, slots=True)
class Pending:
    """A player who must act now.

    ``seconds`` is the time budget the rules give this decision (None: no limit);
    the server turns it into a deadline with its own clock.
    """

    player: str
    kind: str
    seconds: int | None


class Game(Protocol, Generic[S]):
    """A game's rules. Pure: state in, events out; no clock, I/O or global state."""

    id: str
    title: str  # the display name (Korean)
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    bots: Mapping[str, Bot]  # "random", "easy", "normal", "hard" (core.bots.BotLevels)
    wire: WireTypes
    absence: AbsencePolicy  # when the room acts for an absent player (spec 8.5)

    def start(
        self, options: Mapping[str, Any], players: Sequence[str], seed: int
    ) -> tuple[S, list[Event]]:
        """Validates options and players; returns the first state and setup's events."""
        ...

    def setup(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> S: ...

    def apply(self, state: S, actor: str, action: Action) -> list[Event]:
        """Validates fully, then changes ``state``. Raises IllegalAction, changing nothing."""
        ...

    def pending(self, state: S) -> list[Pending]: ...

    def on_timeout(self, state: S, player: str) -> Action: ...

    def view(self, state: S, viewer: str | None) -> dict[str, Any]: ...

    def redact_event(self, event: Event, viewer: str | None) -> Event | None:
        """The copy of ``event`` that ``viewer`` may see (None: not sent to them)."""
        ...

    def legal_actions(self, state: S, player: str) -> list[Action]: ...

    def legal_actions_from_view(self, view: Mapping[str, Any], player: str) -> list[Action]:
        """``legal_actions(state, player)`` computed from ``view(state, player)`` alone."""
        ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> dict[str, Any] | None: ...

    def to_json(self, state: S) -> dict[str, Any]: ...

    def from_json(self, data: Mapping[str, Any]) -> S: ...


class GameStats(Protocol):
    """Balance statistics over many played games, for the simulator (``joke simulate``).

    A game offers its own as ``GAME.stats`` (a class or factory taking no arguments); the
    simulator counts results alone for a game without. Sums only, so that batches played in
    other processes ``merge`` to the figures of one pass.
    """

    def add(self, record: Mapping[str, Any], state: Any) -> None:
        """One game: its record (DESIGN.md, "Game records") and its last state. A game cut
        off at a step cap has ``cutOff`` and no ``result`` in its record."""
        ...

    def merge(self, other: Any) -> None:
        """Adds the games of ``other``, a collector of the same kind."""
        ...

    def lines(self) -> list[str]:
        """The report, one line of text each."""
        ...


def redacted(game: Game[Any], events: Iterable[Event], viewer: str | None) -> list[Event]:
    """The copies of ``events`` that ``viewer`` (a seat, None: a spectator) is sent: each
    through ``game.redact_event``, those they may not see left out."""
    out: list[Event] = []
    for event in events:
        copy = game.redact_event(event, viewer)
        if copy is not None:
            out.append(copy)
    return out


# ---------------------------------------------------------------- optional hooks
# A game may also define the methods below; the room layer reads them only through these
# functions, which give the default when a game does not (so older games need no change).


def round_of(game: Any, state: Any) -> int | None:
    """The round the game is in (``game.round_of(state)``), or None for a game without rounds.

    Rooms use it to count "rounds in a row" of absence (marble 8.5) without knowing the game.
    """
    hook = getattr(game, "round_of", None)
    return None if hook is None else int(hook(state))


def presentation_pause(game: Any, events: Sequence[Event]) -> float:
    """Seconds the players need to watch ``events`` (``game.presentation_pause(events)``, else 0).

    Rooms add it to the start of every decision those events open, bots included, so an
    animation or a round-end screen does not eat the next decision's time.
    """
    hook = getattr(game, "presentation_pause", None)
    return 0.0 if hook is None else max(0.0, float(hook(events)))


def display_tables(game: Any) -> dict[str, Any]:
    """The game's fixed tables a client shows (``game.display_tables()``: a board, prices,
    names), so that no client copies them; ``{}`` for a game without any. JSON-ready."""
    hook = getattr(game, "display_tables", None)
    return {} if hook is None else dict(hook())


@dataclass(frozen=True, slots=True)
class ViewParts:
    """Several viewers' views as what they all see alike and each one's own keys over it:
    ``viewer``'s view is ``{**public, **own[viewer]}`` (the public keys in their order, an own
    key taking a public key's place or coming after them); ``own[viewer]`` None: no view
    (no match). Nobody changes either part: the views share their objects."""

    public: dict[str, Any]
    own: dict[str | None, dict[str, Any] | None]

    def view(self, viewer: str | None) -> dict[str, Any] | None:
        own = self.own[viewer]
        return None if own is None else {**self.public, **own}


def view_parts(game: Any, state: Any, viewers: Iterable[str | None]) -> ViewParts:
    """Every viewer's ``view`` at once, as ``ViewParts`` (``game.view_parts(state, viewers)``,
    else one ``view`` each, all of it the viewer's own).

    A game may build what every viewer sees alike once and say which keys are a viewer's own,
    which makes a room's update to all its viewers cheaper (docs/server.md, "Views and
    patches"); each ``parts.view(viewer)`` must equal ``game.view(state, viewer)``.
    """
    hook = getattr(game, "view_parts", None)
    if hook is not None:
        parts: ViewParts = hook(state, list(viewers))
        return parts
    return ViewParts({}, {viewer: game.view(state, viewer) for viewer in viewers})


def next_player(game: Any) -> Callable[[Any], str | None]:
    """How a loop that plays a game by itself finds who acts now: the first pending player,
    None when no one is (the game is over). ``game.next_player(state)`` answers without
    building the ``pending`` list; else it is read from ``game.pending(state)``."""
    hook = getattr(game, "next_player", None)
    if hook is not None:
        return hook  # type: ignore[no-any-return]
    pending = game.pending

    def first_pending(state: Any) -> str | None:
        waiting = pending(state)
        return waiting[0].player if waiting else None

    return first_pending


def legal_sequence(game: Any) -> Callable[[Any, str], Sequence[Action]]:
    """How to list ``player``'s legal actions for a bot that reads nothing else
    (core.bots.legal_only): ``game.legal_sequence(state, player)``, else
    ``game.legal_actions``. A game's own may be a sequence that builds each action only when
    read, but it holds the same actions in the same order as ``legal_actions`` and no part of
    the state (tests/bots/test_fast_knowledge.py)."""
    hook = getattr(game, "legal_sequence", None)
    return game.legal_actions if hook is None else hook  # type: ignore[no-any-return]


def pick_uniformly(legal: Sequence[Action], rng: Rng, draw_single: bool = False) -> Action:
    """The one rule of a bot that plays each of its legal actions with equal chances
    (core.bots.uniform): ``legal[rng.below(n)]`` for ``n = len(legal)``, at least 1. With a
    single choice that one, drawing for it only if ``draw_single`` (dalmuti's random bot
    draws, marble's does not: each keeps its records and goldens)."""
    count = len(legal)
    if count == 1:
        if draw_single:
            rng.below(1)
        return legal[0]
    return legal[rng.below(count)]


def pick_legal(game: Any) -> Callable[[Any, str, Rng, bool], Action | None] | None:
    """A game's own way of playing a move of a bot that picks uniformly among its legal
    actions (core.bots.uniform) in one call: ``game.pick_legal(state, player, rng,
    draw_single)``, None for a game without (core.bots.SeatLog.decider then applies
    ``pick_uniformly`` to ``legal_sequence(game)``). The hook returns None when the player
    has no legal action (the bot itself is then asked); else the very action, drawing from
    ``rng`` exactly as ``pick_uniformly`` over its legal list does
    (tests/bots/test_fast_knowledge.py)."""
    return getattr(game, "pick_legal", None)
