"""Which of MOMOJAN's bots plays each level of data.toml.

Apart from the bots themselves: the searching bot (search.py) builds on the greedy one (bots.py),
so the module that picks between them imports both and neither imports the other back.
"""

from __future__ import annotations

from asobiba.core.bots import Bot
from asobiba.core.errors import InvalidOptions
from asobiba.games.momojan.bots import BeginnerBot, GreedyBot
from asobiba.games.momojan.data import LEVEL_BY_ID
from asobiba.games.momojan.search import SearchBot


def make_bot(level: str, seed: int) -> Bot:
    """The bot of ``level`` (an id from data.toml)."""
    try:
        spec = LEVEL_BY_ID[level]
    except KeyError:
        raise InvalidOptions(
            f"unknown momojan bot level {level!r}; known: {list(LEVEL_BY_ID)}"
        ) from None
    if spec.style == "beginner":
        return BeginnerBot(spec, seed)
    if spec.style == "search":
        return SearchBot(spec, seed)
    return GreedyBot(spec, seed)
