"""The marble bots by level (DESIGN.md, "Bots"): what rooms and the simulator offer."""

from __future__ import annotations

from typing import Final

from jokeapp.core.bots import BotLevels
from jokeapp.games.marble.bots import easy_bot, normal_bot, random_bot
from jokeapp.games.marble.search import hard_bot

BOTS: Final = BotLevels(
    {"random": random_bot, "easy": easy_bot, "normal": normal_bot, "hard": hard_bot}
)
