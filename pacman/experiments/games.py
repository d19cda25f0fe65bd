"""Playing the conditions of an experiment through the batch runner, and tabling them.

Games go through :func:`pacman.batch.run_jobs` with a results store in the output folder, so an
interrupted experiment resumes where it stopped, and game ``i`` of every condition plays seed
``seed + i`` (paired conditions).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from pacman.batch import GameJob, run_jobs
from pacman.batch.tables import Comparison, ConditionSummary, compare, summarise
from pacman.experiments.base import Settings, markdown_table
from pacman.game import GameResult

STORE = "games.jsonl"


def play(conditions: Sequence[GameJob], settings: Settings
         ) -> tuple[list[ConditionSummary], dict[str, list[GameResult]]]:
    """Play ``settings.games`` seeds of every condition (a job whose seed is ignored).

    Returns one summary per condition (in the given order) and each condition's results in
    seed order.
    """
    settings.out.mkdir(parents=True, exist_ok=True)
    jobs = [replace(c, seed=settings.seed + i) for c in conditions for i in range(settings.games)]
    results = run_jobs(jobs, workers=settings.workers, store=settings.out / STORE,
                       progress=settings.progress)
    pairs = list(zip(jobs, results))
    by_condition: dict[str, list[GameResult]] = {}
    for job, result in pairs:
        by_condition.setdefault(job.condition, []).append(result)
    return summarise(pairs), by_condition


def compare_conditions(results: dict[str, list[GameResult]], a: str, b: str) -> Comparison:
    """Condition ``a`` against ``b`` seed by seed (differences are A - B)."""
    return compare({label: [(None, r) for r in results[label]] for label in (a, b)}, a, b)


def percent(value: float) -> str:
    return f"{100 * value:.0f} %"


def outcome_table(summaries: Sequence[ConditionSummary]) -> str:
    """Per condition: games, wins, win rate with its Wilson 95 % interval, mean score with its
    95 % interval, mean moves, losses by capture and games cut by the move limit, think time."""
    rows = []
    for s in summaries:
        rows.append([s.condition, str(s.games), str(s.wins),
                     f"{percent(s.win_rate)} [{percent(s.win_low)}, {percent(s.win_high)}]",
                     f"{s.mean_score:.1f} [{s.score_low:.1f}, {s.score_high:.1f}]",
                     f"{s.mean_moves:.1f}", str(s.causes["caught"]), str(s.causes["move_limit"]),
                     f"{s.think_ms_per_move:.2f}"])
    return markdown_table(["condition", "games", "wins", "win rate [95 % Wilson]",
                           "mean score [95 %]", "mean moves", "caught", "move limit",
                           "ms per Pacman move"], rows)


def summary_data(summaries: Sequence[ConditionSummary]) -> list[dict]:
    """The deterministic numbers of each summary (no timings), for ``results.json``."""
    keep = ("condition", "games", "wins", "win_rate", "win_low", "win_high", "mean_score",
            "score_low", "score_high", "mean_moves", "causes")
    return [{k: v for k, v in s.to_dict().items() if k in keep} for s in summaries]


def by_name(summaries: Sequence[ConditionSummary]) -> dict[str, ConditionSummary]:
    return {s.condition: s for s in summaries}
