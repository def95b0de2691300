"""Ratings of people, per game and rule family, on one scale for every table size.

Two players: Glicko-2 (the ``glicko2`` package) with lichess's settings: a new rating is 1500
with a deviation (RD) of 350, provisional ("?") while its RD is 110 or more, the system constant
τ is 0.75, the volatility starts at 0.09 and stays at most 0.1, and the RD never falls below 45.

Three to six players: OpenSkill's Plackett-Luce model (the ``openskill`` package), each player a
team of one, ranked by the game's result (``ranks``). The model is parameterised on Glicko's
scale instead of OpenSkill's 25 ± 25/3, so its ``mu`` and ``sigma`` *are* a rating and an RD and
are shown as they are: ``mu`` starts at 1500 and ``sigma`` at 350, provisional while ``sigma`` is
110 or more (as an RD). In Plackett-Luce the chance that one seat finishes ahead of another is
the logistic of their gap over ``c = √(Σ (σ² + β²))``, summed over the whole table; so β is set
per table size, ``(400 / ln 10) / √n`` for ``n`` seats (≈ 100.3 at three, 86.9 at four), which
makes two settled players ``d`` points apart finish in that order ``1 / (1 + 10^(−d/400))`` of
the time at any table size: Elo's and Glicko's curve, and the arena's pairwise Elo the anchors
come from (``MODELS``). Each family is played at one table size (``rating_family``), so its
ratings share one β. The additive dynamics τ keeps OpenSkill's own proportion to the start
(its 25/300 is σ₀/100): 3.5. (The library's ``predict_win`` reads two seats' odds through a
normal curve over ``√(2β² + σ₁² + σ₂²)`` instead; the updates use the logistic above.)

Inactivity: each game is one rating period of its own (the ``glicko2`` package applies one
period's growth of the RD inside ``update_player``); the time since a player's last rated game
adds lichess's rating periods, 0.21436 a day (one period every 4.67 days; lichess chose it so a
typical RD goes from 60 to 110 in a year without games), each growing the RD as Glicko-2's step
6 does (RD² + (σ·173.7178)² per period, σ the volatility), never past the start's 350. An
OpenSkill rating has no volatility of its own: its ``sigma`` grows the same way with the
starting volatility.

Bot levels are fixed anchors: a level's rating comes from the arena ladder measured between the
levels (``Ladder``, in each game's data.toml) and never moves (``anchors`` says how).

Pure: no I/O and no clock (time enters as the days since a player's last game).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import glicko2
from openskill.models import PlackettLuce

START_RATING = 1500.0
START_RD = 350.0
"""Also the most an RD (or an OpenSkill sigma) grows to with inactivity."""
START_VOLATILITY = 0.09
"""lichess's ``defaultVolatility``."""
MAX_VOLATILITY = 0.1
"""lichess's ``maxVolatility``: past it a rating might never settle again."""
MIN_RD = 45.0
"""lichess's ``minDeviation``."""
TAU = 0.75
"""Glicko-2's system constant (lichess's). The ``glicko2`` package's own default is 0.5, as a
class attribute: each player is given this one (``_glicko``)."""
PROVISIONAL_RD = 110.0
"""A rating whose RD (or sigma) is at least this is provisional: shown with "?" and kept off the
leaderboards (lichess's ``provisionalDeviation``)."""
PERIODS_PER_DAY = 0.21436
"""lichess's ``ratingPeriodsPerDay``: the RD grows by one rating period every 4.67 days."""
GLICKO2_SCALE = 173.7178
"""Glicko-2's internal unit in rating points (400 / ln 10)."""
ELO_UNIT = 400.0 / math.log(10.0)
"""Elo's logistic unit in rating points (also Glicko-2's internal unit, ``GLICKO2_SCALE``)."""
OPENSKILL_TAU = START_RD / 100.0
"""OpenSkill's additive dynamics, in the library's own proportion to the start's sigma."""
Z95 = 1.959964
"""A 95% range is this many standard errors either side."""
MOST_PLAYERS = 6

MODELS = {
    players: PlackettLuce(
        mu=START_RATING,
        sigma=START_RD,
        beta=ELO_UNIT / math.sqrt(players),
        tau=OPENSKILL_TAU,
    )
    for players in range(3, MOST_PLAYERS + 1)
}
"""The Plackett-Luce model of each table size from three, on the rating scale."""


@dataclass(frozen=True)
class Rating:
    """A person's rating in one game's rule family."""

    rating: float
    """Glicko-2's rating, or OpenSkill's ``mu``: the same scale."""
    rd: float
    """Glicko-2's rating deviation, or OpenSkill's ``sigma``."""
    volatility: float | None
    """Glicko-2's volatility; None for an OpenSkill rating (three to six players)."""
    games: int = 0
    """Rated games played."""

    @property
    def provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD


@dataclass(frozen=True)
class Anchor:
    """A bot level's fixed rating: rated against, never moved."""

    rating: float
    rd: float


Contender = Rating | Anchor


def system(players: int) -> str:
    """Which system rates a game of ``players`` seats: "glicko2" or "openskill"."""
    if players == 2:
        return "glicko2"
    if 3 <= players <= MOST_PLAYERS:
        return "openskill"
    raise ValueError(f"a rated game has 2 to {MOST_PLAYERS} players, not {players}")


def start(players: int) -> Rating:
    """A person's rating before their first game of a family played at ``players`` seats."""
    volatility = START_VOLATILITY if system(players) == "glicko2" else None
    return Rating(START_RATING, START_RD, volatility)


