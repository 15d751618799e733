"""Snapszer / 66 bots (issue 7): random, heuristic, and a determinized-search expert, in five levels.

Bots are pure like the engine: they see only ``observe(state, seat)``, use a ``random.Random`` the
caller owns, and never read the clock (a caller may pass one in). See docs/sixtysix-bots.md.
"""

from games.engine.sixtysix.bots.base import Bot
from games.engine.sixtysix.bots.expert import Budget, ExpertBot
from games.engine.sixtysix.bots.heuristic import HeuristicBot
from games.engine.sixtysix.bots.knowledge import Knowledge, know, sample_hidden, sample_world, world
from games.engine.sixtysix.bots.levels import BOT_NAMES, LEVELS, Level, make_bot
from games.engine.sixtysix.bots.random_bot import RandomBot

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "Budget",
    "ExpertBot",
    "HeuristicBot",
    "Knowledge",
    "Level",
    "RandomBot",
    "know",
    "make_bot",
    "sample_hidden",
    "sample_world",
    "world",
]
