"""Figures a lecturer can project: every quantity with its 95 % interval, one row per label.

Rows are horizontal, so labels sit on the y axis one under another and never overlap however
long they are (long ones are wrapped); the figure grows with the rows. Drawn with matplotlib's
Agg backend (:func:`pacman.batch.plots.pyplot`).

* :func:`claims_figure`: one row per claim: its estimate, its interval, the claim's threshold
  and the effect the lecture implies; colour says the verdict.
* :func:`rates_figure`: rates (Wilson 95 % over seeds) in panels, one panel per measure.
* :func:`means_figure`: means with their intervals against a numeric x (say depth).
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Sequence

from pacman.batch.plots import pyplot, save_figure
from pacman.experiments.power import HOLDS, NOT_BORNE_OUT, NOT_LECTURE_SIZE, SMALLER, UNDECIDED
from pacman.batch.stats import wilson_interval

if TYPE_CHECKING:  # base draws its claims with this module, late (matplotlib)
    from pacman.experiments.claims import Claim

#: Characters per line of a row label.
LABEL_WIDTH = 48
HOLDS_COLOUR, OPEN_COLOUR, FAILS_COLOUR = "#2a7f3f", "#b8860b", "#b03030"
#: Holds but smaller than the lecture's effect; no effect of the lecture's size.
SMALLER_COLOUR, NOT_SIZE_COLOUR = "#7fbf7b", "#5b6f9a"


def wrap(label: str, width: int = LABEL_WIDTH) -> str:
    return "\n".join(textwrap.wrap(label, width)) or label


def _row_height(labels: Sequence[str]) -> float:
    return 0.5 + 0.3 * max(1, max((wrap(x).count("\n") + 1 for x in labels), default=1))


def claim_colour(claim: Claim) -> str:
    return {HOLDS: HOLDS_COLOUR, SMALLER: SMALLER_COLOUR, NOT_LECTURE_SIZE: NOT_SIZE_COLOUR,
            NOT_BORNE_OUT: FAILS_COLOUR, UNDECIDED: OPEN_COLOUR}[claim.kind]


def claims_figure(claims: Sequence[Claim], path: str | Path, unit: str = "") -> Path:
    """One row per claim that carries a decision: estimate (dot), 95 % interval (bar), the
    threshold (black tick) and the lecture's effect (grey tick); green holds (light green: but
    smaller than the lecture's effect), blue no effect of the lecture's size, amber undecided,
    red not borne out. Rows of different units share the axis only if ``unit`` says so."""
    rows = [c for c in claims if c.decision is not None]
    plt = pyplot()
    labels = [f"{c.text} [{c.verdict}]" for c in rows]
    height = sum(_row_height([x]) for x in labels) + 1.2
    figure, axes = plt.subplots(figsize=(10, max(2.5, height)))
    positions = list(range(len(rows)))[::-1]
    for y, claim in zip(positions, rows):
        d = claim.decision
        assert d is not None
        colour = claim_colour(claim)
        low, high = (d.low, d.high) if not math.isnan(d.low) else (d.estimate, d.estimate)
        axes.plot([low, high], [y, y], color=colour, linewidth=3, solid_capstyle="butt")
        axes.plot([d.estimate], [y], "o", color=colour)
        axes.plot([d.threshold], [y], "|", color="black", markersize=14)
        if d.effect is not None:
            axes.plot([d.effect], [y], "|", color="grey", markersize=14)
    axes.set_yticks(positions, [wrap(x) for x in labels], fontsize=8)
    axes.set_ylim(-0.7, len(rows) - 0.3)
    axes.set_xlabel((unit + ": " if unit else "")
                    + "estimate and 95 % interval; black tick: the claim's threshold, grey "
                      "tick: the lecture's effect")
    axes.grid(axis="x", alpha=0.3)
    return save_figure(figure, path)


def rates_figure(labels: Sequence[str], panels: Sequence[tuple[str, Sequence[tuple[int, int]]]],
                 path: str | Path) -> Path:
    """One row per label and one panel per ``(measure, [(count, games), ...])`` (a pair per
    label): the rate with its Wilson 95 % interval over seeds, ``count/games`` beside it."""
    plt = pyplot()
    height = max(2.5, sum(_row_height([x]) for x in labels) + 1.2)
    figure, axes_list = plt.subplots(1, len(panels), figsize=(5 * len(panels) + 3, height),
                                     sharey=True, squeeze=False)
    positions = list(range(len(labels)))[::-1]
    for axes, (measure, rows) in zip(axes_list[0], panels):
        for y, (count, games) in zip(positions, rows):
            low, high = wilson_interval(count, games)
            rate = count / games if games else 0.0
            axes.barh([y], [100 * rate], color="#4c72b0", alpha=0.8)
            axes.plot([100 * low, 100 * high], [y, y], color="black", linewidth=1.5)
            axes.text(101, y, f"{count}/{games}", va="center", fontsize=8)
        axes.set_xlim(0, 115)
        axes.set_xlabel(f"{measure} (%),\n95 % Wilson interval over seeds")
    axes_list[0][0].set_yticks(positions, [wrap(label) for label in labels], fontsize=8)
    return save_figure(figure, path)


def means_figure(series: Sequence[tuple[str, Sequence[float], Sequence[tuple[float, float,
                                                                            float]]]],
                 path: str | Path, xlabel: str, ylabel: str) -> Path:
    """One line per ``(name, xs, [(mean, low, high), ...])`` with 95 % error bars; the lines
    are nudged apart along x so that their bars do not hide each other."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(8, 4.5))
    width = 0.06 * (len(series) - 1)
    for n, (name, xs, points) in enumerate(series):
        shift = -width / 2 + 0.06 * n
        means = [m for m, _, _ in points]
        errors = [[m - lo if not math.isnan(lo) else 0.0 for m, lo, _ in points],
                  [hi - m if not math.isnan(hi) else 0.0 for m, _, hi in points]]
        axes.errorbar([x + shift for x in xs], means, yerr=errors, marker="o", capsize=4,
                      label=name)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_xticks(sorted({x for _, xs, _ in series for x in xs}))
    axes.legend()
    axes.grid(alpha=0.3)
    return save_figure(figure, path)


def intervals_figure(rows: Sequence[tuple[str, float, float, float]], path: str | Path,
                     xlabel: str, lines: Sequence[tuple[float, str]] = ()) -> Path:
    """One row per ``(label, estimate, low, high)``: the estimate with its 95 % interval, and
    vertical reference ``lines`` ``(x, name)`` (say 0 and the lecture's effect)."""
    plt = pyplot()
    labels = [label for label, _, _, _ in rows]
    height = sum(_row_height([x]) for x in labels) + 1.2
    figure, axes = plt.subplots(figsize=(10, max(2.5, height)))
    positions = list(range(len(rows)))[::-1]
    for y, (_, estimate, low, high) in zip(positions, rows):
        if not math.isnan(low):
            axes.plot([low, high], [y, y], color="#4c72b0", linewidth=3,
                      solid_capstyle="butt")
        axes.plot([estimate], [y], "o", color="#4c72b0")
    for (x, name), style in zip(lines, ("-", "--", ":")):
        axes.axvline(x, color="grey", linestyle=style, linewidth=1, label=name)
    axes.set_yticks(positions, [wrap(x) for x in labels], fontsize=8)
    axes.set_ylim(-0.7, len(rows) - 0.3)
    axes.set_xlabel(xlabel)
    if lines:
        axes.legend(fontsize=8, loc="best")
    axes.grid(axis="x", alpha=0.3)
    return save_figure(figure, path)
