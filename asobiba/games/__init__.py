"""The registry: every game the site offers, by name."""

from __future__ import annotations

from typing import Any

from asobiba.core.game import Game
from asobiba.games.mancala import Mancala

_GAMES: dict[str, Game[Any]] = {"mancala": Mancala()}

COMING: list[str] = ["mokochaka", "momojan", "michikake"]
"""Games announced on the home page but not yet playable."""


def game_names() -> list[str]:
    """Playable games, in the order the site lists them."""
    return list(_GAMES)


def get_game(name: str) -> Game[Any]:
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {game_names()}") from None
