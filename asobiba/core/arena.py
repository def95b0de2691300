"""Round robins between bot levels of any game, through the game protocol alone.

Every pairing plays its games in pairs from the same start: a few random opening moves, then the
same bots with their seats swapped. The random opening keeps deterministic bots from replaying one
game forty times; playing it from both seats cancels the luck of the opening and of moving first.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

from asobiba.core.bots import Bot
from asobiba.core.elo import Rating, Score, ratings
from asobiba.core.errors import InvalidOptions
from asobiba.core.game import Game

OPENING_PLIES = 2
"""Random moves before the bots take over: in Mancala, one move each way, a few dozen openings."""


@dataclass
class Record:
    """One pairing's games, from the first level's side, and the time the bots took."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws


@dataclass
class Clock:
    """Seconds one level spent choosing moves over the whole round robin."""

    moves: int = 0
    total: float = 0.0
    longest: float = 0.0

    def add(self, seconds: float) -> None:
        self.moves += 1
        self.total += seconds
        self.longest = max(self.longest, seconds)


@dataclass
class Table:
    """A finished round robin."""

    levels: list[str]
    records: dict[tuple[int, int], Record]
    """``(i, j)`` with ``i < j``: level i's wins, draws and losses against level j."""
    clocks: list[Clock] = field(default_factory=list)

    def record(self, i: int, j: int) -> Record:
        """Level i's result against level j, from i's side."""
        if i < j:
            return self.records[(i, j)]
        mirror = self.records[(j, i)]
        return Record(mirror.losses, mirror.draws, mirror.wins)

    def ratings(self) -> list[Rating]:
        scores = {pair: Score(r.points, r.games) for pair, r in self.records.items()}
        return ratings(len(self.levels), scores)


def play(
    game: Game[Any],
    options: Mapping[str, Any],
    bots: list[Bot],
    seed: int,
    opening: random.Random,
    opening_plies: int = OPENING_PLIES,
    times: list[list[float]] | None = None,
) -> dict[str, Any]:
    """Play one game, ``bots[seat]`` in each seat, after ``opening_plies`` random moves.

    Time is simulated: when no seat may act, the game advances to its next deadline. Returns the
    outcome; ``times[seat]``, when given, gets the seconds each of that bot's moves took.
    """
    state = game.new_state(options, len(bots), seed)
    at = 0.0
    ply = 0
    while (outcome := game.outcome(state)) is None:
        movers = sorted(game.to_move(state))
        if not movers:
            due = game.deadline(state)
            if due is None:
                raise RuntimeError(f"{game.name}: no seat may act and no timer is due")
            at = max(at, due)
            state = game.advance(state, at)
            continue
        seat = movers[ply % len(movers)]
        legal = game.legal_actions(state, seat)
        if ply < opening_plies:
            action = opening.choice(legal)
        else:
            started = time.perf_counter()
            action = bots[seat].choose(game.observe(state, seat), legal)
            if times is not None:
                times[seat].append(time.perf_counter() - started)
        state = game.apply(state, seat, action, at)
        ply += 1
    return outcome


@dataclass(frozen=True)
class Fixture:
    """Game ``k`` of the pairing of levels ``i < j``: its seeds and seats follow from these."""

    i: int
    j: int
    k: int


@dataclass
class Played:
    """One game's result from level i's side and the seconds each level's moves took."""

    fixture: Fixture
    i_won: bool
    j_won: bool
    times_i: list[float]
    times_j: list[float]


def play_fixture(
    game: Game[Any],
    options: Mapping[str, Any],
    levels: list[str],
    seed: int,
    fixture: Fixture,
    *,
    opening_plies: int = OPENING_PLIES,
) -> Played:
    """Play one game of a round robin; a pure function of its arguments (but for the clocks)."""
    i, j, k = fixture.i, fixture.j, fixture.k
    tag = f"{seed}:{levels[i]}:{levels[j]}:{k // 2}"
    bot_a = game.make_bot(levels[i], _derive(f"{tag}:a"))
    bot_b = game.make_bot(levels[j], _derive(f"{tag}:b"))
    seats = [i, j] if k % 2 == 0 else [j, i]
    bots = [bot_a, bot_b] if k % 2 == 0 else [bot_b, bot_a]
    times: list[list[float]] = [[], []]
    outcome = play(game, options, bots, _derive(tag), random.Random(tag), opening_plies, times)
    winners = set(outcome["winners"])
    at_i, at_j = seats.index(i), seats.index(j)
    return Played(fixture, at_i in winners, at_j in winners, times[at_i], times[at_j])


def _play_by_name(
    name: str,
    options: Mapping[str, Any],
    levels: list[str],
    seed: int,
    fixture: Fixture,
    *,
    opening_plies: int,
) -> Played:
    """``play_fixture`` in a worker process, which finds the game in the registry by name."""
    from asobiba.games import get_game

    return play_fixture(get_game(name), options, levels, seed, fixture, opening_plies=opening_plies)


