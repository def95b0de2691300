"""Elo ratings from pairwise match scores: maximum likelihood, with a 95% range for each rating.

The model is Bradley-Terry on the Elo scale: a player rated ``d`` points above another is
expected to score ``1 / (1 + 10 ** (-d / 400))`` per game, a draw counting half. Ratings are the
ones that make the observed scores most likely; the first player is the anchor at 0, so every
other rating (and its range) reads as "points stronger than the anchor".

A level that wins every game would otherwise be rated infinitely far away, so each played pairing
also counts one virtual draw (the usual prior of BayesElo and Ordo); with tens of games a pairing
it moves a rating by a few points, and it keeps a perfect score finite.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

_K = math.log(10) / 400
"""d(logit of the expected score) / d(rating difference)."""
Z95 = 1.959964
"""Two-sided 95% quantile of the normal distribution."""


@dataclass(frozen=True, slots=True)
class Rating:
    elo: float
    """Points above the anchor (the first player), who is at 0."""
    error: float
    """Half-width of the 95% range of ``elo``: 1.96 standard errors; 0 for the anchor."""


@dataclass(frozen=True, slots=True)
class Score:
    """One pairing's result from the first player's side."""

    points: float
    """Wins plus half the draws."""
    games: int


def expected_score(difference: float) -> float:
    """The score per game expected by a player rated ``difference`` points above the opponent."""
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


def ratings(players: int, scores: Mapping[tuple[int, int], Score]) -> list[Rating]:
    """Maximum-likelihood ratings of players ``0..players-1`` from ``{(i, j): Score of i vs j}``.

    Player 0 is the anchor. Raises ``ValueError`` when some player is not connected to the anchor
    by played games: their rating would be anything.

    >>> [round(r.elo) for r in ratings(2, {(0, 1): Score(points=10, games=40)})]
    [0, 185]
    """
    won = [[0.0] * players for _ in range(players)]
    games = [[0.0] * players for _ in range(players)]
    for (i, j), score in scores.items():
        if i == j or not 0 <= i < players or not 0 <= j < players:
            raise ValueError(f"bad pairing {(i, j)!r} for {players} players")
        if not 0 <= score.points <= score.games:
            raise ValueError(f"pairing {(i, j)!r}: {score.points} points in {score.games} games")
        if score.games == 0:
            continue
        won[i][j] += score.points + 0.5
        won[j][i] += score.games - score.points + 0.5
        games[i][j] += score.games + 1
        games[j][i] += score.games + 1
    _check_connected(games)
    strength = _fit(won, games)
    elo = [math.log(s / strength[0]) / _K for s in strength]
    errors = _standard_errors(elo, games)
    return [Rating(e, Z95 * se) for e, se in zip(elo, errors, strict=True)]


def _check_connected(games: list[list[float]]) -> None:
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j, n in enumerate(games[i]):
            if n and j not in seen:
                seen.add(j)
                todo.append(j)
    missing = sorted(set(range(len(games))) - seen)
    if missing:
        raise ValueError(f"players {missing} played no games linking them to player 0")


def _fit(won: list[list[float]], games: list[list[float]]) -> list[float]:
    """Zermelo's fixed point (an MM algorithm): it converges from any start, unlike Newton."""
    n = len(won)
    total = [sum(row) for row in won]
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denominator = sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(n) if games[i][j]
            )
            new.append(total[i] / denominator)
        norm = new[0]
        new = [s / norm for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    return strength


def _standard_errors(elo: list[float], games: list[list[float]]) -> list[float]:
    """Square roots of the diagonal of the inverse Fisher information, the anchor held fixed."""
    n = len(elo)
    if n == 1:
        return [0.0]
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = expected_score(elo[i] - elo[j])
                w = games[i][j] * p * (1 - p) * _K * _K
                info[i][i] += w
                info[i][j] -= w
    reduced = [row[1:] for row in info[1:]]
    inverse = _invert(reduced)
    return [0.0] + [math.sqrt(inverse[k][k]) for k in range(n - 1)]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting: a handful of levels needs no numpy."""
    n = len(matrix)
    a = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        div = a[col][col]
        a[col] = [x / div for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]
