"""What a bot is given (DESIGN.md, "Bots"): its seat's knowledge, never the state.

A bot is ``(knowledge, rng, budget) -> action``. ``SeatKnowledge`` holds only what the seat
was shown: its view, its copies of the events since the game began, and the legal actions,
which each game computes from the view alone (``legal_actions_from_view``). Nothing in it
refers to the state, so a bot cannot peek by construction.

Search bots also get a ``Budget``: a number of iterations (deterministic for a given seed) and
optionally a way to ask whether time is up. The clock lives with the caller (rooms, the
tournament), because core and games read no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from jokeapp.core.contract import (
    Action,
    Event,
    legal_sequence,
    pick_legal,
    pick_uniformly,
    redacted,
)

if TYPE_CHECKING:
    from jokeapp.core.contract import Game
    from jokeapp.core.rng import Rng

# Policy names accepted on input besides the levels (stored rooms still name the old ones).
ALIASES: Mapping[str, str] = {"heuristic": "normal"}
LEVELS = ("easy", "normal", "hard")


class SeatKnowledge(NamedTuple):
    """Everything one seat knows: built from the state by ``seat_knowledge``, holding none of it.
    Immutable; a named tuple rather than a frozen dataclass because one is made for every
    move and a tuple is made in half the time."""

    player: str
    view: Mapping[str, Any]  # game.view(state, player)
    events: Sequence[Event]  # the seat's copies of every event since the game began, in order
    legal: Sequence[Action]  # game.legal_actions_from_view(view, player)


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search bot may think: at most ``iterations``, and stops early once
    ``out_of_time()`` says so (None: iterations only, so the same seed plays the same game)."""

    iterations: int
    out_of_time: Callable[[], bool] | None = None

    def spent(self, done: int) -> bool:
        if done >= self.iterations:
            return True
        return self.out_of_time is not None and done > 0 and self.out_of_time()


class Bot(Protocol):
    def __call__(
        self, knowledge: SeatKnowledge, rng: Rng, budget: Budget | None = None
    ) -> Action: ...


class BotLevels(Mapping[str, Bot]):
    """A game's bots by name. Iterates over its own names only; looking up also accepts the
    aliases (``heuristic`` is ``normal``), so stored rooms keep working."""

    def __init__(self, bots: Mapping[str, Bot]) -> None:
        self._bots = dict(bots)

    def _name(self, key: object) -> object:
        if isinstance(key, str) and key not in self._bots:
            return ALIASES.get(key, key)
        return key

    def __getitem__(self, key: str) -> Bot:
        return self._bots[str(self._name(key))]

    def __contains__(self, key: object) -> bool:
        return self._name(key) in self._bots

    def __iter__(self) -> Iterator[str]:
        return iter(self._bots)

    def __len__(self) -> int:
        return len(self._bots)


def level_name(bots: Mapping[str, Bot], key: str) -> str:
    """A policy's own name (``heuristic`` -> ``normal``): what a seat stores and shows."""
    return key if key in set(bots) else ALIASES.get(key, key)


def offered_levels(bots: Mapping[str, Bot]) -> list[str]:
    """The levels a host picks from for a seat (LEVELS a game has), easiest first; ``random``
    is for tests and the simulator."""
    names = set(bots)
    return [name for name in LEVELS if name in names]


def seat_knowledge(
    game: Game[Any],
    state: Any,
    player: str,
    events: Sequence[Event],
    view: Mapping[str, Any] | None = None,
) -> SeatKnowledge:
    """The knowledge of ``player``'s seat; ``events`` are this seat's copies (see SeatLog);
    ``view``: ``game.view(state, player)`` when the caller has it already (a room keeps the
    view its last update built for a bot's seat)."""
    if view is None:
        view = game.view(state, player)
    return SeatKnowledge(player, view, events, tuple(game.legal_actions_from_view(view, player)))


# What a bot that reads only its legal actions is handed for its view (``legal_only``).
NO_VIEW: Mapping[str, Any] = MappingProxyType({})
# The marks ``legal_only``, ``uniform`` and ``quick`` put on a bot, by the bot (a bot is
# hashable: they are functions). A table rather than attributes on the function: a compiled
# engine's functions (mypyc, jokeapp/compiled.py) take no attributes.
_LEGAL_ONLY: dict[object, Callable[[Mapping[str, Any]], bool]] = {}

B = TypeVar("B", bound=Bot)
# (state, player, rng, budget) -> the move ``bot`` makes there (SeatLog.decider)
Decider = Callable[[Any, str, "Rng", "Budget | None"], Action]


def _always(options: Mapping[str, Any]) -> bool:
    return True


def legal_only(when: Callable[[Mapping[str, Any]], bool] = _always) -> Callable[[B], B]:
    """Marks a bot that, in games whose options ``when`` accepts (all by default), reads
    only ``knowledge.legal``: the driver (``SeatLog.ask``) then builds no view and redacts no
    events for it, and hands it ``NO_VIEW`` and no events with the legal actions. It must
    play exactly as it would with its full knowledge (tests/bots/test_fast_knowledge.py)."""

    def mark(bot: B) -> B:
        _LEGAL_ONLY[bot] = when
        return bot

    return mark


_UNIFORM: dict[object, tuple[Callable[[Mapping[str, Any]], bool], bool]] = {}


