"""Per-condition summaries of batch results, pairwise comparisons, and their text forms.

A summary (:class:`ConditionSummary`) of one condition holds: games, wins, the win rate with
its 95 % Wilson interval, the mean score with its 95 % Student-t interval, the mean number of
Pacman moves, the games ended by each cause (``caught`` = outcome ``loss``, ``move_limit``,
``crash``, ``illegal``, ``timeout``; a crash, illegal move or timeout of *any* agent ends the
game and is counted), Pacman's mean think time per move (total think time over total
decisions) and, for search agents, Pacman's mean nodes generated per move (total nodes over
total decisions; ``None`` for agents that report none).

A comparison (:class:`Comparison`) of conditions A and B pairs their games by seed and gives
the difference in win rate and in mean score (A - B) with paired 95 % intervals, plus how many
seeds only A won and only B won.

Renderings: :func:`render_text` (terminal), :func:`to_markdown`, :func:`to_csv` and
:func:`to_json`.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from pacman.batch.jobs import GameJob
from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult
from pacman.engine.outcome import FAILURES, Outcome
from pacman.lineup.plugins import suggest
from pacman.batch.stats import PairedDifference, mean_interval, paired_difference, wilson_interval

#: Causes of a game not won, in table order: outcome -> column name.
CAUSES = {Outcome.LOSS: "caught", Outcome.MOVE_LIMIT: "move_limit", Outcome.CRASH: "crash",
          Outcome.ILLEGAL: "illegal", Outcome.TIMEOUT: "timeout"}


@dataclass
class ConditionSummary:
    """The aggregate of one condition's games (see the module docstring)."""

    condition: str
    pacman: str
    pacman_options: dict[str, str]
    ghosts: list[str]
    ghost_options: dict[str, str]
    layout: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    mean_moves: float
    causes: dict[str, int]
    think_ms_per_move: float
    nodes_per_move: float | None
    scores: list[int] = field(default_factory=list, repr=False)

    def ended_by(self, outcome: Outcome) -> int:
        """How many games ended with ``outcome`` (one of :data:`CAUSES`)."""
        return self.causes[CAUSES[outcome]]

    @property
    def crashes(self) -> int:
        return self.ended_by(Outcome.CRASH)

    @property
    def timeouts(self) -> int:
        return self.ended_by(Outcome.TIMEOUT)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the raw scores, JSON-friendly (``nan`` becomes ``None``)."""
        data = asdict(self)
        del data["scores"]
        return {k: (None if isinstance(v, float) and math.isnan(v) else v)
                for k, v in data.items()}


Pair = tuple[GameJob, GameResult]


def group(games: Iterable[Pair]) -> dict[str, list[Pair]]:
    """Games by condition label, conditions in the order first seen."""
    groups: dict[str, list[Pair]] = {}
    for job, result in games:
        groups.setdefault(job.condition, []).append((job, result))
    return groups


def summarise_condition(games: Sequence[Pair]) -> ConditionSummary:
    """The summary of games that all belong to one condition."""
    if not games:
        raise ValueError("a condition needs at least one game")
    job = games[0][0]
    results = [result for _, result in games]
    n = len(results)
    wins = sum(r.outcome == Outcome.WIN for r in results)
    low, high = wilson_interval(wins, n)
    scores = [r.score for r in results]
    mean_score, score_low, score_high = mean_interval(scores)
    causes = {name: sum(r.outcome == outcome for r in results)
              for outcome, name in CAUSES.items()}
    decisions = sum(r.decisions[0] for r in results)
    think = sum(r.think_time[0] for r in results)
    searched = [r.agent_stats[0] for r in results
                if r.agent_stats and isinstance(r.agent_stats[0], dict)
                and "nodes" in r.agent_stats[0]]
    nodes_per_move = None
    if searched:
        searched_decisions = sum(s.get("decisions", 0) for s in searched)
        nodes_per_move = (sum(s["nodes"] for s in searched) / searched_decisions
                          if searched_decisions else 0.0)
    return ConditionSummary(
        condition=job.condition, pacman=job.pacman, pacman_options=dict(job.pacman_options),
        ghosts=list(job.ghosts), ghost_options=dict(job.ghost_options),
        layout=results[0].layout, games=n, wins=wins, win_rate=wins / n, win_low=low,
        win_high=high, mean_score=mean_score, score_low=score_low, score_high=score_high,
        mean_moves=sum(r.moves for r in results) / n, causes=causes,
        think_ms_per_move=1000.0 * think / decisions if decisions else 0.0,
        nodes_per_move=nodes_per_move, scores=scores)


def summarise(games: Iterable[Pair]) -> list[ConditionSummary]:
    """One summary per condition, in the order conditions first appear."""
    return [summarise_condition(pairs) for pairs in group(games).values()]


@dataclass
class Comparison:
    """Condition ``a`` against ``b`` on the seeds both played (differences are A - B)."""

    a: str
    b: str
    seeds: int
    win_rate: PairedDifference
    score: PairedDifference
    only_a_won: int
    only_b_won: int

    def to_dict(self) -> dict[str, Any]:
        def clean(d: PairedDifference) -> dict[str, Any]:
            return {k: (None if isinstance(v, float) and math.isnan(v) else v)
                    for k, v in asdict(d).items()}

        return {"a": self.a, "b": self.b, "seeds": self.seeds,
                "win_rate": clean(self.win_rate), "score": clean(self.score),
                "only_a_won": self.only_a_won, "only_b_won": self.only_b_won}


def compare(groups: Mapping[str, Sequence[Pair]], a: str, b: str) -> Comparison:
    """Compare conditions ``a`` and ``b`` on their common seeds."""
    for label in (a, b):
        if label not in groups:
            raise ConfigurationError(f"no condition {label!r}{suggest(label, list(groups))}")
    by_seed_a = {result.seed: result for _, result in groups[a]}
    by_seed_b = {result.seed: result for _, result in groups[b]}
    seeds = sorted(set(by_seed_a) & set(by_seed_b))
    if not seeds:
        raise ConfigurationError(f"conditions {a!r} and {b!r} share no seeds to pair")
    wins_a = [int(by_seed_a[s].won) for s in seeds]
    wins_b = [int(by_seed_b[s].won) for s in seeds]
    return Comparison(
        a=a, b=b, seeds=len(seeds), win_rate=paired_difference(wins_a, wins_b),
        score=paired_difference([by_seed_a[s].score for s in seeds],
                                [by_seed_b[s].score for s in seeds]),
        only_a_won=sum(x > y for x, y in zip(wins_a, wins_b)),
        only_b_won=sum(y > x for x, y in zip(wins_a, wins_b)))


def default_pairs(summaries: Sequence[ConditionSummary]) -> list[tuple[str, str]]:
    """Each condition against the first condition with the same ghosts and maze (its
    baseline): the comparisons of Pacman agents on equal terms."""
    baselines: dict[tuple, str] = {}
    pairs = []
    for summary in summaries:
        setting = (tuple(summary.ghosts), tuple(summary.ghost_options.items()), summary.layout)
        if setting in baselines:
            pairs.append((summary.condition, baselines[setting]))
        else:
            baselines[setting] = summary.condition
    return pairs


def resolve_condition(token: str, summaries: Sequence[ConditionSummary]) -> str:
    """A condition label from its label or its 1-based number in the table."""
    labels = [s.condition for s in summaries]
    if token in labels:
        return token
    if token.isdigit() and 1 <= int(token) <= len(labels):
        return labels[int(token) - 1]
    raise ConfigurationError(f"no condition {token!r} (give its number 1-{len(labels)} or its "
                             f"label){suggest(token, labels)}")


# ---- renderings -------------------------------------------------------------------------

COLUMNS = ["#", "condition", "games", "wins", "win rate [95% CI]", "mean score [95% CI]",
           "moves", "caught", "move limit", "crash", "illegal", "timeout", "ms/move",
           "nodes/move"]


def _number(value: float | None, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:,.{digits}f}"


def _cells(number: int, s: ConditionSummary) -> list[str]:
    return [str(number), s.condition, str(s.games), str(s.wins),
            f"{100 * s.win_rate:.1f}% [{100 * s.win_low:.1f}, {100 * s.win_high:.1f}]",
            f"{_number(s.mean_score)} [{_number(s.score_low)}, {_number(s.score_high)}]",
            _number(s.mean_moves), *(str(s.causes[c]) for c in CAUSES.values()),
            _number(s.think_ms_per_move, 3), _number(s.nodes_per_move)]


def _comparison_cells(c: Comparison) -> list[str]:
    w, s = c.win_rate, c.score
    return [c.a, c.b, str(c.seeds),
            f"{100 * w.difference:+.1f} pts [{100 * w.low:+.1f}, {100 * w.high:+.1f}]"
            if not math.isnan(w.low) else f"{100 * w.difference:+.1f} pts",
            f"{s.difference:+,.1f} [{s.low:+,.1f}, {s.high:+,.1f}]"
            if not math.isnan(s.low) else f"{s.difference:+,.1f}",
            f"{c.only_a_won} / {c.only_b_won}"]


COMPARISON_COLUMNS = ["A", "B", "seeds", "win rate A-B [95% CI]", "score A-B [95% CI]",
                      "only A won / only B won"]


def _aligned(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    numeric = [i for i in range(len(header)) if all(
        r[i][:1].isdigit() or r[i][:1] in "+-" for r in rows)] if rows else []
    lines = []
    for row in [header, *rows]:
        cells = [cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
                 for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


#: The widest a terminal table may be (columns); the full table is in summary.md / .csv.
TERMINAL_WIDTH = 100

NARROW_COLUMNS = ["id", "games", "wins", "win % [95% CI]", "score ± 95% CI", "moves", "lost",
                  "limit", "failed", "ms/move", "nodes/mv"]
#: What the short column names of the terminal table mean.
NARROW_NOTE = ("lost: caught by a ghost; limit: the move limit ended it; failed: a crash, illegal "
               "move or timeout")
NARROW_COMPARISON_COLUMNS = ["A - B", "seeds", "win % A-B [95% CI]", "score A-B [95% CI]",
                             "only A / only B won"]


def condition_id(number: int) -> str:
    """The short name of the ``number``-th condition (1-based) in terminal tables: ``C1``."""
    return f"C{number}"


def _narrow_cells(number: int, s: ConditionSummary) -> list[str]:
    failed = sum(s.ended_by(outcome) for outcome in FAILURES)
    half = (s.score_high - s.score_low) / 2
    score = (f"{s.mean_score:.0f} ± {half:.0f}" if not math.isnan(half)
             else f"{s.mean_score:.0f}")
    return [condition_id(number), str(s.games), str(s.wins),
            f"{100 * s.win_rate:.1f} [{100 * s.win_low:.1f}-{100 * s.win_high:.1f}]", score,
            f"{s.mean_moves:.0f}", str(s.ended_by(Outcome.LOSS)), str(s.ended_by(Outcome.MOVE_LIMIT)),
            str(failed), _compact(s.think_ms_per_move), _compact(s.nodes_per_move)]


def _compact(value: float | None) -> str:
    """At most six characters: ``0.38``, ``12.4``, ``812``, ``45.2k``, ``1.23M``."""
    if value is None or math.isnan(value):
        return "-"
    for limit, scale, suffix in ((1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "k")):
        if abs(value) >= limit:
            return f"{value / scale:.{1 if abs(value) >= 10 * limit else 2}f}{suffix}"
    return f"{value:.{0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2}f}"


def _narrow_comparison_cells(c: Comparison, ids: Mapping[str, str]) -> list[str]:
    w, s = c.win_rate, c.score
    return [f"{ids.get(c.a, c.a)} - {ids.get(c.b, c.b)}", str(c.seeds),
            f"{100 * w.difference:+.1f} [{100 * w.low:+.1f}, {100 * w.high:+.1f}]"
            if not math.isnan(w.low) else f"{100 * w.difference:+.1f}",
            f"{s.difference:+.1f} [{s.low:+.1f}, {s.high:+.1f}]"
            if not math.isnan(s.low) else f"{s.difference:+.1f}",
            f"{c.only_a_won} / {c.only_b_won}"]


def render_text(summaries: Sequence[ConditionSummary],
                comparisons: Sequence[Comparison] = (), width: int = TERMINAL_WIDTH) -> str:
    """The terminal table (and the comparisons below it), at most ``width`` columns wide:
    conditions by short id (``C1``, ...) with a legend of their full labels below; ``failed``
    counts crashes, illegal moves and timeouts (each in summary.md and summary.csv)."""
    import textwrap

    ids = {s.condition: condition_id(i) for i, s in enumerate(summaries, start=1)}
    text = _aligned(NARROW_COLUMNS, [_narrow_cells(i, s)
                                     for i, s in enumerate(summaries, start=1)])
    legend = [textwrap.fill(s.condition, width, initial_indent=f"{ids[s.condition]:>4}  ",
                            subsequent_indent=" " * 6, break_on_hyphens=False)
              for s in summaries]
    text += "\n" + NARROW_NOTE + "\n\n" + "\n".join(legend)
    if comparisons:
        text += "\n\npaired comparisons (same seeds; differences A - B):\n"
        text += _aligned(NARROW_COMPARISON_COLUMNS,
                         [_narrow_comparison_cells(c, ids) for c in comparisons])
    return text


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(header), "|" + "|".join("---" for _ in header) + "|",
                      *(line(r) for r in rows)])


def to_markdown(summaries: Sequence[ConditionSummary],
                comparisons: Sequence[Comparison] = ()) -> str:
    text = _markdown_table(COLUMNS, [_cells(i, s) for i, s in enumerate(summaries, start=1)])
    if comparisons:
        text += "\n\nPaired comparisons (same seeds; differences are A - B):\n\n"
        text += _markdown_table(COMPARISON_COLUMNS,
                                [_comparison_cells(c) for c in comparisons])
    return text + "\n"


CSV_FIELDS = ["condition", "pacman", "pacman_options", "ghosts", "ghost_options", "layout",
              "games", "wins", "win_rate", "win_low", "win_high", "mean_score", "score_low",
              "score_high", "mean_moves", *CAUSES.values(), "think_ms_per_move",
              "nodes_per_move"]


def to_csv(summaries: Sequence[ConditionSummary]) -> str:
    """One row per condition; options as ``key=value`` lists, ghosts comma-separated."""
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for s in summaries:
        row = s.to_dict()
        row.update(row.pop("causes"))
        row["pacman_options"] = " ".join(f"{k}={v}" for k, v in s.pacman_options.items())
        row["ghost_options"] = " ".join(f"{k}={v}" for k, v in s.ghost_options.items())
        row["ghosts"] = ",".join(s.ghosts)
        writer.writerow({k: ("" if row[k] is None else row[k]) for k in CSV_FIELDS})
    return out.getvalue()


def to_json(summaries: Sequence[ConditionSummary],
            comparisons: Sequence[Comparison] = ()) -> str:
    return json.dumps({"conditions": [s.to_dict() for s in summaries],
                       "comparisons": [c.to_dict() for c in comparisons]}, indent=2)
