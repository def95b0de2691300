"""Do Glicko-2 and OpenSkill predict game results better than plain Elo? A backtest on games
between the site's own bot levels, each level a player whose rating every system learns from
nothing.

    .venv/bin/python bench/ratings_backtest.py --games 600 --seed 1 --jobs 2

For each suite (a game and a table size), games between levels drawn at random are played by
the arena (``core.arena.play_fixture``: the same bots, deals and simulated time as
``asobiba arena``), in order. Before each game every system predicts, for every two seats, the
chance that the first finishes ahead (a draw counts half, seats placed as ``core.ratings.ranks``
places them); then it learns the game. The figure is the mean log-loss of those predictions
(lower is better; always saying 50% scores ln 2 = 0.693), over all games and over the second
half (once every system has seen enough).

- Elo: ``core.elo.expected_score``, every rating from 1500, K = 16 or 32 per game; at a table of
  more, each two seats are a game, the K shared out over a seat's n - 1 opponents.
- Glicko-2 (two players; ``core.ratings.rate``, the site's own settings, no time between games):
  predicts Glickman's expected score with both deviations.
- OpenSkill (three and more; ``core.ratings.rate``): predicts with Plackett-Luce's own chance
  that one seat finishes ahead of the other, the logistic of their gap over √(Σ (σ² + β²)) over
  the whole table (the likelihood its updates assume); its library's ``predict_win`` for the two
  alone (a normal curve over √(2β² + σ₁² + σ₂²)) is printed beside it.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from asobiba.core import ratings
from asobiba.core.arena import Fixture, Played, play_fixture
from asobiba.core.elo import expected_score
from asobiba.core.ratings import Rating
from asobiba.games import get_game


@dataclass(frozen=True)
class Suite:
    game: str
    players: int
    levels: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()
    share: float = 1.0
    """This suite plays ``share`` × ``--games`` games (the slow games fewer)."""

    @property
    def name(self) -> str:
        rules = "".join(f" {key}={value}" for key, value in self.options)
        return f"{self.game} {self.players}p{rules}"


SUITES = (
    Suite("mancala", 2, ("beginner", "casual", "strong")),
    Suite("mokochaka", 2, ("beginner", "casual", "strong", "expert")),
    Suite("mokochaka", 3, ("beginner", "casual", "strong", "expert")),
    Suite("mokochaka", 4, ("beginner", "casual", "strong", "expert")),
    Suite("momojan", 2, ("beginner", "casual", "strong", "expert"), (("dealerships", 1),), 0.5),
    Suite("michikake", 3, ("beginner", "casual", "strong", "expert"), share=0.1),
    Suite("michikake", 4, ("beginner", "casual", "strong", "expert"), share=0.1),
)
"""Mancala leaves its expert out (a fifth of a second a move: the suite would take an hour);
MICHIKAKE's sessions are long (several deals, the expert sampling 40 of each), so fewer."""


def lineups(suite: Suite, games: int, seed: int) -> list[Fixture]:
    """``games`` games, each between levels drawn at random (distinct levels at a table), in a
    random seating; game k deals the arena's deal of its lineup and k."""
    draw = random.Random(f"{seed}:{suite.name}")
    fixtures = []
    for k in range(games):
        picked = draw.sample(range(len(suite.levels)), suite.players)
        fixtures.append(Fixture(tuple(picked), k))
    return fixtures


def _play(suite: Suite, seed: int, fixture: Fixture) -> Played:
    game = get_game(suite.game)
    options = game.resolve_options(dict(suite.options))
    return play_fixture(game, options, list(suite.levels), seed, fixture)


def played(suite: Suite, games: int, seed: int, jobs: int) -> list[Played]:
    fixtures = lineups(suite, games, seed)
    work = partial(_play, suite, seed)
    if jobs <= 1:
        return [work(fixture) for fixture in fixtures]
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return list(pool.map(work, fixtures, chunksize=4))


def places(game: Played) -> list[int]:
    outcome = {"scores": game.scores, "winners": sorted(game.winners)}
    return ratings.ranks(outcome, len(game.seating))


def pairs(game: Played) -> Iterable[tuple[int, int, float]]:
    """Every two seats: (level of the one, level of the other, the one's score 1 / 0.5 / 0)."""
    at = places(game)
    for a, b in itertools.combinations(range(len(game.seating)), 2):
        score = 1.0 if at[a] < at[b] else 0.5 if at[a] == at[b] else 0.0
        yield game.seating[a], game.seating[b], score


