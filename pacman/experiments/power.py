"""Deciding a claim with power: "holds", "not borne out", or "undecided at N games".

A claim compares a measured quantity with the effect the lecture implies. An interval that
lies above the claim's threshold says it holds; one whose upper end lies below the lecture's
effect says the effect, if there is one, is smaller than the lecture implies: not borne out.
Anything between is too wide to decide either way, and the report says so with the number of
games per condition that would give the test 80 % power at the lecture's effect (from the
spread this run measured), never "not borne out".

Counting rule: every seed is an independent draw of every random choice of a game (tie-breaks,
random ghosts, varied starts), so intervals count seeds; the number of *distinct* games is
shown beside them. A cell whose seeds all play one game is deterministic: its outcome is
exact, more seeds add nothing, and a claim about it is decided by that one game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pacman.stats import normal_quantile, t_quantile, wilson_interval

#: The power the default sizes aim at, and the two-sided level of every interval.
POWER, CONFIDENCE = 0.8, 0.95
#: No size above this is suggested (a sign that the effect is far below the noise).
MOST_GAMES = 100_000


@dataclass(frozen=True)
class Decision:
    """How a claim's test came out: ``holds``; ``decided`` (False: the interval is too wide,
    see ``needed``); the estimate and its interval in the claim's unit, for figures."""

    holds: bool
    decided: bool
    estimate: float
    low: float
    high: float
    needed: int | None = None
    threshold: float = 0.0
    effect: float | None = None
    unit: str = ""


def games_for_power(sd: float, effect: float, power: float = POWER) -> int:
    """Games (pairs) a two-sided paired t-test at 95 % needs to find a mean difference
    ``effect`` with probability ``power`` when the differences spread with standard deviation
    ``sd``: the smallest ``n >= 2`` with ``t(0.975, n-1) + t(power, n-1) <= effect * sqrt(n) /
    sd``. ``sd == 0`` needs 2; ``effect <= 0`` cannot be found (:data:`MOST_GAMES`)."""
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

    Holds if ``low > threshold``; not borne out if ``high < effect`` (or exact and not above
    the threshold); otherwise undecided, with the games needed for 80 % power at ``effect``.
    """
    if exact:
        return Decision(estimate > threshold, True, estimate, estimate, estimate, None,
                        threshold, effect, unit)
    needed = games_for_power(sd, effect - threshold)
    if low > threshold:
        return Decision(True, True, estimate, low, high, needed, threshold, effect, unit)
    if high < effect:
        return Decision(False, True, estimate, low, high, needed, threshold, effect, unit)
    return Decision(False, False, estimate, low, high, max(n + 1, needed), threshold, effect,
                    unit)


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
