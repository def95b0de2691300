"""Writes the golden playthroughs: ``python -m tests.golden.regenerate`` (or ``make golden``).

A playthrough is a fixed-seed random game of one registered engine. Its file holds, for the start
and after every action or timed event, each seat's and the spectator's observation (compact
JSON, sorted keys) and each seat's legal actions. Time is part of the game: actions happen
``STEP`` seconds apart, and while a timed event is pending the random player sometimes lets it
fall due instead of acting (``advance``), so timers are in the files too.
tests/golden/test_golden.py replays every playthrough and compares it with its file line by
line; after an intended rule change, regenerate and review the diff.
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
    seats: int | None = None
    """How many seats; the game's minimum if None."""


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
    "mokochaka": [
        # Seeds picked for short games that still show a token race: a pile taken by choice
        # (2 seats), a Chakamokochaka bonus (3 seats), a race among 6 won with Mokochaka.
        Playthrough("two_players", 44, seats=2),
        Playthrough("three_players_chakamokochaka", 307, seats=3),
        Playthrough("six_players", 52, seats=6),
    ],
    "momojan": [
        Playthrough("one_deal_each", 2, {"dealerships": 1}, seats=2),
        Playthrough("full_match", 5, seats=2),
    ],
    "michikake": [
        Playthrough("four_seats_short_pile4", 2, {"short_pile": 4}, seats=4),
        # Seeds picked for a steal and for a win on a discard.
        Playthrough("three_seats_short_pile8_steal", 100, {"short_pile": 8}, seats=3),
        Playthrough("three_seats_short_pile8_win", 303, {"short_pile": 8}, seats=3),
    ],
}
"""Every registered game needs at least one; the golden test fails for a game without."""


def golden_path(game_name: str, playthrough: Playthrough) -> Path:
    return GOLDEN_DIR / game_name / f"{playthrough.name}.txt"


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


STEP = 0.5
"""Seconds between two actions of the random player."""
WAIT_CHANCE = 0.2
"""How often the random player lets a pending timed event fall due instead of acting."""


def snapshot(game: Game[Any], state: Any, seats: range, title: str) -> list[str]:
    """``title``, then every viewer's observation and every seat's legal actions."""
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
    count = playthrough.seats or game.min_seats
    seats = range(count)
    state = game.new_state(playthrough.options, count, playthrough.seed)
    lines = [
        f"# {game_name} {playthrough.name}: options {dumps(playthrough.options)}, "
        f"seats {count}, seed {playthrough.seed} (both the game and the random player)",
        *snapshot(game, state, seats, "start"),
    ]
    ply = 0
    at = 0.0
    while game.outcome(state) is None:
        movers = sorted(game.to_move(state))
        due = game.deadline(state)
        if due is not None and (not movers or rng.random() < WAIT_CHANCE):
            at = max(at, due)
            state = game.advance(state, at)
            lines += snapshot(game, state, seats, f"at {at:g}: timed events due")
            continue
        seat = movers[0] if due is None else rng.choice(movers)
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action, at)
        ply += 1
        lines += snapshot(game, state, seats, f"action {ply}: seat {seat} plays {dumps(action)}")
        at += STEP
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