def log_loss(p: float, score: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return -(score * math.log(p) + (1 - score) * math.log(1 - p))


@dataclass
class System:
    """One rating system over a suite's levels: predicts each pair, then learns the game."""

    name: str
    predict: Callable[[int, int, Sequence[int]], float]
    """The chance that level i finishes ahead of level j at a table seating these levels."""
    learn: Callable[[Played], None]
    losses: list[float] = field(default_factory=list)
    """Per game: the mean log-loss of its pairs."""


def elo(levels: int, k: float) -> System:
    table = [1500.0] * levels

    def learn(game: Played) -> None:
        share = k / (len(game.seating) - 1)
        change = [0.0] * levels
        for i, j, score in pairs(game):
            expected = expected_score(table[i] - table[j])
            change[i] += share * (score - expected)
            change[j] -= share * (score - expected)
        for level, delta in enumerate(change):
            table[level] += delta

    def predict(i: int, j: int, _seating: Sequence[int]) -> float:
        return expected_score(table[i] - table[j])

    return System(f"Elo, K = {k:g}", predict, learn)


def learned(levels: int, players: int) -> tuple[list[Rating], Callable[[Played], None]]:
    """The site's own system for ``players`` seats over the levels, and its learning step."""
    table = [ratings.start(players) for _ in range(levels)]

    def learn(game: Played) -> None:
        after = ratings.rate([table[level] for level in game.seating], places(game))
        for level, new in zip(game.seating, after, strict=True):
            assert new is not None
            table[level] = new

    return table, learn


def glicko(levels: int) -> System:
    table, learn = learned(levels, 2)

    def predict(i: int, j: int, _seating: Sequence[int]) -> float:
        a, b = table[i], table[j]
        spread = math.sqrt(a.rd**2 + b.rd**2) / ratings.GLICKO2_SCALE
        g = 1 / math.sqrt(1 + 3 * spread**2 / math.pi**2)
        return 1 / (1 + math.exp(-g * (a.rating - b.rating) / ratings.GLICKO2_SCALE))

    return System("Glicko-2", predict, learn)


def openskill(levels: int, players: int, library: bool) -> System:
    table, learn = learned(levels, players)
    model = ratings.MODELS[players]

    def predict(i: int, j: int, seating: Sequence[int]) -> float:
        a, b = table[i], table[j]
        if library:
            teams = [[model.rating(mu=c.rating, sigma=c.rd)] for c in (a, b)]
            return float(model.predict_win(teams)[0])
        spread = math.sqrt(sum(table[k].rd ** 2 + model.beta**2 for k in seating))
        return 1 / (1 + math.exp(-(a.rating - b.rating) / spread))

    name = "OpenSkill (its predict_win)" if library else "OpenSkill"
    return System(name, predict, learn)


def backtest(suite: Suite, games: Sequence[Played]) -> list[System]:
    levels = len(suite.levels)
    systems = [elo(levels, 16), elo(levels, 32)]
    if suite.players == 2:
        systems.append(glicko(levels))
    else:
        systems += [openskill(levels, suite.players, False), openskill(levels, suite.players, True)]
    for game in games:
        for system in systems:
            losses = [log_loss(system.predict(i, j, game.seating), s) for i, j, s in pairs(game)]
            system.losses.append(sum(losses) / len(losses))
            system.learn(game)
    return systems


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games of a full suite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="suites whose name starts with this")
    args = parser.parse_args()
    print(f"ratings backtest: --games {args.games} --seed {args.seed} --jobs {args.jobs}")
    print("\n| suite | games | system | log-loss, all games | second half |")
    print("|---|---:|---|---:|---:|")
    for suite in SUITES:
        if not suite.name.startswith(args.only):
            continue
        started = time.perf_counter()
        games = played(suite, max(8, round(args.games * suite.share)), args.seed, args.jobs)
        half = len(games) // 2
        for system in backtest(suite, games):
            print(
                f"| {suite.name} | {len(games)} | {system.name} | {mean(system.losses):.4f} "
                f"| {mean(system.losses[half:]):.4f} |",
                flush=True,
            )
        print(f"<!-- {suite.name}: {time.perf_counter() - started:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
