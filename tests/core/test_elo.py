"""Elo ratings: the maximum-likelihood fit and its 95% ranges, against hand-worked numbers."""

from __future__ import annotations

import doctest
import math

import pytest

from asobiba.core import elo
from asobiba.core.elo import Score, expected_score, ratings


def test_expected_score_is_the_elo_curve() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    assert expected_score(-400) == pytest.approx(1 / 11)


def test_two_players_rating_is_the_logit_of_the_score_with_one_virtual_draw() -> None:
    """30 of 40 plus a virtual draw is 30.5/41, so the gap is 400 * log10(30.5 / 10.5)."""
    low, high = ratings(2, {(0, 1): Score(points=10, games=40)})
    assert low.elo == 0 and low.error == 0
    assert high.elo == pytest.approx(400 * math.log10(30.5 / 10.5), abs=1e-6)
    p = 30.5 / 41
    standard_error = 400 / math.log(10) / math.sqrt(41 * p * (1 - p))
    assert high.error == pytest.approx(1.959964 * standard_error, rel=1e-6)


def test_the_pairing_can_be_given_either_way_round() -> None:
    one = ratings(2, {(0, 1): Score(10, 40)})
    other = ratings(2, {(1, 0): Score(30, 40)})
    assert [r.elo for r in one] == pytest.approx([r.elo for r in other])


def test_even_scores_give_equal_ratings() -> None:
    scores = {(0, 1): Score(20, 40), (1, 2): Score(20, 40), (0, 2): Score(20, 40)}
    assert [r.elo for r in ratings(3, scores)] == pytest.approx([0, 0, 0], abs=1e-6)


def test_a_chain_of_equal_gaps_adds_up() -> None:
    """B beats A and C beats B by the same score, A and C never meet: C-A is twice B-A."""
    _, b, c = ratings(3, {(0, 1): Score(10, 40), (1, 2): Score(10, 40)})
    assert c.elo == pytest.approx(2 * b.elo, rel=1e-6)
    assert c.error > b.error > 0


def test_a_perfect_score_gets_a_finite_rating() -> None:
    _, winner = ratings(2, {(0, 1): Score(0, 40)})
    assert 500 < winner.elo < 1000
    assert math.isfinite(winner.error)


def test_the_fit_matches_every_pairing_total() -> None:
    """At the maximum of the likelihood each player's expected points equal its actual points."""
    scores = {
        (0, 1): Score(12, 40),
        (0, 2): Score(5, 40),
        (1, 2): Score(15, 40),
        (2, 3): Score(18, 40),
    }
    fitted = ratings(4, scores)
    for player in range(4):
        actual = expected = 0.0
        for (i, j), score in scores.items():
            if player in (i, j):
                mine = score.points if player == i else score.games - score.points
                other = j if player == i else i
                actual += mine + 0.5
                diff = fitted[player].elo - fitted[other].elo
                expected += (score.games + 1) * expected_score(diff)
        assert expected == pytest.approx(actual, abs=1e-6)


def test_players_not_linked_to_the_anchor_are_an_error() -> None:
    with pytest.raises(ValueError, match=r"players \[2\]"):
        ratings(3, {(0, 1): Score(10, 20)})


def test_impossible_scores_are_an_error() -> None:
    with pytest.raises(ValueError, match="points"):
        ratings(2, {(0, 1): Score(30, 20)})
    with pytest.raises(ValueError, match="bad pairing"):
        ratings(2, {(0, 0): Score(1, 2)})


def test_the_docstring_example_holds() -> None:
    assert doctest.testmod(elo).failed == 0
