"""Round robins between bot levels of any game, through the game protocol alone.

Every pairing plays its games in pairs from the same start: a few random opening moves, then the
same bots with their seats swapped. The random opening keeps deterministic bots from replaying one
game forty times; playing it from both seats cancels the luck of the opening and of moving first.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

from asobiba.core.bots import Bot, decide
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

    Time is simulated, as the room runs it: every seat that may act is asked once per state
    (``core.bots.decide``), and the earliest answer (its ``after``) acts, unless a timer of the
    game falls due first; a bot that passes is asked again only when the state changes. Ties go
    round the movers by ply, so a turn-based game's simultaneous movers take turns. Returns the
    outcome; ``times[seat]``, when given, gets the seconds each of that bot's decisions took.
    """
    state = game.new_state(options, len(bots), seed)
    at = 0.0
    ply = 0
    while (outcome := game.outcome(state)) is None:
        movers = sorted(game.to_move(state))
        due = game.deadline(state)
        if movers and ply < opening_plies:
            seat = movers[ply % len(movers)]
            state = game.apply(state, seat, opening.choice(game.legal_actions(state, seat)), at)
            ply += 1
            continue
        plans: list[tuple[float, int, int, dict[str, Any]]] = []
        first = ply % len(movers) if movers else 0
        for turn, seat in enumerate(movers[first:] + movers[:first]):
            started = time.perf_counter()
            decision = decide(
                bots[seat], game.observe(state, seat), game.legal_actions(state, seat)
            )
            if times is not None:
                times[seat].append(time.perf_counter() - started)
            if decision.action is not None:
                plans.append((at + decision.after, turn, seat, decision.action))
        if not plans and due is None:
            raise RuntimeError(f"{game.name}: no seat acts and no timer is due")
        if due is not None and (not plans or due <= min(plans)[0]):
            at = max(at, due)
            state = game.advance(state, at)
            continue
        when, _, seat, action = min(plans, key=lambda plan: plan[:2])
        at = max(at, when)
        state = game.apply(state, seat, action, at)
        ply += 1
    return outcome


@dataclass(frozen=True)
class Fixture:
    """Game ``k`` of a lineup (level indices, one per seat before rotation): deal ``k // n`` is
    played ``n`` times, seats rotated by ``k % n``, so every level sits in every seat of it."""

    lineup: tuple[int, ...]
    k: int

    def seating(self) -> list[int]:
        """The level index at each seat in this game."""
        n = len(self.lineup)
        return [self.lineup[(seat + self.k) % n] for seat in range(n)]


