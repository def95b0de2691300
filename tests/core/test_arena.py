"""The arena: round robins through the game protocol alone, the printed table, the command line."""

from __future__ import annotations

import argparse
import io
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from asobiba.core.arena import (
    Fixture,
    Record,
    format_table,
    lineups,
    parse_option,
    play,
    round_robin,
    run_cli,
)
from asobiba.core.bots import Timed
from asobiba.core.errors import InvalidOptions
from asobiba.core.game import DesignedValue, RecordField
from asobiba.core.options import OptionSpec
from asobiba.games import get_game


@dataclass(frozen=True)
class Pick:
    """The toy game's state: the numbers picked so far, seat 0 first."""

    picks: tuple[int, ...] = ()


class ToyGame:
    """What every toy game here shares: no options, levels named by their ids, no designed
    values and nothing on the records page beyond wins."""

    levels: list[str]

    def options_spec(self) -> list[OptionSpec]:
        return []

    def level_names(self) -> dict[str, dict[str, str]]:
        return {level: {"ja": level, "en": level} for level in self.levels}

    def designed_values(self) -> list[DesignedValue]:
        return []

    def record_fields(self) -> list[RecordField]:
        return []

    def record(self, outcome: dict[str, Any], seat: int) -> dict[str, float | None]:
        return {}


class PickHigher(ToyGame):
    """A toy game that is not Mancala: each seat picks a number 1..5 once, the higher one wins.

    Level ``lN`` always picks N, so every result is known in advance; ``first`` makes seat 0 win
    every game whatever it picks, to show that the seats alternate.
    """

    name = "pick"
    min_seats = max_seats = 2

    def __init__(self) -> None:
        self.levels = ["l1", "l3", "l5"]

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
        "players": None,
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
        ({"players": 3}, "mancala takes 2 to 2 players, not 3"),
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


