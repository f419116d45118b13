"""세계 여행 땅따먹기 (spec/marble.md): the rules engine, its views and its bots."""

from jokeapp.games.marble.game import MarbleGame
from jokeapp.games.marble.levels import BOTS

GAME = MarbleGame(BOTS)

__all__ = ["BOTS", "GAME", "MarbleGame"]
