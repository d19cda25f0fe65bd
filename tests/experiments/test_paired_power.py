"""The exact power of the paired t-test (SciPy's noncentral t) and the sizes the verdicts name."""

from __future__ import annotations

import math

import pytest

from pacman.experiments.power import CONFIDENCE, games_for_power, paired_power


def test_with_no_effect_the_test_rejects_at_its_level():
    assert paired_power(30, 1.0, 0.0) == pytest.approx(1 - CONFIDENCE, abs=1e-9)


def test_power_grows_with_the_games_and_the_effect():
    assert paired_power(10, 1.0, 0.5) < paired_power(40, 1.0, 0.5) < paired_power(40, 1.0, 1.0)


@pytest.mark.parametrize("sd, effect", [(0.5, 0.1), (1.0, 0.5), (2.0, 1.0), (5.0, 3.0), (20.0, 1.0)])
def test_the_sizes_the_verdicts_name_have_about_the_power_they_promise(sd, effect):
    """``games_for_power`` (the textbook formula) gives a size whose exact power is about 80 %."""
    n = games_for_power(sd, effect)
    assert 0.79 <= paired_power(n, sd, effect) <= 0.99
    assert paired_power(max(2, math.floor(n * 0.7)), sd, effect) < 0.8


def test_power_needs_two_pairs_and_a_spread():
    with pytest.raises(ValueError):
        paired_power(1, 1.0, 1.0)
    with pytest.raises(ValueError):
        paired_power(10, 0.0, 1.0)
