"""The statistics behind match and tournament tables, against values worked out by hand
or from published tables."""

from __future__ import annotations

import math

import pytest

from midgardc.matches.stats import ELO_SCALE, elo_ratings, mean_sd, pairwise_scores, wilson


def test_wilson_interval_matches_known_values() -> None:
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(1, 20) == pytest.approx((0.0089, 0.2361), abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0


def test_wilson_is_symmetric_contains_the_rate_and_narrows_with_games() -> None:
    for k, n in [(3, 7), (0, 5), (12, 40), (99, 100)]:
        low, high = wilson(k, n)
        other_low, other_high = wilson(n - k, n)
        assert low == pytest.approx(1 - other_high) and high == pytest.approx(1 - other_low)
        assert low <= k / n <= high
    widths = [wilson(n // 2, n)[1] - wilson(n // 2, n)[0] for n in (10, 40, 160)]
    assert widths[0] > widths[1] > widths[2]
    assert widths[1] == pytest.approx(widths[2] * 2, rel=0.05)  # about 1/sqrt(n)


def test_wilson_without_games_says_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_and_sample_standard_deviation_from_sums() -> None:
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    mean, sd = mean_sd(len(values), sum(values), sum(v * v for v in values))
    assert mean == 5.0
    assert sd == pytest.approx(math.sqrt(32 / 7))
    assert mean_sd(1, 7, 49) == (7.0, 0.0)
    assert mean_sd(0, 0, 0) == (0.0, 0.0)


def test_pairwise_scores_break_a_game_into_two_player_results_by_rank() -> None:
    assert pairwise_scores([(5,), (3,)]) == [(0, 1, 1.0)]
    assert pairwise_scores([(3, 1), (3, 2)]) == [(0, 1, 0.0)]  # the second key breaks the tie
    assert pairwise_scores([(4,), (4,)]) == [(0, 1, 0.5)]
    assert pairwise_scores([(1,), (9,), (1,)]) == [(0, 1, 0.0), (0, 2, 0.5), (1, 2, 1.0)]


def _two(score_a: float, games: int) -> list[tuple[float, float]]:
    return elo_ratings([[0, score_a], [games - score_a, 0]], [[0, games], [games, 0]])


def test_elo_of_equal_players_is_zero_and_symmetric() -> None:
    (ra, ea), (rb, eb) = _two(50, 100)
    assert ra == pytest.approx(0, abs=1e-9) and rb == pytest.approx(0, abs=1e-9)
    assert ea == pytest.approx(eb) and ea > 0
    # Swapping the players swaps the ratings.
    (a, _), (b, _) = _two(70, 100)
    (b2, _), (a2, _) = _two(30, 100)
    assert a == pytest.approx(a2) and b == pytest.approx(b2) and a == pytest.approx(-b)


def test_elo_is_monotone_in_the_score_and_finite_at_the_extremes() -> None:
    ratings = [_two(k, 20)[0][0] for k in range(21)]
    assert all(x < y for x, y in zip(ratings, ratings[1:]))
    assert math.isfinite(ratings[-1]) and ratings[-1] > 0 and ratings[0] == pytest.approx(-ratings[-1])
    assert all(math.isfinite(e) for _, e in _two(20, 20))


def test_elo_difference_matches_the_logistic_formula_with_many_games() -> None:
    """At 75% the Elo difference is 400 log10(3) = 190.8; 2 virtual draws hardly move it
    after 10000 games, and the interval shrinks like 1/sqrt(games)."""
    (a, ea), (b, _) = _two(7500, 10000)
    assert a - b == pytest.approx(400 * math.log10(3), abs=1.0)
    # Half-width of each centred rating: 1.96 * sqrt(var(diff)) / 2, var(diff) = 1 / (n p (1-p)).
    expected = 1.959964 * ELO_SCALE / math.sqrt(10000 * 0.75 * 0.25) / 2
    assert ea == pytest.approx(expected, rel=0.01)
    (_, e_quarter), _ = _two(7500 / 4, 2500)
    assert e_quarter == pytest.approx(2 * ea, rel=0.02)


def test_elo_of_three_players_orders_them_and_averages_zero() -> None:
    points = [[0, 70, 90], [30, 0, 60], [10, 40, 0]]
    games = [[0, 100, 100], [100, 0, 100], [100, 100, 0]]
    ratings = elo_ratings(points, games)
    values = [r for r, _ in ratings]
    assert values[0] > values[1] > values[2]
    assert sum(values) == pytest.approx(0, abs=1e-9)
    # A player with no games at all sits at the mean, with a wide interval.
    ratings = elo_ratings([[0, 6, 0], [4, 0, 0], [0, 0, 0]], [[0, 10, 0], [10, 0, 0], [0, 0, 0]])
    assert ratings[2][1] > ratings[0][1]
