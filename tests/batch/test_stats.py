"""Confidence intervals: hand-computed values, published quantiles, closed forms, invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.batch.stats import (mean_interval, normal_quantile, paired_difference, t_cdf, t_quantile,
                          wilson_interval)

FAST = settings(max_examples=60, deadline=None, database=None)


def test_wilson_matches_a_hand_computation():
    # 8 wins in 10 games, z = 1.959964: p = 0.8, z^2/n = 0.3841459,
    # centre = (0.8 + 0.1920729) / 1.3841459 = 0.7167397,
    # half = 1.959964 / 1.3841459 * sqrt(0.016 + 0.0096036) = 0.2265772
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.7167397 - 0.2265772, abs=1e-6)
    assert high == pytest.approx(0.7167397 + 0.2265772, abs=1e-6)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


def test_wilson_at_the_edges_stays_inside_zero_one_and_is_not_a_point():
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and 0.15 < high < 0.17  # z^2 / (n + z^2) = 0.1611
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and 0.83 < low < 0.85
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_wider_at_higher_confidence():
    assert wilson_interval(30, 50, 0.99)[0] < wilson_interval(30, 50, 0.95)[0]
    assert wilson_interval(30, 50, 0.99)[1] > wilson_interval(30, 50, 0.95)[1]


@pytest.mark.parametrize("args", [(3, 2), (-1, 5), (1, -1)])
def test_wilson_rejects_impossible_counts(args):
    with pytest.raises(ValueError):
        wilson_interval(*args)


def test_confidence_must_be_a_probability():
    with pytest.raises(ValueError):
        wilson_interval(1, 2, confidence=1.0)
    with pytest.raises(ValueError):
        mean_interval([1.0, 2.0], confidence=0)


@given(st.integers(0, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.sampled_from([0.8, 0.9, 0.95, 0.99]))
@FAST
def test_wilson_contains_the_rate_and_mirrors_failures(counts, confidence):
    successes, n = counts
    low, high = wilson_interval(successes, n, confidence)
    assert 0.0 <= low <= high <= 1.0
    if n:
        assert low <= successes / n <= high
        mirror_low, mirror_high = wilson_interval(n - successes, n, confidence)
        assert mirror_low == pytest.approx(1 - high, abs=1e-12)
        assert mirror_high == pytest.approx(1 - low, abs=1e-12)


@pytest.mark.parametrize("df, expected", [(1, 12.7062), (2, 4.3027), (5, 2.5706),
                                          (10, 2.2281), (30, 2.0423), (120, 1.9799)])
def test_t_quantiles_match_published_tables(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


def test_t_cdf_matches_closed_forms():
    for t in (-7.5, -1.3, -0.2, 0.0, 0.4, 2.2, 30.0):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-12)


def test_t_approaches_the_normal_for_many_degrees_of_freedom():
    assert t_quantile(0.975, 100_000) == pytest.approx(normal_quantile(0.975), abs=1e-4)


@given(st.floats(0.001, 0.999), st.integers(1, 400))
@FAST
def test_t_quantile_inverts_the_cdf(p, df):
    assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-9)


def test_mean_interval_by_hand():
    # 1..5: mean 3, sd sqrt(2.5), t(0.975, 4) = 2.776445, half = 2.776445 * 1.581139 / 2.236068
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    assert mean == 3.0
    assert high - mean == pytest.approx(2.776445 * math.sqrt(2.5) / math.sqrt(5), abs=1e-5)
    assert mean - low == pytest.approx(high - mean)


def test_mean_interval_small_samples():
    assert mean_interval([4.0, 4.0, 4.0]) == (4.0, 4.0, 4.0)
    mean, low, high = mean_interval([7.0])
    assert mean == 7.0 and math.isnan(low) and math.isnan(high)
    with pytest.raises(ValueError):
        mean_interval([])


@given(st.lists(st.integers(-1000, 1000), min_size=2, max_size=60))
@FAST
def test_mean_interval_contains_the_mean(values):
    mean, low, high = mean_interval(values)
    assert low <= mean + 1e-9 and mean - 1e-9 <= high
    assert mean == pytest.approx(sum(values) / len(values))


def test_paired_difference_by_hand():
    # differences 1, 0, 0, 1, 0, 0: mean 1/3, sd sqrt(4/15), t(0.975, 5) = 2.570582
    result = paired_difference([1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 0, 1])
    assert result.n == 6
    assert (result.mean_a, result.mean_b) == pytest.approx((4 / 6, 2 / 6))
    assert result.difference == pytest.approx(1 / 3)
    half = 2.570582 * math.sqrt(4 / 15) / math.sqrt(6)
    assert (result.low, result.high) == pytest.approx((1 / 3 - half, 1 / 3 + half), abs=1e-5)
    # t = (1/3) / (sqrt(4/15)/sqrt(6)) = 1.5811; two-sided p with 5 df = 0.1747
    assert result.p_value == pytest.approx(0.1747, abs=1e-4)


def test_paired_difference_without_spread():
    same = paired_difference([1, 0, 1], [1, 0, 1])
    assert (same.difference, same.low, same.high, same.p_value) == (0.0, 0.0, 0.0, 1.0)
    shifted = paired_difference([3, 4, 5], [1, 2, 3])
    assert (shifted.difference, shifted.low, shifted.high, shifted.p_value) == (2.0, 2.0, 2.0,
                                                                                0.0)
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1])
    with pytest.raises(ValueError):
        paired_difference([], [])


@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=2,
                max_size=40))
@FAST
def test_paired_difference_is_antisymmetric(pairs):
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    forward, backward = paired_difference(a, b), paired_difference(b, a)
    assert forward.difference == pytest.approx(forward.mean_a - forward.mean_b, abs=1e-9)
    assert backward.difference == pytest.approx(-forward.difference, abs=1e-9)
    assert backward.low == pytest.approx(-forward.high, abs=1e-9)
    assert forward.low <= forward.difference + 1e-9 <= forward.high + 2e-9
    assert backward.p_value == pytest.approx(forward.p_value, abs=1e-9)
