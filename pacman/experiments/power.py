"""Deciding a claim with power: five verdicts, and which of them contradict each other.

A claim says that a measured difference exceeds a *threshold* (0, or a stated practical minimum
such as one dot), and the lecture implies a size, its *effect* (above the threshold). The 95 %
interval of the difference decides, against both:

* **holds**: the interval lies above the threshold and reaches the lecture's effect;
* **holds, but smaller than the lecture's effect**: above the threshold, wholly below the effect;
* **no effect of the lecture's size**: the interval straddles the threshold and lies wholly
  below the effect (the lecture's size is excluded; whether there is any effect is open);
* **not borne out**: the interval lies wholly below the threshold (the opposite of the claim);
* **undecided at N games (needs about M)**: it straddles the threshold and reaches the effect,
  too wide to say anything; M games per condition give the test 80 % power at the effect.

Each verdict states where the true difference lies (above the threshold; between it and the
effect; below the effect; below the threshold; anywhere). Two verdicts *contradict* each other
only when those statements exclude each other: a claim that holds (either way) at one seed range
and is not borne out at another. One of the two intervals must then miss the true difference
on one side (2.5 % each): with a normal estimate of the same spread at both ranges the chance
is largest when the true difference equals the threshold, 2 x 2.5 % x 2.5 % = 0.125 % per
claim, and smaller at any other true difference (about 8 % that any of 66 claims does). Every
other change of verdict between seed ranges is a question of power: *holds* against *undecided*
or *no effect of the lecture's size* (the sign is open at one range), or *holds* against *holds,
but smaller* (the size is open at one range). The rule the verdicts replace called an interval
"not borne out" as soon as it excluded the lecture's effect, so a true difference between the
threshold and the effect held at one range and was not borne out at the next.

Counting rule: every seed is an independent draw of every random choice of a game (tie-breaks,
random ghosts, varied starts), so intervals count seeds; the number of *distinct* games is
shown beside them. A cell whose seeds all play one game is deterministic: its outcome is
exact, more seeds add nothing, and a claim about it is decided by that one game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats as _scipy_stats

from pacman.batch.stats import normal_quantile, t_quantile, wilson_interval

#: The power the default sizes aim at, and the two-sided level of every interval.
POWER, CONFIDENCE = 0.8, 0.95
#: No size above this is suggested (a sign that the effect is far below the noise).
MOST_GAMES = 100_000


#: The verdicts (see the module docstring); "undecided" is shown with its sizes.
HOLDS = "holds"
SMALLER = "holds, but smaller than the lecture's effect"
NOT_LECTURE_SIZE = "no effect of the lecture's size"
NOT_BORNE_OUT = "not borne out"
UNDECIDED = "undecided"
#: The verdicts that say the claim is true (the difference lies above its threshold).
HOLDING = (HOLDS, SMALLER)


@dataclass(frozen=True)
class Decision:
    """How a claim's test came out: ``holds`` (the interval lies above the threshold);
    ``decided`` (False: undecided, see ``needed``); the estimate and its interval in the
    claim's unit, for figures; ``verdict`` one of the verdicts above ('' for the plain
    reading of ``holds`` and ``decided``: holds, not borne out or undecided). ``needed``: the
    games per condition for 80 % power at the effect (undecided) or, for "no effect of the
    lecture's size", to tell the measured estimate from the threshold."""

    holds: bool
    decided: bool
    estimate: float
    low: float
    high: float
    needed: int | None = None
    threshold: float = 0.0
    effect: float | None = None
    unit: str = ""
    verdict: str = ""

    @property
    def kind(self) -> str:
        """The verdict, without its sizes."""
        if self.verdict:
            return self.verdict
        return HOLDS if self.holds else NOT_BORNE_OUT if self.decided else UNDECIDED


def contradicts(first: str, second: str) -> bool:
    """Whether two verdicts (kinds) of one claim cannot both be right: one says the difference
    lies above the threshold, the other below it. Every other pair differs in power only."""
    return {first, second} & set(HOLDING) != set() and NOT_BORNE_OUT in (first, second)


