"""The arena: round robins through the game protocol alone, the printed table, the command line."""

from __future__ import annotations

import argparse
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from asobiba.core.arena import format_table, parse_option, round_robin, run_cli
from asobiba.core.errors import InvalidOptions
from asobiba.core.game import DesignedValue
from asobiba.core.options import OptionSpec
from asobiba.games import get_game


@dataclass(frozen=True)
class Pick:
    """The toy game's state: the numbers picked so far, seat 0 first."""

    picks: tuple[int, ...] = ()


class PickHigher:
    """A toy game that is not Mancala: each seat picks a number 1..5 once, the higher one wins.

    Level ``lN`` always picks N, so every result is known in advance; ``first`` makes seat 0 win
    every game whatever it picks, to show that the seats alternate.
    """

    name = "pick"
    min_seats = max_seats = 2

    def __init__(self) -> None:
        self.levels = ["l1", "l3", "l5"]

    def options_spec(self) -> list[OptionSpec]:
        return []

    def level_names(self) -> dict[str, dict[str, str]]:
        return {level: {"ja": level, "en": level} for level in self.levels}

    def designed_values(self) -> list[DesignedValue]:
        return []

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if set(options) - {"first"}:
            raise InvalidOptions(f"unknown option in {options!r}")
        return {"first": options.get("first", False)}

    def new_state(self, options: Mapping[str, Any], seats: int, seed: int) -> Any:
        return (Pick(), options["first"])

    def to_move(self, state: Any) -> frozenset[int]:
        picks, _ = state
        return frozenset() if len(picks.picks) == 2 else frozenset({len(picks.picks)})

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return [{"n": n} for n in range(1, 6)] if seat in self.to_move(state) else []

    def apply(self, state: Any, seat: int, action: dict[str, Any], at: float | None = None) -> Any:
        picks, first = state
        return (Pick((*picks.picks, action["n"])), first)

    def observe(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {"picks": list(state[0].picks), "seat": seat}

    def outcome(self, state: Any) -> dict[str, Any] | None:
        picks, first = state
        if len(picks.picks) < 2:
            return None
        a, b = picks.picks
        if first:
            return {"scores": [1, 0], "winners": [0]}
        return {"scores": [a, b], "winners": [0] if a > b else [1] if b > a else []}

    def deadline(self, state: Any) -> float | None:
        return None

    def advance(self, state: Any, at: float) -> Any:
        return state

    def make_bot(self, level: str, seed: int) -> Any:
        number = int(level[1:])

        class Fixed:
            def choose(self, observation: dict[str, Any], legal: list[dict[str, int]]) -> dict:
                return {"n": number}

        return Fixed()


def test_a_round_robin_counts_wins_draws_and_losses_from_the_first_levels_side() -> None:
    table = round_robin(PickHigher(), ["l1", "l3", "l5"], 6, seed=1, opening_plies=0)
    assert (table.records[(0, 1)].wins, table.records[(0, 1)].losses) == (0, 6)
    assert table.records[(1, 2)].losses == 6
    assert table.record(2, 0).wins == 6
    elo = [r.elo for r in table.ratings()]
    assert elo[0] == 0 < elo[1] < elo[2]


def test_seats_alternate_within_each_pairing() -> None:
    table = round_robin(PickHigher(), ["l1", "l5"], 10, 1, {"first": True}, opening_plies=0)
    record = table.records[(0, 1)]
    assert (record.wins, record.draws, record.losses) == (5, 0, 5)


def test_equal_levels_draw() -> None:
    table = round_robin(PickHigher(), ["l3", "l3"], 4, seed=1, opening_plies=0)
    assert table.records[(0, 1)].draws == 4


def test_a_tiny_mancala_round_robin_prints_its_table() -> None:
    game = get_game("mancala")
    lines: list[str] = []
    table = round_robin(game, ["beginner", "casual"], 4, 3, {"seeds": 3}, lines.append)
    assert lines == [
        f"beginner vs casual: {table.records[(0, 1)].wins}-{table.records[(0, 1)].draws}-"
        f"{table.records[(0, 1)].losses}"
    ]
    assert table.records[(0, 1)].games == 4
    text = format_table(table)
    assert "| beginner | - |" in text and "| casual |" in text
    assert "| beginner | 0 | anchor |" in text
    assert table.clocks[0].moves > 0 and table.clocks[1].moves > 0


def test_the_same_seed_replays_the_same_round_robin() -> None:
    game = get_game("mancala")
    one = round_robin(game, ["beginner", "casual"], 4, 5, {"seeds": 3})
    two = round_robin(game, ["beginner", "casual"], 4, 5, {"seeds": 3})
    assert one.records == two.records


def test_worker_processes_play_the_same_round_robin() -> None:
    game = get_game("mancala")
    levels = ["beginner", "casual", "strong"]
    lines: list[str] = []
    alone = round_robin(game, levels, 6, 9, {"seeds": 3})
    shared = round_robin(game, levels, 6, 9, {"seeds": 3}, lines.append, jobs=2)
    assert shared.records == alone.records
    assert [c.moves for c in shared.clocks] == [c.moves for c in alone.clocks]
    assert lines[0].startswith("beginner vs casual: ") and len(lines) == 3


def args(**overrides: Any) -> argparse.Namespace:
    values = {
        "game": "mancala",
        "levels": "beginner,casual",
        "games": 2,
        "seed": 1,
        "option": [],
        "jobs": 1,
    }
    return argparse.Namespace(**(values | overrides))


def test_run_cli_prints_the_table_and_elo() -> None:
    out = io.StringIO()
    assert run_cli(args(option=["seeds=3", "count_leftovers=false"]), out) == 0
    text = out.getvalue()
    assert "'seeds': 3" in text and "'count_leftovers': False" in text
    assert "| level | beginner | casual | score |" in text
    assert "| level | Elo | ±95% |" in text


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"option": ["colour=red"]}, "unknown option 'colour'"),
        ({"option": ["seeds=7"]}, "option 'seeds' cannot be 7"),
        ({"option": ["seeds"]}, "an option is key=value"),
        ({"levels": "beginner,grandmaster"}, "unknown mancala levels ['grandmaster']"),
        ({"levels": "beginner"}, "at least two levels"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"games": 0}, "--games must be at least 1"),
        ({"jobs": 0}, "--jobs must be at least 1"),
    ],
)
def test_run_cli_rejects_bad_input_with_exit_code_2(
    overrides: dict[str, Any], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(args(**overrides)) == 2
    assert message in capsys.readouterr().err


def test_parse_option_reads_booleans_and_integers() -> None:
    assert parse_option("seeds=3") == ("seeds", 3)
    assert parse_option("count_leftovers=false") == ("count_leftovers", False)
    assert parse_option("count_leftovers=true") == ("count_leftovers", True)
    assert parse_option("variant=basic") == ("variant", "basic")


def test_the_asobiba_command_runs_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    from asobiba.cli import main

    assert main(["arena", "mancala", "--levels", "beginner,casual", "--games", "2"]) == 0
    assert "| beginner |" in capsys.readouterr().out
    assert main(["arena", "mancala", "--levels", "beginner,casual", "--option", "x=1"]) == 2
