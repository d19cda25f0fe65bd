"""From games to a report: summaries, comparisons, and the files ``--out DIR`` writes.

Files written to the output folder: ``summary.md``, ``summary.csv``, ``summary.json`` (the
tables, comparisons included in Markdown and JSON), ``win_rates.png``, ``scores.png`` and one
``against_<option>.png`` per option plotted.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Iterable, Sequence

from pacman.batch.tables import (Comparison, ConditionSummary, Pair, compare, default_pairs,
                                 group, resolve_condition, summarise_condition, to_csv, to_json,
                                 to_markdown)
from pacman.errors import ConfigurationError


def build(games: Iterable[Pair], pairs: Sequence[Sequence[str]] | None = None
          ) -> tuple[list[ConditionSummary], list[Comparison]]:
    """Summaries of every condition and the comparisons of ``pairs`` (labels or table
    numbers; default: :func:`~pacman.batch.tables.default_pairs`)."""
    groups = group(games)
    summaries = [summarise_condition(g) for g in groups.values()]
    if pairs is None:
        chosen = default_pairs(summaries)
    else:
        chosen = [(resolve_condition(a, summaries), resolve_condition(b, summaries))
                  for a, b in pairs]
    return summaries, [compare(groups, a, b) for a, b in chosen]


def varied_numeric_options(summaries: Sequence[ConditionSummary]) -> list[str]:
    """Pacman options that take two or more numeric values across the conditions."""
    values: dict[str, set[float]] = {}
    for s in summaries:
        for key, text in s.pacman_options.items():
            try:
                values.setdefault(key, set()).add(float(text))
            except ValueError:
                values[key] = set()  # one non-number rules the option out
                values[key].add(float("nan"))
    return [k for k, v in values.items() if len(v) > 1 and all(x == x for x in v)]


def write(summaries: Sequence[ConditionSummary], comparisons: Sequence[Comparison],
          folder: str | Path, plot_options: Sequence[str] | None = None,
          plots: bool = True) -> list[Path]:
    """Write the tables (and plots) into ``folder``; returns the files written.

    ``plot_options`` defaults to :func:`varied_numeric_options`.
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigurationError(f"--out {folder}: cannot create it ({error.strerror})") from None
    written = []
    for name, text in (("summary.md", to_markdown(summaries, comparisons)),
                       ("summary.csv", to_csv(summaries)),
                       ("summary.json", to_json(summaries, comparisons) + "\n")):
        path = folder / name
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            raise ConfigurationError(f"{path}: cannot write ({error.strerror})") from None
        written.append(path)
    if plots and summaries:
        from pacman.batch import plots as drawing

        written.append(drawing.plot_win_rates(summaries, folder / "win_rates.png"))
        written.append(drawing.plot_scores(summaries, folder / "scores.png"))
        options = (varied_numeric_options(summaries) if plot_options is None
                   else list(plot_options))
        for option in options:
            written.append(drawing.plot_against_option(summaries, option,
                                                       folder / f"against_{option}.png"))
    return written