@dataclass
class Played:
    """One game: the level at each seat, the winners, the scores, each seat's decision times."""

    fixture: Fixture
    seating: list[int]
    winners: frozenset[int]
    scores: list[float]
    times: list[list[float]]


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
    n = len(fixture.lineup)
    tag = f"{seed}:{':'.join(levels[i] for i in fixture.lineup)}:{fixture.k // n}"
    by_position = [
        game.make_bot(levels[level], _derive(f"{tag}:{chr(ord('a') + position)}"))
        for position, level in enumerate(fixture.lineup)
    ]
    bots = [by_position[(seat + fixture.k) % n] for seat in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    outcome = play(game, options, bots, _derive(tag), random.Random(tag), opening_plies, times)
    return Played(
        fixture, fixture.seating(), frozenset(outcome["winners"]), outcome["scores"], times
    )


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


def lineups(levels: int, players: int) -> list[tuple[int, ...]]:
    """Which levels sit together: every combination when there are seats for at most all of
    them (two players: every pair), else each level starting a window that wraps round the
    levels until the seats are full, so every level sits the same number of times."""
    if players <= levels:
        return list(itertools.combinations(range(levels), players))
    return [tuple((start + seat) % levels for seat in range(players)) for start in range(levels)]


def round_robin(
    game: Game[Any],
    levels: list[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    report: Callable[[str], None] | None = None,
    opening_plies: int = OPENING_PLIES,
    jobs: int = 1,
    players: int | None = None,
) -> Table:
    """Every lineup of ``levels`` at a table of ``players`` seats (the game's fewest by
    default; with two, every pair) plays ``games`` games; ``report`` gets progress.

    Game ``k`` of a lineup deals deal ``k // players`` and rotates the seats by
    ``k % players``, so each deal is played from every seat (with two players: the same
    opening with the seats swapped). Every two seats of a game count as a pairing of their
    levels: the one among the winners beats the one not, else the higher score wins. Seeds
    derive from ``seed``, the lineup and ``k``, so one lineup replays alike whatever else is in
    the round robin, and whatever ``jobs`` is: with ``jobs > 1`` the games run in that many
    worker processes (the game must then be in the registry, since a worker looks it up).
    """
    resolved = game.resolve_options(options or {})
    for level in levels:
        if level not in game.levels:
            raise InvalidOptions(f"unknown {game.name} level {level!r}; known: {game.levels}")
    seats = players or game.min_seats
    if not game.min_seats <= seats <= game.max_seats:
        raise InvalidOptions(
            f"{game.name} takes {game.min_seats} to {game.max_seats} players, not {seats}"
        )
    fixtures = [Fixture(lineup, k) for lineup in lineups(len(levels), seats) for k in range(games)]
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
    """Add the games, in fixture order, to ``table``; report each lineup as it completes."""
    done: dict[tuple[int, ...], int] = {}
    for game in played:
        for a, b in itertools.combinations(range(len(game.seating)), 2):
            i, j = game.seating[a], game.seating[b]
            if i == j:
                continue
            if i > j:
                a, b, i, j = b, a, j, i
            record = table.records.setdefault((i, j), Record())
            a_won, b_won = a in game.winners, b in game.winners
            if a_won != b_won:
                won = a_won
            elif game.scores[a] != game.scores[b]:
                won = game.scores[a] > game.scores[b]
            else:
                record.draws += 1
                continue
            if won:
                record.wins += 1
            else:
                record.losses += 1
        for seat, times in enumerate(game.times):
            for seconds in times:
                table.clocks[game.seating[seat]].add(seconds)
        lineup = game.fixture.lineup
        done[lineup] = done.get(lineup, 0) + 1
        if report and done[lineup] == games:
            report(_lineup_line(table, lineup))


def _lineup_line(table: Table, lineup: tuple[int, ...]) -> str:
    """A finished lineup: two levels as ``a vs b: W-D-L``, more as their names."""
    names = [table.levels[i] for i in lineup]
    if len(lineup) == 2 and lineup[0] != lineup[1]:
        r = table.record(*lineup)
        return f"{names[0]} vs {names[1]}: {r.wins}-{r.draws}-{r.losses}"
    return f"{' / '.join(names)}: done"


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
    """``asobiba arena GAME --levels a,b,c --games N --players P --seed S --option k=v``: print
    the table.

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
        players = args.players or game.min_seats
        if not game.min_seats <= players <= game.max_seats:
            raise InvalidOptions(
                f"{game.name} takes {game.min_seats} to {game.max_seats} players, not {players}"
            )
    except (KeyError, InvalidOptions) as error:
        message = error.args[0] if isinstance(error, KeyError) else str(error)
        print(f"asobiba arena: {message}", file=sys.stderr)
        return 2
    print(
        f"{game.name} arena: levels {','.join(levels)}, {players} players, "
        f"{args.games} games a lineup, seed {args.seed}, {args.jobs} job(s), options {resolved}",
        file=out,
        flush=True,
    )

    def report(line: str) -> None:
        print(line, file=out, flush=True)

    table = round_robin(
        game,
        levels,
        args.games,
        args.seed,
        resolved,
        report=report,
        jobs=args.jobs,
        players=players,
    )
    print("", file=out)
    print(format_table(table), file=out, flush=True)
    return 0
