"""Confidence intervals and tests for batch results.

* :func:`wilson_interval`: the Wilson score interval of a proportion (a win rate). Unlike the
  textbook ``p ± z·sqrt(p(1-p)/n)`` it stays inside [0, 1] and does not collapse to a point at
  0 or n successes.
* :func:`mean_interval`: the mean of a sample with a Student-t interval (``n - 1`` degrees of
  freedom), which is exact for normal data and conservative for small samples.
* :func:`paired_difference`: two conditions measured on the same seeds: the per-seed
  differences ``a[i] - b[i]`` with a Student-t interval and the two-sided paired t-test p-value.
  Pairing removes the seed-to-seed variation both conditions share, so it needs far fewer games
  than comparing two independent intervals. For 0/1 outcomes (wins) this is the difference in
  win rate.

The distributions are SciPy's (:mod:`scipy.stats`): the Wilson interval is
``binomtest(...).proportion_ci(method="wilson")``, the t interval and the paired test are
``ttest_1samp`` and its ``confidence_interval``, and the quantiles are ``norm.ppf`` and
``t.ppf``. What stays here is the handling of the cases those leave undefined (no trials, one
value, a sample with no spread).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType


__all__ = ["wilson_interval", "mean_interval", "paired_difference", "PairedDifference",
           "normal_quantile", "t_cdf", "t_quantile"]


def _scipy_stats() -> ModuleType:
    """:mod:`scipy.stats`, imported when a statistic is first computed: it takes about a second
    to import, and every command of the program (``--version`` too) loads this module."""
    from scipy import stats

    return stats


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")


def normal_quantile(p: float) -> float:
    """The ``p``-quantile of the standard normal distribution."""
    return float(_scipy_stats().norm.ppf(p))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t distribution with ``df`` > 0 degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    return float(_scipy_stats().t.cdf(t, df))


def t_quantile(p: float, df: float) -> float:
    """The ``p``-quantile of Student's t with ``df`` degrees of freedom (0 < p < 1)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie strictly between 0 and 1, got {p}")
    return float(_scipy_stats().t.ppf(p, df))


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` for ``successes`` out of ``n`` trials.

    SciPy's ``binomtest(successes, n).proportion_ci(confidence, method="wilson")``;
    ``n = 0`` gives the uninformative ``(0.0, 1.0)``. Raises ``ValueError`` for counts that do
    not fit (negative, or more successes than trials).
    """
    _check_confidence(confidence)
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    interval = _scipy_stats().binomtest(successes, n).proportion_ci(confidence, method="wilson")
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not move it.
    low = 0.0 if successes == 0 else max(0.0, float(interval.low))
    high = 1.0 if successes == n else min(1.0, float(interval.high))
    return (low, high)


def _mean_and_sd(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, math.nan
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def mean_interval(values: Sequence[float], confidence: float = 0.95
                  ) -> tuple[float, float, float]:
    """``(mean, low, high)``: the sample mean with a Student-t interval (``n - 1`` df).

    One value has no spread to measure: its interval is ``(nan, nan)``. A sample with no spread
    at all gets the point interval ``(mean, mean)``. Raises ``ValueError`` for an empty sample.
    """
    _check_confidence(confidence)
    values = [float(v) for v in values]
    n = len(values)
    if n == 0:
        raise ValueError("the mean of an empty sample is undefined")
    mean, sd = _mean_and_sd(values)
    if n == 1:
        return (mean, math.nan, math.nan)
    if sd == 0.0:
        return (mean, mean, mean)
    interval = _scipy_stats().ttest_1samp(values, 0.0).confidence_interval(confidence)
    return (mean, float(interval.low), float(interval.high))


@dataclass(frozen=True)
class PairedDifference:
    """Condition A minus condition B over ``n`` shared seeds.

    ``difference`` is the mean of the per-seed differences (equal to ``mean_a - mean_b``),
    ``low``/``high`` its Student-t interval at ``confidence``, and ``p_value`` the two-sided
    paired t-test of "no difference". With one pair, interval and p-value are ``nan``.
    """

    n: int
    mean_a: float
    mean_b: float
    difference: float
    low: float
    high: float
    p_value: float
    confidence: float


def paired_difference(a: Sequence[float], b: Sequence[float], confidence: float = 0.95
                      ) -> PairedDifference:
    """Compare two conditions measured on the same seeds: ``a[i]`` and ``b[i]`` share seed i.

    For win rates pass 0/1 win indicators; for scores the scores. Raises ``ValueError`` when
    the samples differ in length or are empty.
    """
    _check_confidence(confidence)
    if len(a) != len(b):
        raise ValueError(f"paired samples must have equal length, got {len(a)} and {len(b)}")
    if not a:
        raise ValueError("no pairs to compare")
    diffs = [float(x) - float(y) for x, y in zip(a, b)]
    n = len(diffs)
    mean_a = math.fsum(float(x) for x in a) / n
    mean_b = math.fsum(float(y) for y in b) / n
    mean, sd = _mean_and_sd(diffs)
    if n < 2:
        low = high = p_value = math.nan
    elif sd == 0.0:
        # Every pair differs by the same amount: no uncertainty left to express.
        low = high = mean
        p_value = 1.0 if mean == 0.0 else 0.0
    else:
        test = _scipy_stats().ttest_1samp(diffs, 0.0)
        interval = test.confidence_interval(confidence)
        low, high = float(interval.low), float(interval.high)
        p_value = float(test.pvalue)
    return PairedDifference(n=n, mean_a=mean_a, mean_b=mean_b, difference=mean, low=low,
                            high=high, p_value=p_value, confidence=confidence)
