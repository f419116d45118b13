"""The fast way of asking a bot (core.bots.SeatLog.asker) against the plain one (the seat's
whole knowledge: view, events, legal actions read off the view), on random play.

A bot marked ``legal_only`` is handed its legal actions alone, listed from the state by the
game's ``legal_sequence`` (dalmuti's builds a lead's actions only when read). Both must come
to the same thing: the same actions in the same order, nothing of the state inside, and the
same move from the bot for the same draws of its generator, so whole games agree.
"""

from __future__ import annotations

from typing import Any

import pytest

from jokeapp.core.bots import (
    NO_VIEW,
    SeatKnowledge,
    SeatLog,
    picks_uniformly,
    reads_only_legal,
    seat_knowledge,
)
from jokeapp.core.contract import Action, legal_sequence, pick_legal, pick_uniformly
from jokeapp.core.options import resolve_options
from jokeapp.core.record import Recorder
from jokeapp.core.rng import Rng
from jokeapp.games import GAME_IDS, get_game
from jokeapp.games.dalmuti.legal import PASS, LeadActions
from jokeapp.sim.play import bot_rng, play_fast, player_ids
from tests.bots.test_levels import holds_no_state, plain

GAMES_PER_ID = 30


def random_setup(game: Any, seed: int) -> tuple[dict[str, Any], list[str]]:
    pick = Rng.from_seed(seed * 31 + 7)
    options = {spec.key: spec.choices[pick.below(len(spec.choices))] for spec in game.options}
    if game.id == "marble" and options["maxRounds"] == 0:
        options["maxRounds"] = 15  # unlimited games are covered elsewhere
    if game.id == "dalmuti":
        options["rounds"] = 1
    count = game.min_players + pick.below(game.max_players - game.min_players + 1)
    return resolve_options(game.options, options), player_ids(count)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_fast_legal_list_is_the_plain_one_and_holds_no_state(game_id: str) -> None:
    game = get_game(game_id)
    fast = legal_sequence(game)
    checked = 0
    for seed in range(GAMES_PER_ID):
        options, players = random_setup(game, seed)
        state, _ = game.start(options, players, seed)
        pick = Rng.from_seed(seed)
        while not game.is_over(state):
            for player in players:  # the pending seat and every other one
                listed = fast(state, player)
                plain_list = game.legal_actions_from_view(game.view(state, player), player)
                assert list(listed) == plain_list == game.legal_actions(state, player)
                assert len(listed) == len(plain_list)
            pending = game.pending(state)[0].player
            listed = fast(state, pending)
            before = plain(list(listed))
            assert holds_no_state(list(listed))
            action = listed[pick.below(len(listed))] if listed else game.on_timeout(state, pending)
            game.apply(state, pending, action)
            assert plain(list(listed)) == before  # a copy: later moves leave it alone
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_legal_only_bot_plays_the_same_moves_from_its_legal_actions_alone(game_id: str) -> None:
    """The random bots of both games are marked; each move is asked both ways with the same
    generator state and must be the same, and so must the draws it makes."""
    game = get_game(game_id)
    bot = game.bots["random"]
    fast_asked = plain_asked = 0
    for seed in range(GAMES_PER_ID):
        options, players = random_setup(game, seed)
        state, setup_events = game.start(options, players, seed)
        seats = SeatLog(game, players, setup_events, options)
        ask = seats.asker(bot)
        only = reads_only_legal(bot, options)
        rng = bot_rng(seed)
        while not game.is_over(state):
            player = game.pending(state)[0].player
            fast = ask(state, player)
            full = seat_knowledge(game, state, player, tuple(seats.copies(player)))
            assert type(fast) is SeatKnowledge and fast.player == player
            if only:
                assert fast.view is NO_VIEW and fast.events == ()
                fast_asked += 1
            else:  # not marked for these options (marble's random bot with trading on)
                assert fast == full
                plain_asked += 1
            assert list(fast.legal) == list(full.legal)
            twin = rng.copy()
            action = bot(fast, rng)
            assert bot(full, twin) == action and twin.state == rng.state
            seats.add(game.apply(state, player, action))
    assert fast_asked > 1000
    if game_id == "marble":
        assert plain_asked > 100  # some random options turn trading on


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_decider_makes_the_move_the_bot_makes_with_its_whole_knowledge(game_id: str) -> None:
    """SeatLog.decider plays a bot marked ``uniform`` by the game's pick (core.contract
    .pick_legal, else pick_uniformly over legal_sequence) without asking it: the same move
    and the same draws as the bot handed its whole knowledge, on random options."""
    game = get_game(game_id)
    bot = game.bots["random"]
    picked = asked = 0
    for seed in range(GAMES_PER_ID):
        options, players = random_setup(game, seed)
        state, setup_events = game.start(options, players, seed)
        seats = SeatLog(game, players, setup_events, options)
        decide = seats.decider(bot)
        assert seats.decider(bot) is decide  # settled once per bot
        uniform = picks_uniformly(bot, options) is not None
        rng = bot_rng(seed)
        while not game.is_over(state):
            player = game.pending(state)[0].player
            full = seat_knowledge(game, state, player, tuple(seats.copies(player)))
            twin = rng.copy()
            action = decide(state, player, rng, None)
            assert bot(full, twin) == action and twin.state == rng.state
            picked, asked = (picked + 1, asked) if uniform else (picked, asked + 1)
            seats.add(game.apply(state, player, action))
    assert picked > 1000
    if game_id == "marble":
        assert asked > 100  # trading on: the bot reads its view, and is asked


