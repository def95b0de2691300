"""asobiba's turn games as OpenSpiel games: ``import asobiba.openspiel`` registers
``asobiba_mancala``, ``asobiba_momojan`` and ``asobiba_michikake`` with ``pyspiel``.

Each is a thin adapter over the engine through the game protocol (``game.py``); the per-game
modules hold only the action id tables, the tensors and the bounds. Mokochaka is not here: it is
a real-time race (who grabs first, in seconds), not a game of turns. docs/OPENSPIEL.md says how
to load, train against the site's bots and play against them.
"""

from __future__ import annotations

from asobiba.openspiel.bots import EngineBot
from asobiba.openspiel.game import SPECS, AsobibaGame, AsobibaState, register
from asobiba.openspiel.mancala import MancalaSpec
from asobiba.openspiel.michikake import MichikakeSpec
from asobiba.openspiel.momojan import MomojanSpec

GAMES = ("asobiba_mancala", "asobiba_momojan", "asobiba_michikake")
"""The OpenSpiel short names this module registers."""

for _spec in (MancalaSpec(), MomojanSpec(), MichikakeSpec()):
    if _spec.short_name not in SPECS:
        register(_spec)

__all__ = ["GAMES", "AsobibaGame", "AsobibaState", "EngineBot"]
