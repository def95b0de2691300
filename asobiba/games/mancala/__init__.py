"""Mancala: Kalah and Basic."""

from asobiba.games.mancala.rules import Mancala, MancalaState

__all__ = ["Mancala", "MancalaState"]