@pytest.mark.parametrize(("draw_single", "draws"), [(False, 0), (True, 1)])
def test_pick_uniformly_draws_for_a_single_choice_only_when_told(
    draw_single: bool, draws: int
) -> None:
    only: list[Action] = [{"type": "ROLL"}]
    rng, start = Rng.from_seed(5), Rng.from_seed(5)
    assert pick_uniformly(only, rng, draw_single) is only[0]
    for _ in range(draws):
        start.next_u32()
    assert rng.state == start.state
    several: list[Action] = [{"n": n} for n in range(5)]
    twin = rng.copy()
    assert pick_uniformly(several, rng, draw_single) is several[twin.below(5)]
    assert rng.state == twin.state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_benchmark_loop_plays_the_game_the_plain_loop_plays(game_id: str) -> None:
    """play_fast (the fast asking) and a loop that hands every bot its whole knowledge end in
    the same state after the same number of steps."""
    game = get_game(game_id)
    bot = game.bots["random"]
    for seed in range(1, 1 + GAMES_PER_ID // 3):
        options = resolve_options(game.options, {})
        players = player_ids(game.max_players if game_id == "marble" else 5)
        fast_state, fast_steps = play_fast(game, options, players, seed, bot)
        state, events = game.start(options, players, seed)
        rng = bot_rng(seed)
        steps = 0
        while not game.is_over(state):
            player = game.pending(state)[0].player
            knowledge = seat_knowledge(game, state, player, tuple(events))
            events.extend(game.apply(state, player, bot(knowledge, rng)))
            steps += 1
        assert (fast_steps, game.to_json(fast_state)) == (steps, game.to_json(state))


def test_lead_actions_index_like_a_list() -> None:
    hand = [0, 1, 5, 9, 20, 77, 78]  # sorted card ints: a few numbers and one jester (78)
    lazy = LeadActions(hand)
    listed = list(lazy)
    assert len(listed) == len(lazy) > 0
    assert lazy[-1] == listed[-1] and lazy[1:3] == listed[1:3] and lazy[::-1] == listed[::-1]
    for index in (len(listed), -len(listed) - 1):
        with pytest.raises(IndexError):
            lazy[index]
    hand.append(79)  # the list it was made from changes: it does not
    assert list(lazy) == listed


class DrawLog(Rng):
    """A copy of a generator that remembers what each draw was asked for."""

    @classmethod
    def of(cls, rng: Rng) -> DrawLog:
        log = cls(*rng.state)
        log.asked = []
        return log

    asked: list[int]

    def below(self, n: int) -> int:
        self.asked.append(n)
        return super().below(n)


PICKING_GAME_IDS = [game_id for game_id in GAME_IDS if pick_legal(get_game(game_id))]


def test_both_games_pick_in_one_call() -> None:
    assert sorted(PICKING_GAME_IDS) == ["dalmuti", "marble"]


@pytest.mark.pure_engines  # patches or subclasses an engine module
@pytest.mark.parametrize("draw_single", [True, False])
@pytest.mark.parametrize("game_id", PICKING_GAME_IDS)
def test_the_pick_in_one_call_is_the_listed_pick(game_id: str, draw_single: bool) -> None:
    """A game's ``pick_legal`` gives ``pick_uniformly`` of its legal list and draws the same,
    for the pending seat and every other one (None where the list is empty)."""
    game = get_game(game_id)
    pick, listed = pick_legal(game), legal_sequence(game)
    assert pick is not None
    picked = 0
    for seed in range(GAMES_PER_ID):
        options, players = random_setup(game, seed)
        state, _ = game.start(options, players, seed)
        rng = bot_rng(seed)
        while not game.is_over(state):
            for player in players:
                actions = listed(state, player)
                twin = DrawLog.of(rng)
                expected = pick_uniformly(actions, twin, draw_single) if actions else None
                probe = DrawLog.of(rng)
                assert pick(state, player, probe, draw_single) == expected
                assert probe.asked == twin.asked and probe.state == twin.state
                picked += expected is not None
            player = game.pending(state)[0].player
            action = pick(state, player, rng, draw_single)
            assert action is not None
            game.apply(state, player, action)
    assert picked > 1000
    assert PASS == {"type": "pass"}  # shared, never changed


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_decider_plays_the_bot_with_its_whole_knowledge(game_id: str) -> None:
    """``SeatLog.decider`` (the pick in one call for the random bots where they are marked)
    makes the move and the draws the bot makes when handed its seat's whole knowledge."""
    game = get_game(game_id)
    bot = game.bots["random"]
    for seed in range(GAMES_PER_ID // 2):
        options, players = random_setup(game, seed)
        state, setup_events = game.start(options, players, seed)
        seats = SeatLog(game, players, setup_events, options)
        decide = seats.decider(bot)
        assert seats.decider(bot) is decide
        rng = bot_rng(seed)
        while not game.is_over(state):
            player = game.pending(state)[0].player
            twin = rng.copy()
            full = seat_knowledge(game, state, player, tuple(seats.copies(player)))
            action = decide(state, player, rng, None)
            assert bot(full, twin) == action and twin.state == rng.state
            seats.add(game.apply(state, player, action))


def test_a_record_keeps_a_copy_of_the_shared_pass() -> None:
    game = get_game("dalmuti")
    options = resolve_options(game.options, {})
    recorder = Recorder.begin(game, options, player_ids(5), 3)
    state = recorder.state
    decide = SeatLog(game, player_ids(5), recorder.record["setupEvents"], options).decider(
        game.bots["random"]
    )
    rng = bot_rng(3)
    passes = 0
    while passes < 3:
        player = game.pending(state)[0].player
        action = decide(state, player, rng, None)
        recorder.step(player, action)
        step = recorder.record["steps"][-1]
        assert step["action"] == action and step["action"] is not action
        passes += action is PASS
    recorder.record["steps"][-1]["action"]["type"] = "changed"
    assert PASS == {"type": "pass"}
