"""The rank card game (spec/dalmuti.md, shown as "신분 카드 게임"). ``GAME`` is its rules."""

from jokeapp.games.dalmuti.game import GAME, DalmutiGame

__all__ = ["GAME", "DalmutiGame"]