class Highest(ToyGame):
    """A toy game for 2 to 4 seats: each seat picks a number once, in turn; the highest pick
    wins (ties share). Level ``lN`` always picks N."""

    name = "highest"
    min_seats = 2
    max_seats = 4

    def __init__(self) -> None:
        self.levels = ["l1", "l3", "l5"]

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return dict(options)

    def new_state(self, options: Mapping[str, Any], seats: int, seed: int) -> Any:
        return (seats, ())

    def to_move(self, state: Any) -> frozenset[int]:
        seats, picks = state
        return frozenset() if len(picks) == seats else frozenset({len(picks)})

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return [{"n": n} for n in range(1, 6)] if seat in self.to_move(state) else []

    def apply(self, state: Any, seat: int, action: dict[str, Any], at: float | None = None) -> Any:
        seats, picks = state
        return (seats, (*picks, action["n"]))

    def observe(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {"picks": list(state[1])}

    def outcome(self, state: Any) -> dict[str, Any] | None:
        seats, picks = state
        if len(picks) < seats:
            return None
        return {
            "scores": list(picks),
            "winners": [s for s, n in enumerate(picks) if n == max(picks)],
        }

    def deadline(self, state: Any) -> float | None:
        return None

    def advance(self, state: Any, at: float) -> Any:
        return state

    def make_bot(self, level: str, seed: int) -> Any:
        return Fixed(int(level[1:]))


class Fixed:
    def __init__(self, number: int) -> None:
        self.number = number

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return {"n": self.number}


def test_lineups_pair_every_two_levels_and_fill_bigger_tables_evenly() -> None:
    assert lineups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert lineups(3, 3) == [(0, 1, 2)]
    assert lineups(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert Counter(level for lineup in lineups(3, 5) for level in lineup) == {0: 5, 1: 5, 2: 5}


def test_a_deal_is_played_from_every_seat() -> None:
    seatings = [Fixture((0, 1, 2), k).seating() for k in range(3)]
    assert seatings == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    for seat in range(3):
        assert {seating[seat] for seating in seatings} == {0, 1, 2}


def test_at_a_table_of_three_every_two_seats_count_as_a_pairing() -> None:
    """The winner beats the others; between two non-winners the higher score wins."""
    table = round_robin(Highest(), ["l1", "l3", "l5"], 3, seed=1, opening_plies=0, players=3)
    assert table.records[(0, 1)].losses == 3  # l3 out-scores l1 though neither won
    assert table.records[(0, 2)].losses == 3
    assert table.records[(1, 2)].losses == 3
    elo = [r.elo for r in table.ratings()]
    assert elo[0] < elo[1] < elo[2]


def test_more_seats_than_levels_seat_levels_twice_and_skip_same_level_pairs() -> None:
    lines: list[str] = []
    table = round_robin(
        Highest(), ["l1", "l5"], 4, 2, opening_plies=0, players=4, report=lines.append
    )
    # Two lineups, four games each, four l1-l5 pairs in every game.
    assert table.records == {(0, 1): Record(wins=0, draws=0, losses=32)}
    assert lines == ["l1 / l5 / l1 / l5: done", "l5 / l1 / l5 / l1: done"]


@dataclass(frozen=True)
class RaceState:
    seats: int
    winner: int | None = None
    won_at: float | None = None
    timed_out: bool = False


class Race(ToyGame):
    """A toy real-time game: every seat may buzz from the start; the first buzz wins; after
    ``WINDOW`` seconds without one, the game ends with no winner."""

    name = "race"
    min_seats = 2
    max_seats = 3
    WINDOW = 1.0

    def __init__(self) -> None:
        self.levels = ["fast", "slow", "late", "silent"]

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return dict(options)

    def new_state(self, options: Mapping[str, Any], seats: int, seed: int) -> RaceState:
        return RaceState(seats)

    def to_move(self, state: RaceState) -> frozenset[int]:
        return frozenset() if self.outcome(state) else frozenset(range(state.seats))

    def legal_actions(self, state: RaceState, seat: int) -> list[dict[str, Any]]:
        return [{"buzz": True}] if seat in self.to_move(state) else []

    def apply(
        self, state: RaceState, seat: int, action: dict[str, Any], at: float | None = None
    ) -> RaceState:
        return RaceState(state.seats, seat, at)

    def observe(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        return {}

    def outcome(self, state: RaceState) -> dict[str, Any] | None:
        if state.winner is not None:
            scores = [int(s == state.winner) for s in range(state.seats)]
            return {"scores": scores, "winners": [state.winner], "at": state.won_at}
        if state.timed_out:
            return {"scores": [0] * state.seats, "winners": []}
        return None

    def deadline(self, state: RaceState) -> float | None:
        return None if self.outcome(state) else self.WINDOW

    def advance(self, state: RaceState, at: float) -> RaceState:
        return RaceState(state.seats, timed_out=True) if at >= self.WINDOW else state

    def make_bot(self, level: str, seed: int) -> Any:
        return Reacting({"fast": 0.2, "slow": 0.4, "late": 5.0, "silent": None}[level])


class Reacting:
    """Buzzes ``after`` seconds from what it saw, or never (None)."""

    def __init__(self, after: float | None) -> None:
        self.after = after

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return legal[0]

    def decide(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> Timed:
        return Timed(None) if self.after is None else Timed(legal[0], self.after)


def test_in_real_time_the_quicker_bot_wins_from_any_seat_at_the_time_it_chose() -> None:
    game = Race()
    for bots in ([Reacting(0.2), Reacting(0.4)], [Reacting(0.4), Reacting(0.2)]):
        outcome = play(game, {}, list(bots), 1, random.Random(1), opening_plies=0)
        assert outcome["winners"] == [bots.index(min(bots, key=lambda b: b.after or 9))]
        assert outcome["at"] == 0.2
    table = round_robin(game, ["fast", "slow"], 4, seed=1, opening_plies=0)
    assert table.records[(0, 1)].wins == 4


def test_in_real_time_a_timer_that_falls_due_first_beats_late_and_silent_bots() -> None:
    table = round_robin(Race(), ["late", "silent"], 2, seed=1, opening_plies=0, players=3)
    assert table.records[(0, 1)].draws == 2 * 2 * 2  # two lineups, two games, two pairs each


class Pause(ToyGame):
    """A toy game with a pause: each seat acts once, then nobody may act until a timer a
    second later ends the game (as a Mokochaka race window that every seat has spoken in)."""

    name = "pause"
    min_seats = max_seats = 2

    def __init__(self) -> None:
        self.levels = ["l1", "l3"]

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return dict(options)

    def new_state(self, options: Mapping[str, Any], seats: int, seed: int) -> Any:
        return ((), None, False)

    def to_move(self, state: Any) -> frozenset[int]:
        picks, _, over = state
        return frozenset() if over or len(picks) == 2 else frozenset({len(picks)})

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return [{"n": n} for n in range(1, 6)] if seat in self.to_move(state) else []

    def apply(self, state: Any, seat: int, action: dict[str, Any], at: float | None = None) -> Any:
        picks, _, _ = state
        picks = (*picks, action["n"])
        return (picks, (at or 0.0) + 1.0 if len(picks) == 2 else None, False)

    def observe(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {"picks": list(state[0])}

    def outcome(self, state: Any) -> dict[str, Any] | None:
        picks, _, over = state
        if not over:
            return None
        return {
            "scores": list(picks),
            "winners": [s for s, n in enumerate(picks) if n == max(picks)],
        }

    def deadline(self, state: Any) -> float | None:
        return None if state[2] else state[1]

    def advance(self, state: Any, at: float) -> Any:
        picks, due, _ = state
        return (picks, due, True) if due is not None and at >= due else state

    def make_bot(self, level: str, seed: int) -> Any:
        return Fixed(int(level[1:]))


def test_a_pause_with_nobody_to_move_waits_for_the_timer() -> None:
    table = round_robin(Pause(), ["l1", "l3"], 2, seed=1, opening_plies=0)
    assert table.records[(0, 1)].losses == 2