def decayed(rating: Rating, days: float) -> Rating:
    """``rating`` after ``days`` without a rated game: each rating period (``PERIODS_PER_DAY``)
    adds the square of the volatility (in rating points) to the RD's square, Glicko-2's step 6,
    up to ``START_RD``. A rating already past that (none is) is left as it is."""
    periods = max(0.0, days) * PERIODS_PER_DAY
    volatility = START_VOLATILITY if rating.volatility is None else rating.volatility
    grown = math.sqrt(rating.rd**2 + periods * (volatility * GLICKO2_SCALE) ** 2)
    return replace(rating, rd=max(rating.rd, min(grown, START_RD)))


def ranks(outcome: Mapping[str, Any], players: int) -> list[int]:
    """Each seat's place in a finished game, 0 the best, seats level sharing a place (the next
    place skips: 0, 1, 1, 3). A seat among the ``winners`` is ahead of every seat that is not,
    else the higher final score is ahead, as the arena pairs seats (``core.arena``). A game
    every seat wins (a tie at the top for all) leaves everyone level, as the records count it."""
    winners = set(outcome["winners"])
    if len(winners) == players:
        return [0] * players
    scores = outcome["scores"]
    keys = [(seat in winners, scores[seat]) for seat in range(players)]
    return [sum(other > key for other in keys) for key in keys]


def rate(contenders: Sequence[Contender], places: Sequence[int]) -> list[Rating | None]:
    """The new rating of every person (``Rating``) after a game whose seats finished at
    ``places`` (``ranks``); None for each anchor, which never moves. Every person is rated
    from the others' ratings before the game (pass each as ``decayed`` to the game's time)."""
    if len(contenders) != len(places):
        raise ValueError("one place per contender")
    if system(len(contenders)) == "glicko2":
        first, second = contenders
        score = 1.0 if places[0] < places[1] else 0.5 if places[0] == places[1] else 0.0
        return [_glicko(first, second, score), _glicko(second, first, 1.0 - score)]
    return _openskill(contenders, places)


def _glicko(me: Contender, them: Contender, score: float) -> Rating | None:
    """``me`` after scoring ``score`` (1, 0.5 or 0) against ``them``: one rating period of the
    ``glicko2`` package, clamped to lichess's bounds."""
    if isinstance(me, Anchor):
        return None
    volatility = START_VOLATILITY if me.volatility is None else me.volatility
    player = glicko2.Player(rating=me.rating, rd=me.rd, vol=volatility)
    player._tau = TAU
    player.update_player([them.rating], [them.rd], [score])
    return Rating(
        rating=float(player.rating),
        rd=max(MIN_RD, float(player.rd)),
        volatility=min(MAX_VOLATILITY, float(player.vol)),
        games=me.games + 1,
    )


def _openskill(contenders: Sequence[Contender], places: Sequence[int]) -> list[Rating | None]:
    model = MODELS[len(contenders)]
    teams = [[model.rating(mu=c.rating, sigma=c.rd)] for c in contenders]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [
        None
        if isinstance(contender, Anchor)
        else Rating(float(team.mu), float(team.sigma), None, contender.games + 1)
        for contender, [team] in zip(contenders, rated, strict=True)
    ]


@dataclass(frozen=True)
class Ladder:
    """A game's bot levels measured against each other in an arena run (docs/STRENGTH.md): the
    Elo of each level from that run and its 95% range."""

    source: str
    """Which run: the command, its date and commit (docs/STRENGTH.md has its table)."""
    elo: Mapping[str, float]
    """Per level, Elo points from the run (its first level at 0)."""
    error: Mapping[str, float]
    """Per level, the half-width of the 95% range the run printed (0 for its anchor level)."""


def anchors(ladder: Ladder) -> dict[str, Anchor]:
    """The ladder's levels as fixed ratings.

    The arena's Elo and this scale are the same curve (Glicko-2 is Elo's logistic in units of
    400 / ln 10, and OpenSkill is set to it at every table size: ``MODELS``), so the differences
    between levels are kept as measured and only the origin is chosen: the levels' mean sits at
    1500, where every person starts, so a person's first games meet a prior in the middle of the
    ladder whichever level they pick, and someone who scores level with the ladder as a whole
    reads 1500. Each level's RD is its standard error in the run (the 95% half-width / 1.96);
    the run's own anchor level, printed with no range, gets the smallest of the others' (its
    place is no better known than theirs once the origin moves off it)."""
    centre = sum(ladder.elo.values()) / len(ladder.elo)
    errors = {level: ladder.error[level] / Z95 for level in ladder.elo}
    measured = [error for error in errors.values() if error > 0]
    floor = min(measured) if measured else 0.0
    return {
        level: Anchor(START_RATING + elo - centre, errors[level] or floor)
        for level, elo in ladder.elo.items()
    }


_LADDER_KEYS = {"families", "source", "elo", "error"}


def ladders_from(
    entries: list[dict[str, Any]], levels: Sequence[str], game: str
) -> dict[str, Ladder]:
    """A data file's ``[[ladders]]`` entries by rule family: each has ``families`` (the families
    it measures: a family never measured borrows a measured one's ladder, and its entry says
    so), ``source``, and ``elo`` and ``error`` tables with every level of ``levels``."""
    ladders: dict[str, Ladder] = {}
    for entry in entries:
        unknown = set(entry) - _LADDER_KEYS
        if unknown:
            raise ValueError(f"{game} data.toml: a ladder has unknown keys {sorted(unknown)}")
        for table in ("elo", "error"):
            if sorted(entry[table]) != sorted(levels):
                raise ValueError(f"{game} data.toml: a ladder's {table} must name {list(levels)}")
        ladder = Ladder(
            source=entry["source"],
            elo={level: float(entry["elo"][level]) for level in levels},
            error={level: float(entry["error"][level]) for level in levels},
        )
        for family in entry["families"]:
            if family in ladders:
                raise ValueError(f"{game} data.toml: two ladders for the family {family!r}")
            ladders[family] = ladder
    return ladders