def round_robin(
    game: Game[Any],
    levels: list[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    report: Callable[[str], None] | None = None,
    opening_plies: int = OPENING_PLIES,
    jobs: int = 1,
) -> Table:
    """Every pair of ``levels`` plays ``games`` games, seats alternating; ``report`` gets progress.

    Game ``k`` of a pairing starts from opening ``k // 2``; even ``k`` seats the first level
    first, odd ``k`` the second. Seeds derive from ``seed``, the pairing and ``k``, so one
    pairing replays alike whatever else is in the round robin, and whatever ``jobs`` is: with
    ``jobs > 1`` the games run in that many worker processes (the game must then be in the
    registry, since a worker looks it up by name).
    """
    resolved = game.resolve_options(options or {})
    for level in levels:
        if level not in game.levels:
            raise InvalidOptions(f"unknown {game.name} level {level!r}; known: {game.levels}")
    fixtures = [
        Fixture(i, j, k)
        for i in range(len(levels))
        for j in range(i + 1, len(levels))
        for k in range(games)
    ]
    table = Table(levels, {}, [Clock() for _ in levels])
    if jobs <= 1:
        here = partial(play_fixture, game, resolved, levels, seed, opening_plies=opening_plies)
        _tally(table, map(here, fixtures), games, report)
        return table
    worker = partial(_play_by_name, game.name, resolved, levels, seed, opening_plies=opening_plies)
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        _tally(table, pool.map(worker, fixtures), games, report)
    return table


def _tally(
    table: Table,
    played: Iterable[Played],
    games: int,
    report: Callable[[str], None] | None,
) -> None:
    """Add the games, in fixture order, to ``table``; report each pairing as it completes."""
    for game in played:
        i, j = game.fixture.i, game.fixture.j
        record = table.records.setdefault((i, j), Record())
        if game.i_won and not game.j_won:
            record.wins += 1
        elif game.j_won and not game.i_won:
            record.losses += 1
        else:
            record.draws += 1
        for level, times in ((i, game.times_i), (j, game.times_j)):
            for seconds in times:
                table.clocks[level].add(seconds)
        if report and record.games == games:
            first, second = table.levels[i], table.levels[j]
            report(f"{first} vs {second}: {record.wins}-{record.draws}-{record.losses}")


def _derive(tag: str) -> int:
    return random.Random(tag).getrandbits(32)


def format_table(table: Table) -> str:
    """The win-draw-loss matrix (row level's side), then each level's Elo and time per move."""
    levels = table.levels
    lines = ["W-D-L of the row level against the column level", ""]
    lines.append("| level |" + "|".join(f" {level} " for level in levels) + "| score |")
    lines.append("|---|" + "---:|" * len(levels) + "---:|")
    for i, level in enumerate(levels):
        cells = []
        points = 0.0
        played = 0
        for j in range(len(levels)):
            if i == j:
                cells.append(" - ")
                continue
            r = table.record(i, j)
            points += r.points
            played += r.games
            cells.append(f" {r.wins}-{r.draws}-{r.losses} ")
        share = f"{100 * points / played:.0f}%" if played else "-"
        lines.append(f"| {level} |" + "|".join(cells) + f"| {share} |")
    lines += ["", "| level | Elo | ±95% | s/move mean | s/move max |", "|---|---:|---:|---:|---:|"]
    for level, rating, clock in zip(levels, table.ratings(), table.clocks, strict=True):
        error = "anchor" if rating.error == 0 else f"±{rating.error:.0f}"
        mean = clock.total / clock.moves if clock.moves else 0.0
        lines.append(f"| {level} | {rating.elo:.0f} | {error} | {mean:.3f} | {clock.longest:.3f} |")
    return "\n".join(lines)


def parse_option(text: str) -> tuple[str, Any]:
    """``"key=value"`` with ``true``/``false`` as booleans and digits as integers."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise InvalidOptions(f"an option is key=value, got {text!r}")
    if value in ("true", "false"):
        return key, value == "true"
    if value.lstrip("-").isdigit():
        return key, int(value)
    return key, value


def run_cli(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``asobiba arena GAME --levels a,b,c --games N --seed S --option k=v``: print the table.

    Returns 0, or 2 after a message on stderr when the game, a level or an option is unknown.
    """
    from asobiba.games import get_game

    out = out or sys.stdout
    try:
        game = get_game(args.game)
        options = dict(parse_option(text) for text in args.option)
        resolved = game.resolve_options(options)
        levels = [level.strip() for level in args.levels.split(",") if level.strip()]
        if len(levels) < 2:
            raise InvalidOptions(f"an arena needs at least two levels, got {args.levels!r}")
        if args.games < 1:
            raise InvalidOptions(f"--games must be at least 1, got {args.games}")
        if args.jobs < 1:
            raise InvalidOptions(f"--jobs must be at least 1, got {args.jobs}")
        unknown = [level for level in levels if level not in game.levels]
        if unknown:
            raise InvalidOptions(f"unknown {game.name} levels {unknown}; known: {game.levels}")
    except (KeyError, InvalidOptions) as error:
        message = error.args[0] if isinstance(error, KeyError) else str(error)
        print(f"asobiba arena: {message}", file=sys.stderr)
        return 2
    print(
        f"{game.name} arena: levels {','.join(levels)}, {args.games} games a pairing, "
        f"seed {args.seed}, {args.jobs} job(s), options {resolved}",
        file=out,
        flush=True,
    )

    def report(line: str) -> None:
        print(line, file=out, flush=True)

    table = round_robin(
        game, levels, args.games, args.seed, resolved, report=report, jobs=args.jobs
    )
    print("", file=out)
    print(format_table(table), file=out, flush=True)
    return 0
