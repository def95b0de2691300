"""The rating math (core/ratings.py) against the libraries' own computation, the rule families
each game rates, and the bot levels' anchors."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import glicko2
import pytest
from openskill.models import PlackettLuce

from asobiba.core import ratings
from asobiba.core.game import rating_anchors, rating_families, rating_key
from asobiba.core.ratings import Anchor, Ladder, Rating
from asobiba.games import game_names, get_game


def library_glicko(me: Rating, rating: float, rd: float, score: float) -> glicko2.Player:
    """The ``glicko2`` package's own update, with lichess's τ."""
    player = glicko2.Player(rating=me.rating, rd=me.rd, vol=me.volatility)
    player._tau = 0.75
    player.update_player([rating], [rd], [score])
    return player


def library_model(players: int) -> PlackettLuce:
    """OpenSkill's model as the site sets it for ``players`` seats."""
    beta = 400 / math.log(10) / math.sqrt(players)
    return PlackettLuce(mu=1500, sigma=350, beta=beta, tau=3.5)


def test_the_glicko2_package_computes_glickmans_worked_example() -> None:
    """Glickman's paper (glicko2.pdf): 1500/200/0.06 against 1400/30 (won), 1550/100 and
    1700/300 (lost), τ 0.5 → 1464.06, RD 151.52, volatility 0.05999."""
    player = glicko2.Player(rating=1500, rd=200, vol=0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert round(player.rating, 2) == 1464.05  # the paper rounds its intermediate steps
    assert round(player.rd, 2) == 151.52
    assert round(player.vol, 5) == 0.05999


def test_a_new_two_player_rating_is_lichesss_start() -> None:
    start = ratings.start(2)
    assert (start.rating, start.rd, start.volatility, start.games) == (1500, 350, 0.09, 0)
    assert start.provisional
    assert ratings.start(3).volatility is None  # OpenSkill: mu and sigma only


@pytest.mark.parametrize("score", [1.0, 0.5, 0.0])
def test_two_people_are_rated_by_the_glicko2_package_with_tau_075(score: float) -> None:
    first = Rating(1620.0, 80.0, 0.07, games=30)
    second = Rating(1480.0, 210.0, 0.09, games=4)
    places = {1.0: [0, 1], 0.5: [0, 0], 0.0: [1, 0]}[score]
    new_first, new_second = ratings.rate([first, second], places)
    # Both from the other's rating before the game (simultaneous, as one rating period).
    expect_first = library_glicko(first, 1480.0, 210.0, score)
    expect_second = library_glicko(second, 1620.0, 80.0, 1 - score)
    assert new_first == Rating(expect_first.rating, expect_first.rd, expect_first.vol, 31)
    assert new_second == Rating(expect_second.rating, expect_second.rd, expect_second.vol, 5)


def test_tau_is_lichesss_not_the_packages_default() -> None:
    """The package's ``_tau`` is a class attribute of 0.5: a surprise moves the volatility
    differently under 0.75, and ours is the 0.75 one."""
    settled = Rating(1900.0, 50.0, 0.06, games=200)
    after = against(settled, Anchor(1100.0, 30.0), [1, 0])
    default = glicko2.Player(rating=1900, rd=50, vol=0.06)
    default.update_player([1100], [30], [0])
    assert after.volatility == library_glicko(settled, 1100.0, 30.0, 0.0).vol
    assert after.volatility != default.vol


def test_an_anchor_never_moves_and_rates_the_person_with_its_deviation() -> None:
    person = ratings.start(2)
    anchor = Anchor(1374.0, 39.0)
    new_person, new_anchor = ratings.rate([person, anchor], [0, 1])
    assert new_anchor is None
    expect = library_glicko(person, 1374.0, 39.0, 1.0)
    assert new_person == Rating(expect.rating, expect.rd, expect.vol, 1)
    assert new_person.rating > 1500


def against(person: Rating, anchor: Anchor, places: list[int]) -> Rating:
    """``person`` after one game against ``anchor``."""
    new, _ = ratings.rate([person, anchor], places)
    assert new is not None
    return new


def test_lichesss_bounds_hold_the_rd_and_the_volatility() -> None:
    veteran = Rating(1800.0, 45.0, 0.01, games=5000)  # a calm veteran's RD would fall below 45
    for _ in range(20):
        veteran = against(veteran, Anchor(1800.0, 30.0), [0, 0])
    assert veteran.rd == ratings.MIN_RD
    wild = Rating(1500.0, 300.0, 0.099, games=2)
    for _ in range(6):  # surprising results in turn push the volatility up
        wild = against(wild, Anchor(2600.0, 30.0), [0, 1])
        wild = against(wild, Anchor(400.0, 30.0), [1, 0])
        assert wild.volatility is not None and wild.volatility <= ratings.MAX_VOLATILITY
    assert wild.volatility == ratings.MAX_VOLATILITY  # reached, and held there


def test_inactivity_grows_the_rd_by_lichesss_rating_periods() -> None:
    rating = Rating(1700.0, 60.0, 0.06, games=100)
    assert ratings.decayed(rating, 0) == rating
    assert ratings.decayed(rating, -3) == rating  # a clock that went back costs nothing
    period = 1 / 0.21436  # days: lichess's rating period
    one = ratings.decayed(rating, period)
    assert one.rd == pytest.approx(math.sqrt(60**2 + (0.06 * 173.7178) ** 2))
    # Glicko-2's step 6 is what the package's did_not_compete applies for one period.
    player = glicko2.Player(rating=1700, rd=60, vol=0.06)
    player.did_not_compete()
    assert one.rd == pytest.approx(player.rd)
    year = ratings.decayed(rating, 365)
    assert 110 < year.rd < 130  # a settled player is provisional again after a year away
    assert (year.rating, year.volatility, year.games) == (1700, 0.06, 100)
    assert ratings.decayed(rating, 100 * 365).rd == 350  # never past the start
    # An OpenSkill rating grows with the starting volatility.
    many = Rating(1700.0, 60.0, None, games=100)
    assert ratings.decayed(many, period).rd == pytest.approx(
        math.sqrt(60**2 + (0.09 * 173.7178) ** 2)
    )


def test_provisional_while_the_deviation_is_110_or_more() -> None:
    assert Rating(1500, 110.0, 0.06).provisional
    assert not Rating(1500, 109.9, 0.06).provisional
    assert Rating(1500, 110.0, None).provisional


def test_three_to_six_people_are_rated_by_openskills_plackett_luce() -> None:
    people = [
        Rating(1500.0, 350.0, None),
        Rating(1620.0, 140.0, None, games=12),
        Rating(1400.0, 95.0, None, games=40),
        Rating(1710.0, 220.0, None, games=3),
    ]
    places = [2, 0, 3, 1]
    rated = ratings.rate(people, places)
    model = library_model(4)
    teams = [[model.rating(mu=p.rating, sigma=p.rd)] for p in people]
    expect = model.rate(teams, ranks=[2.0, 0.0, 3.0, 1.0])
    for person, new, [team] in zip(people, rated, expect, strict=True):
        assert new == Rating(team.mu, team.sigma, None, person.games + 1)


def test_openskill_anchors_stay_and_ties_share_a_place() -> None:
    person = ratings.start(3)
    anchors = [Anchor(1231.0, 19.0), Anchor(1596.0, 26.0)]
    rated = ratings.rate([person, *anchors], [0, 1, 2])
    assert rated[1:] == [None, None]
    assert rated[0] is not None and rated[0].rating > 1500
    # Two people level: equal ratings stay equal, and both gain on the anchor they beat.
    a = Rating(1500.0, 200.0, None, 3)
    tied = ratings.rate([a, a, Anchor(1231.0, 19.0)], [0, 0, 2])
    assert tied[0] == tied[1]
    assert tied[0] is not None and tied[0].rating > 1500


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_openskill_is_on_elos_curve_at_every_table_size(players: int) -> None:
    """In Plackett-Luce the chance that one seat finishes ahead of another is the logistic of
    their gap over c = √(Σ (σ² + β²)) over the table: with settled players and our β for that
    many seats, Elo's 1 / (1 + 10^(−d/400))."""
    model = ratings.MODELS[players]
    assert (model.mu, model.sigma, model.tau) == (1500, 350, 3.5)
    c = math.sqrt(players * model.beta**2)
    for gap in (50.0, 200.0, 400.0):
        assert 1 / (1 + math.exp(-gap / c)) == pytest.approx(1 / (1 + 10 ** (-gap / 400)))


def test_the_size_of_a_rated_table() -> None:
    assert ratings.system(2) == "glicko2"
    assert [ratings.system(n) for n in range(3, 7)] == ["openskill"] * 4
    for players in (1, 7):
        with pytest.raises(ValueError):
            ratings.system(players)
    with pytest.raises(ValueError):
        ratings.rate([ratings.start(2), ratings.start(2)], [0])


@pytest.mark.parametrize(
    ("outcome", "places"),
    [
        ({"scores": [30, 18], "winners": [0]}, [0, 1]),
        ({"scores": [24, 24], "winners": [0, 1]}, [0, 0]),
        # Basic: whoever emptied their side wins, whatever the stores say.
        ({"scores": [20, 28], "winners": [0]}, [0, 1]),
        # MICHIKAKE: the winner, then the others by points, level ones sharing a place.
        ({"scores": [900, 1100, 900, 1000], "winners": [0]}, [0, 1, 3, 2]),
        ({"scores": [5, 9, 9, 2], "winners": [1, 2]}, [2, 0, 0, 3]),
        ({"scores": [3, 3, 3], "winners": [0, 1, 2]}, [0, 0, 0]),
    ],
)
def test_places_put_winners_first_then_scores(outcome: dict[str, Any], places: list[int]) -> None:
    assert ratings.ranks(outcome, len(outcome["scores"])) == places


def test_anchors_keep_the_ladders_gaps_round_1500() -> None:
    ladder = Ladder(
        source="test",
        elo={"beginner": 0, "casual": 257, "strong": 510, "expert": 767},
        error={"beginner": 0, "casual": 76, "strong": 90, "expert": 107},
    )
    anchors = ratings.anchors(ladder)
    assert sum(a.rating for a in anchors.values()) / 4 == pytest.approx(1500)
    assert anchors["casual"].rating - anchors["beginner"].rating == pytest.approx(257)
    assert anchors["expert"].rating - anchors["strong"].rating == pytest.approx(257)
    assert anchors["strong"].rd == pytest.approx(90 / 1.959964)
    assert anchors["beginner"].rd == anchors["casual"].rd  # the run's anchor: the smallest


def test_a_ladder_names_every_level_once_per_family() -> None:
    entry = {
        "families": ["3p", "4p"],
        "source": "run",
        "elo": {"a": 0, "b": 100},
        "error": {"a": 0, "b": 40},
    }
    ladders = ratings.ladders_from([entry], ["a", "b"], "g")
    assert ladders["3p"] is ladders["4p"]
    with pytest.raises(ValueError, match="unknown keys"):
        ratings.ladders_from([{**entry, "errors": {}}], ["a", "b"], "g")
    with pytest.raises(ValueError, match="must name"):
        ratings.ladders_from([entry], ["a", "b", "c"], "g")
    with pytest.raises(ValueError, match="two ladders"):
        ratings.ladders_from([entry, entry], ["a", "b"], "g")


@pytest.mark.parametrize(
    ("game", "options", "seats", "key"),
    [
        ("mancala", {}, 2, "mancala/kalah"),
        ("mancala", {"variant": "kalah", "seeds": 3, "capture": "none"}, 2, "mancala/kalah"),
        ("mancala", {"variant": "basic"}, 2, "mancala/basic"),
        ("momojan", {}, 2, "momojan/momojan"),
        ("momojan", {"dealerships": 1}, 2, "momojan/momojan"),
        ("mokochaka", {}, 2, "mokochaka/2p"),
        ("mokochaka", {}, 3, "mokochaka/3p"),
        ("mokochaka", {}, 6, "mokochaka/6p"),
        ("michikake", {}, 3, "michikake/3"),
        ("michikake", {}, 4, "michikake/4"),
    ],
)
def test_each_game_names_its_rule_family(
    game: str, options: dict[str, Any], seats: int, key: str
) -> None:
    assert rating_key(get_game(game), options, seats) == key


def test_every_family_of_every_game_has_anchors_for_every_level() -> None:
    for name in game_names():
        game = get_game(name)
        families = rating_families(game)
        assert families, name
        for family in families:
            anchors = rating_anchors(game, family)
            assert list(anchors) == game.levels, (name, family)
            strengths = [anchors[level].rating for level in game.levels]
            assert strengths == sorted(strengths), (name, family)  # weakest first
            assert all(anchor.rd > 0 for anchor in anchors.values())
    assert rating_families(get_game("mokochaka")) == ["2p", "3p", "4p", "5p", "6p"]
    assert rating_families(get_game("michikake")) == ["3", "4"]


class Plain:
    """A game without the optional rating hooks."""

    name = "plain"
    min_seats = 2
    max_seats = 4
    levels: ClassVar[list[str]] = ["one"]


def test_a_game_without_rating_hooks_is_rated_by_the_number_of_players() -> None:
    plain: Any = Plain()
    assert rating_key(plain, {}, 3) == "plain/3p"
    assert rating_families(plain) == ["2p", "3p", "4p"]
    assert rating_anchors(plain, "3p") == {}
