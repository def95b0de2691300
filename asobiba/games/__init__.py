"""The registry: every game engine, and which of them the site offers.

An engine is registered as soon as its rules are built and tested (the golden playthroughs, the
arena and the bots use it); the site offers it, with its pages and the room API, once its table
is built too.
"""

from __future__ import annotations

from typing import Any

from asobiba.core.game import Game
from asobiba.games.mancala import Mancala
from asobiba.games.michikake import Michikake
from asobiba.games.mokochaka import Mokochaka
from asobiba.games.momojan import Momojan

_ENGINES: dict[str, Game[Any]] = {
    "mancala": Mancala(),
    "mokochaka": Mokochaka(),
    "momojan": Momojan(),
    "michikake": Michikake(),
}

_OFFERED: list[str] = ["mancala", "mokochaka", "momojan", "michikake"]
"""Games the site offers, in the order it lists them."""

COMING: list[str] = [name for name in ["mokochaka", "momojan", "michikake"] if name not in _OFFERED]
"""Games announced on the home page but not yet offered."""


def game_names() -> list[str]:
    """Games the site offers, in the order it lists them."""
    return list(_OFFERED)


def engine_names() -> list[str]:
    """Every registered engine, offered on the site or not yet."""
    return list(_ENGINES)


def get_game(name: str) -> Game[Any]:
    """Any registered engine by name."""
    try:
        return _ENGINES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {engine_names()}") from None
