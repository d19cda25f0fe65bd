"""Confidence intervals for batch results, in pure Python (no SciPy).

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

Quantiles: the normal one comes from :class:`statistics.NormalDist`; Student's t is computed
here from the regularised incomplete beta function (a continued fraction) and inverted by
bisection, accurate to about 1e-10.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from collections.abc import Sequence

__all__ = ["wilson_interval", "mean_interval", "paired_difference", "PairedDifference",
           "normal_quantile", "t_cdf", "t_quantile"]


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")


def normal_quantile(p: float) -> float:
    """The ``p``-quantile of the standard normal distribution."""
    return NormalDist().inv_cdf(p)


def _incomplete_beta_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of I_x(a, b) (modified Lentz); converges fast for x < (a+1)/(a+b+2)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    value = d
    for m in range(1, 10_000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            value *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return value


def _regularised_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularised incomplete beta function, for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (a * math.log(x) + b * math.log1p(-x)
                 + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _incomplete_beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _incomplete_beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t distribution with ``df`` > 0 degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _regularised_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The ``p``-quantile of Student's t with ``df`` degrees of freedom (0 < p < 1)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie strictly between 0 and 1, got {p}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, max(1.0, 2.0 * normal_quantile(p))
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return 0.5 * (low + high)


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` for ``successes`` out of ``n`` trials.

    With ``z`` the normal quantile of ``(1 + confidence) / 2`` and ``p = successes / n``::

        centre = (p + z²/2n) / (1 + z²/n)
        half   = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)

    ``n = 0`` gives the uninformative ``(0.0, 1.0)``. Raises ``ValueError`` for counts that do
    not fit (negative, or more successes than trials).
    """
    _check_confidence(confidence)
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    z = normal_quantile((1.0 + confidence) / 2.0)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z / (1.0 + z2n) * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n))
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not move it.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
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
    half = t_quantile((1.0 + confidence) / 2.0, n - 1) * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


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
        error = sd / math.sqrt(n)
        half = t_quantile((1.0 + confidence) / 2.0, n - 1) * error
        low, high = mean - half, mean + half
        p_value = min(1.0, 2.0 * (1.0 - t_cdf(abs(mean) / error, n - 1)))
    return PairedDifference(n=n, mean_a=mean_a, mean_b=mean_b, difference=mean, low=low,
                            high=high, p_value=p_value, confidence=confidence)
