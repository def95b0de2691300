"""Writes the golden playthroughs: ``python -m tests.golden.regenerate`` (or ``make golden``).

A playthrough is a fixed-seed random game of one registered game. Its file holds, for the start
and after every action, each seat's and the spectator's observation (compact JSON, sorted keys)
and each seat's legal actions. tests/golden/test_golden.py replays every playthrough and compares
it with its file line by line; after an intended rule change, regenerate and review the diff.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asobiba.core.game import Game
from asobiba.games import get_game

GOLDEN_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Playthrough:
    """One fixed-seed random game of a registered game."""

    name: str
    """File name (without ``.txt``) under ``tests/golden/<game>/``."""
    seed: int
    """Seeds both the game and the random player."""
    options: dict[str, Any] = field(default_factory=dict)


PLAYTHROUGHS: dict[str, list[Playthrough]] = {
    "mancala": [
        Playthrough("kalah", 1),
        Playthrough(
            "kalah_capture_empty_no_leftovers_seeds3",
            2,
            {"capture": "empty", "count_leftovers": False, "seeds": 3},
        ),
        Playthrough("basic_seeds4", 3, {"variant": "basic", "seeds": 4}),
        Playthrough("basic_seeds3", 4, {"variant": "basic", "seeds": 3}),
    ],
}
"""Every registered game needs at least one; the golden test fails for a game without."""


def golden_path(game_name: str, playthrough: Playthrough) -> Path:
    return GOLDEN_DIR / game_name / f"{playthrough.name}.txt"


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def snapshot(game: Game[Any], state: Any, title: str) -> list[str]:
    """``title``, then every viewer's observation and every seat's legal actions."""
    seats = range(game.min_seats)
    lines = [title]
    for viewer in [*seats, None]:
        who = "spectator" if viewer is None else f"seat {viewer}"
        lines.append(f"  observe {who}: {dumps(game.observe(state, viewer))}")
    for seat in seats:
        lines.append(f"  legal seat {seat}: {dumps(game.legal_actions(state, seat))}")
    return lines


def render(game_name: str, playthrough: Playthrough) -> list[str]:
    """The playthrough's text, one list item per line."""
    game = get_game(game_name)
    rng = random.Random(playthrough.seed)
    state = game.new_state(playthrough.options, game.min_seats, playthrough.seed)
    lines = [
        f"# {game_name} {playthrough.name}: options {dumps(playthrough.options)}, "
        f"seats {game.min_seats}, seed {playthrough.seed} (both the game and the random player)",
        *snapshot(game, state, "start"),
    ]
    ply = 0
    while game.outcome(state) is None:
        seat = min(game.to_move(state))
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        ply += 1
        lines += snapshot(game, state, f"action {ply}: seat {seat} plays {dumps(action)}")
    lines.append(f"outcome: {dumps(game.outcome(state))}")
    return lines


def main() -> None:
    for game_name, playthroughs in PLAYTHROUGHS.items():
        for playthrough in playthroughs:
            path = golden_path(game_name, playthrough)
            path.parent.mkdir(exist_ok=True)
            lines = render(game_name, playthrough)
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"wrote {path} ({len(lines)} lines)")


if __name__ == "__main__":
    main()
