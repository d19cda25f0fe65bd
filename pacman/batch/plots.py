"""PNG plots of batch summaries, drawn with matplotlib's Agg backend (no screen needed).

* :func:`plot_win_rates`: win rate per condition with its 95 % Wilson interval.
* :func:`plot_scores`: the score distribution of every condition (box plots, games as dots).
* :func:`plot_against_option`: win rate, mean score, think time and nodes per move against a
  numeric Pacman option (say ``depth``), one line per otherwise-equal setting.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from collections.abc import Sequence

from pacman.batch.tables import ConditionSummary
from pacman.errors import ConfigurationError


def pyplot():
    """matplotlib's pyplot on the file-only Agg backend (no screen needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(figure, path: str | Path) -> Path:
    """Lay out, write (creating the folder) and close ``figure``; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot().close(figure)
    return path


def _height(count: int) -> float:
    return 1.2 + 0.45 * count


def plot_win_rates(summaries: Sequence[ConditionSummary], path: str | Path) -> Path:
    """Horizontal bars of the win rates with Wilson 95 % error bars; returns the path."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(9, _height(len(summaries))))
    rows = list(range(len(summaries)))[::-1]
    rates = [100 * s.win_rate for s in summaries]
    errors = [[100 * (s.win_rate - s.win_low) for s in summaries],
              [100 * (s.win_high - s.win_rate) for s in summaries]]
    axes.barh(rows, rates, xerr=errors, color="#4c72b0", capsize=4)
    axes.set_yticks(rows, [s.condition for s in summaries])
    axes.set_xlim(0, 100)
    axes.set_xlabel("win rate (%), 95% Wilson interval")
    for row, s in zip(rows, summaries):
        axes.text(1, row, f"{s.wins}/{s.games}", va="center", color="white", fontsize=8)
    return save_figure(figure, path)


def plot_scores(summaries: Sequence[ConditionSummary], path: str | Path) -> Path:
    """Box plots of the scores per condition, every game drawn as a dot; returns the path."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(9, _height(len(summaries))))
    rows = list(range(1, len(summaries) + 1))[::-1]
    axes.boxplot([s.scores for s in summaries], positions=rows, orientation="horizontal", widths=0.6,
                 showfliers=False)
    jitter = random.Random(0)  # fixed, so the same store draws the same picture
    for row, s in zip(rows, summaries):
        axes.scatter(s.scores, [row + jitter.uniform(-0.2, 0.2) for _ in s.scores], s=6,
                     alpha=0.35, color="#dd8452")
        axes.plot([s.mean_score], [row], marker="D", color="black", markersize=4)
    axes.set_yticks(rows, [s.condition for s in summaries])
    axes.set_xlabel("score (box: quartiles; diamond: mean)")
    return save_figure(figure, path)


def _numeric(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def plot_against_option(summaries: Sequence[ConditionSummary], option: str,
                        path: str | Path) -> Path:
    """Metrics against the numeric Pacman option ``option``; returns the path.

    Conditions whose Pacman has a numeric value for ``option`` are grouped by everything else
    (agent, other options, ghosts, maze); each group is one line. Raises
    :class:`~pacman.errors.ConfigurationError` if no condition sets the option numerically.
    """
    lines: dict[str, list[tuple[float, ConditionSummary]]] = {}
    for s in summaries:
        value = _numeric(s.pacman_options.get(option, ""))
        if value is None:
            continue
        others = " ".join(f"{k}={v}" for k, v in s.pacman_options.items() if k != option)
        name = f"{s.pacman} {others}".strip() + f" vs {','.join(s.ghosts)} @ {s.layout}"
        lines.setdefault(name, []).append((value, s))
    if not lines:
        raise ConfigurationError(f"no condition gives the Pacman option {option!r} a number to "
                                 "plot against")
    panels = [("win rate (%)", lambda s: 100 * s.win_rate,
               lambda s: (100 * (s.win_rate - s.win_low), 100 * (s.win_high - s.win_rate))),
              ("mean score", lambda s: s.mean_score,
               lambda s: (s.mean_score - s.score_low, s.score_high - s.mean_score)),
              ("think time per move (ms)", lambda s: s.think_ms_per_move, None),
              ("nodes per move", lambda s: s.nodes_per_move, None)]
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator

    figure, grid = plt.subplots(2, 2, figsize=(11, 7.5))
    for axes, (title, metric, error) in zip(grid.flat, panels):
        for name, points in lines.items():
            points.sort(key=lambda p: p[0])
            xs = [x for x, s in points if metric(s) is not None]
            ys = [metric(s) for _, s in points if metric(s) is not None]
            if not xs:
                continue
            yerr = None
            if error is not None:
                spans = [error(s) for _, s in points]
                if not any(math.isnan(v) for span in spans for v in span):
                    yerr = [[lo for lo, _ in spans], [hi for _, hi in spans]]
            axes.errorbar(xs, ys, yerr=yerr, marker="o", capsize=3, label=name)
        axes.set_xlabel(option)
        axes.set_title(title)
        if all(x == int(x) for points in lines.values() for x, _ in points):
            axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        if title.startswith("win rate"):
            axes.set_ylim(-2, 102)
        if title == "nodes per move" and axes.lines and all(
                y > 0 for line in axes.lines for y in line.get_ydata()):
            axes.set_yscale("log")
    grid.flat[0].legend(fontsize=7)
    return save_figure(figure, path)