def uniform(
    draw_single: bool = False, when: Callable[[Mapping[str, Any]], bool] = _always
) -> Callable[[B], B]:
    """Marks a bot that, in games whose options ``when`` accepts, reads only its legal
    actions (``legal_only``, which it implies) and plays ``core.contract.pick_uniformly(legal,
    rng, draw_single)`` whenever it has any. The driver (``SeatLog.decider``) then plays its
    move by the game's ``pick_legal`` (core.contract.pick_legal) in one call, without handing
    it any knowledge; with no legal action it asks the bot. The bot must play exactly that
    (tests/bots/test_fast_knowledge.py)."""

    def mark(bot: B) -> B:
        legal_only(when)(bot)
        _UNIFORM[bot] = (when, draw_single)
        return bot

    return mark


def picks_uniformly(bot: Bot, options: Mapping[str, Any]) -> bool | None:
    """``draw_single`` of a bot marked ``uniform`` for games of ``options``; None: not so."""
    marked = _UNIFORM.get(bot)
    if marked is None or not marked[0](options):
        return None
    return bool(marked[1])


_QUICK: set[object] = set()


def quick(bot: B) -> B:
    """Marks a bot that never searches and decides in well under a millisecond: a room asks
    it on its own event loop. Any other bot thinks in a worker thread (rooms/turns.py), whose
    hop there and back (two wake-ups) costs more than such a bot's whole decision."""
    _QUICK.add(bot)
    return bot


def decides_quickly(bot: Bot) -> bool:
    """Whether ``bot`` is marked ``quick``."""
    return bot in _QUICK


def reads_only_legal(bot: Bot, options: Mapping[str, Any]) -> bool:
    """Whether ``bot`` reads only its legal actions in a game of ``options`` (``legal_only``)."""
    when = _LEGAL_ONLY.get(bot)
    return when is not None and bool(when(options))


class SeatLog:
    """Each seat's copies of the events so far, each redacted once, when that seat's
    knowledge is next asked for; and the driver that asks a bot with its knowledge."""

    def __init__(
        self,
        game: Game[Any],
        players: Sequence[str],
        setup_events: Iterable[Event] = (),
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.options: Mapping[str, Any] = {} if options is None else options
        self.log: list[Event] = list(setup_events)  # every event so far, as the game made it
        # add(events): the events of a step (called after every move, so no method of its own)
        self.add: Callable[[Iterable[Event]], None] = self.log.extend
        # each seat's copies of ``log[:n]``, with that n
        self.seen: dict[str, list[Event]] = {player: [] for player in players}
        self._upto: dict[str, int] = {player: 0 for player in players}
        self._legal = legal_sequence(game)
        # by id(bot): the bot (kept, so that its id stays its own) and how to ask it
        self._only: dict[int, tuple[Bot, Callable[[Any, str], SeatKnowledge]]] = {}
        self._deciders: dict[int, tuple[Bot, Decider]] = {}  # likewise, for ``decider``

    def copies(self, player: str) -> list[Event]:
        """``player``'s copies of every event so far (redacting only the new ones)."""
        seen = self.seen[player]
        upto = self._upto[player]
        if upto < len(self.log):
            seen.extend(redacted(self.game, self.log[upto:], player))
            self._upto[player] = len(self.log)
        return seen

    def knowledge(self, state: Any, player: str) -> SeatKnowledge:
        """A copy that later steps leave alone (a bot may keep it)."""
        return seat_knowledge(self.game, state, player, tuple(self.copies(player)))

    def knowledge_for(self, bot: Bot, state: Any, player: str) -> SeatKnowledge:
        """What ``bot`` is handed for ``player``'s seat: its whole knowledge, or for a bot that
        reads only its legal actions (``legal_only``) those alone, without the view."""
        return self.asker(bot)(state, player)

    def asker(self, bot: Bot) -> Callable[[Any, str], SeatKnowledge]:
        """``knowledge_for(bot, …)`` with the question settled once: ``(state, player) ->``
        the knowledge ``bot`` is handed (the loops that ask the same bot every move use it)."""
        known = self._only.get(id(bot))
        if known is None:
            known = self._only[id(bot)] = (bot, self._make_asker(bot))
        return known[1]

    def _make_asker(self, bot: Bot) -> Callable[[Any, str], SeatKnowledge]:
        if not reads_only_legal(bot, self.options):
            return self.knowledge
        legal, new = self._legal, tuple.__new__

        def legal_knowledge(state: Any, player: str) -> SeatKnowledge:
            # SeatKnowledge(player, NO_VIEW, (), …) without the Python frame of its __new__
            return new(SeatKnowledge, (player, NO_VIEW, (), legal(state, player)))

        return legal_knowledge

    def decider(self, bot: Bot) -> Decider:
        """``(state, player, rng, budget) ->`` the move ``bot`` makes for ``player``'s seat,
        asked with what ``asker(bot)`` hands it; for a bot marked ``uniform`` (for these
        options), the game's ``pick_legal`` plays it in one call, building no knowledge."""
        known = self._deciders.get(id(bot))
        if known is None:
            known = self._deciders[id(bot)] = (bot, self._make_decider(bot))
        return known[1]

    def _make_decider(self, bot: Bot) -> Decider:
        ask = self.asker(bot)
        draw_single = picks_uniformly(bot, self.options)
        if draw_single is None:

            def asked(state: Any, player: str, rng: Rng, budget: Budget | None = None) -> Action:
                return bot(ask(state, player), rng, budget)

            return asked
        pick = pick_legal(self.game)
        if pick is not None:
            hook = pick

            def picked(state: Any, player: str, rng: Rng, budget: Budget | None = None) -> Action:
                action = hook(state, player, rng, draw_single)
                return bot(ask(state, player), rng, budget) if action is None else action

            return picked
        listing = self._legal

        def listed(state: Any, player: str, rng: Rng, budget: Budget | None = None) -> Action:
            legal = listing(state, player)
            if legal:
                return pick_uniformly(legal, rng, draw_single)
            return bot(ask(state, player), rng, budget)

        return listed