def games_for_power(sd: float, effect: float, power: float = POWER) -> int:
    """Games (pairs) a two-sided paired t-test at 95 % needs to find a mean difference
    ``effect`` with probability ``power`` when the differences spread with standard deviation
    ``sd``: the smallest ``n >= 2`` with ``t(0.975, n-1) + t(power, n-1) <= effect * sqrt(n) /
    sd`` (the textbook sample-size formula, on SciPy's t quantiles; searched in steps of 2 %
    above the normal approximation's size). ``sd == 0`` needs 2; ``effect <= 0`` cannot be found
    (:data:`MOST_GAMES`). The exact power of that test (SciPy's noncentral t) is
    :func:`paired_power`."""
    if effect <= 0 or math.isnan(sd):
        return MOST_GAMES
    if sd <= 0:
        return 2
    z = normal_quantile(1 - (1 - CONFIDENCE) / 2) + normal_quantile(power)
    n = max(2, math.ceil((z * sd / effect) ** 2))
    while n < MOST_GAMES:
        t = t_quantile(1 - (1 - CONFIDENCE) / 2, n - 1) + t_quantile(power, n - 1)
        if t * sd / math.sqrt(n) <= effect:
            return n
        n += max(1, n // 50)
    return MOST_GAMES


def paired_power(n: int, sd: float, effect: float) -> float:
    """The probability that a two-sided paired t-test at 95 % over ``n`` pairs whose
    differences spread with standard deviation ``sd`` finds a mean difference ``effect``:
    SciPy's noncentral t with ``n - 1`` degrees of freedom and noncentrality
    ``effect * sqrt(n) / sd``, beyond the test's critical value on either side."""
    if n < 2 or sd <= 0 or math.isnan(sd):
        raise ValueError(f"need n >= 2 pairs and a spread sd > 0, got n={n}, sd={sd}")
    critical = t_quantile(1 - (1 - CONFIDENCE) / 2, n - 1)
    shift = effect * math.sqrt(n) / sd
    noncentral = _scipy_stats.nct(n - 1, shift)
    return float(noncentral.sf(critical) + noncentral.cdf(-critical))


def paired_sd(low: float, high: float, n: int) -> float:
    """The standard deviation of ``n`` paired differences whose 95 % t interval (unclipped)
    is ``[low, high]``."""
    if n < 2 or math.isnan(low):
        return math.nan
    return (high - low) / 2 / t_quantile(1 - (1 - CONFIDENCE) / 2, n - 1) * math.sqrt(n)


def decide_interval(estimate: float, low: float, high: float, n: int, sd: float,
                    effect: float, threshold: float = 0.0, *, exact: bool = False,
                    unit: str = "") -> Decision:
    """A claim that a mean difference exceeds ``threshold``, where the lecture implies a
    difference of ``effect`` (> ``threshold``). ``exact``: the estimate has no sampling error
    (one deterministic game, or a sign test that already decided); ``low``/``high`` equal it.

    Above the threshold: holds (smaller than the lecture's effect if ``high < effect``); below
    it (``high < threshold``): not borne out; straddling it and below the effect: no effect of
    the lecture's size; otherwise undecided, with the games needed for 80 % power at ``effect``.
    """
    if exact:
        low = high = estimate
    if low > threshold:
        verdict = SMALLER if high < effect else HOLDS
        needed = None if exact else games_for_power(sd, effect - threshold)
        return Decision(True, True, estimate, low, high, needed, threshold, effect, unit,
                        verdict)
    if high < threshold or exact:
        return Decision(False, True, estimate, low, high, None, threshold, effect, unit,
                        NOT_BORNE_OUT)
    if high < effect:
        # The sign is open: the games it would take at the measured size, if that is above.
        needed = (games_for_power(sd, estimate - threshold) if estimate > threshold
                  else None)
        return Decision(False, True, estimate, low, high, needed, threshold, effect, unit,
                        NOT_LECTURE_SIZE)
    return Decision(False, False, estimate, low, high,
                    max(n + 1, games_for_power(sd, effect - threshold)), threshold, effect,
                    unit, UNDECIDED)


def decide_rate(successes: int, n: int, threshold: float, *, above: bool,
                planning: float, unit: str = "rate") -> Decision:
    """A claim that a rate lies above (``above``) or below ``threshold``, bounded by the
    Wilson 95 % interval of ``successes`` of ``n`` independent seeds; ``planning`` is the rate
    the lecture implies (for the size that would decide it). Undecided while the interval
    straddles the threshold."""
    low, high = wilson_interval(successes, n)
    rate = successes / n if n else math.nan
    holds = low >= threshold if above else high < threshold
    refuted = high < threshold if above else low >= threshold
    needed = 2
    while needed < MOST_GAMES:
        count = round(planning * needed)
        bound = wilson_interval(count, needed)
        if (bound[0] >= threshold) if above else (bound[1] < threshold):
            break
        needed += max(1, needed // 20)
    if not holds and not refuted:
        needed = max(needed, n + 1)
    return Decision(holds, holds or refuted, rate, low, high, needed, threshold, planning,
                    unit)


def rate_can_pass(n: int, threshold: float, *, above: bool) -> bool:
    """Whether a rate claim over ``n`` seeds can hold at all (all won / all lost)."""
    low, high = wilson_interval(n if above else 0, n)
    return low >= threshold if above else high < threshold
