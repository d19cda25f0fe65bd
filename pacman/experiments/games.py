"""Playing the conditions of an experiment through the batch runner, and tabling them.

Games go through :func:`pacman.batch.run_jobs` with one results store in the output folder, so
an interrupted experiment resumes where it stopped. Game ``i`` of every condition plays seed
``seed + i`` (paired conditions). Jobs are listed seed by seed (every condition of seed 0,
then of seed 1, ...), so a game's ``index`` in the store (its position in the batch) does not
change when a later run asks for more games: ``--replay <out>/games.jsonl --game K`` keeps
meaning the same game.

Every table says how many *distinct* games a cell holds (distinct maze and move sequence): an
interval over one game repeated a hundred times says nothing, and the tables mark it.
Intervals are clipped to the range the quantity can take (a win rate to [0, 1], a score to
what the maze allows) and marked when degenerate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import median
from collections.abc import Callable, Sequence

from pacman.batch import GameJob, run_jobs
from pacman.batch.store import read_store
from pacman.batch.tables import ConditionSummary, summarise
from pacman.experiments.base import Report, Settings, markdown_table
from pacman.experiments.invocation import replay_command
from pacman.experiments.power import (UNDECIDED, Decision, decide_interval, games_for_power,
                                      paired_sd)
from pacman.engine.game import GameResult
from pacman.engine.layout import parse_layout
from pacman.engine.outcome import Outcome
from pacman.batch.stats import PairedDifference, paired_difference

STORE = "games.jsonl"
#: Score points: a dot, clearing the board, being caught, eating a scared ghost.
DOT, CLEAR, CAUGHT, GHOST_EATEN = 10, 500, 500, 200


@dataclass
class Played:
    """The games of an experiment: per condition its summary, results and jobs (seed order),
    and each job's record index in the store."""

    summaries: list[ConditionSummary]
    results: dict[str, list[GameResult]]
    jobs: dict[str, list[GameJob]]
    indexes: dict[str, int]
    store: Path

    def summary(self, label: str) -> ConditionSummary:
        return next(s for s in self.summaries if s.condition == label)

    def distinct(self, label: str) -> int:
        return distinct_games(self.results[label])

    def representative(self, label: str) -> tuple[GameResult, int]:
        """The condition's game with the median score (lowest seed among equals) and its
        store index."""
        results = self.results[label]
        middle = median(r.score for r in results)
        position = min(range(len(results)),
                       key=lambda i: (abs(results[i].score - middle), results[i].seed))
        return results[position], self.indexes[self.jobs[label][position].key]

    def watch(self, report: Report, labels: Sequence[str] | None = None) -> None:
        """Add the replay command of every condition's representative game to ``report``."""
        for label in labels or list(self.results):
            result, index = self.representative(label)
            report.watch.append((f"{label} (seed {result.seed}, {result.outcome}, score "
                                 f"{result.score})", replay_command(self.store, index)))


def play(conditions: Sequence[GameJob], settings: Settings,
         layouts: Callable[[GameJob, int], str] | None = None) -> Played:
    """Play ``settings.games`` seeds of every condition (a job whose seed is ignored).

    ``layouts(condition, seed)``, if given, names the maze of each game (varied starts).
    """
    settings.out.mkdir(parents=True, exist_ok=True)
    jobs = []
    for i in range(settings.games):
        seed = settings.seed + i
        for c in conditions:
            maze = layouts(c, seed) if layouts is not None else c.layout
            jobs.append(replace(c, seed=seed, layout=maze))
    store = settings.out / STORE
    results = run_jobs(jobs, workers=settings.workers, store=store, progress=settings.progress)
    pairs = list(zip(jobs, results))
    by_condition: dict[str, list[GameResult]] = {c.condition: [] for c in conditions}
    jobs_of: dict[str, list[GameJob]] = {c.condition: [] for c in conditions}
    for job, result in pairs:
        by_condition[job.condition].append(result)
        jobs_of[job.condition].append(job)
    stored, _ = read_store(store)
    indexes = {game.job.key: game.index for game in stored if game.index is not None}
    order = {c.condition: n for n, c in enumerate(conditions)}
    summaries = sorted(summarise(pairs), key=lambda s: order[s.condition])
    return Played(summaries, by_condition, jobs_of, indexes, store)


def distinct_games(results: Sequence[GameResult]) -> int:
    """How many different games (maze and move sequence) ``results`` holds."""
    return len({game_identity(r) for r in results})


def score_bounds(result: GameResult) -> tuple[float, float]:
    """The lowest and highest score a game like ``result`` can end with (its maze, ghosts and
    move limit): every move costs one point and a capture 500; at best every dot, the clear
    bonus and every ghost once per capsule."""
    layout = parse_layout(result.layout_text, name=result.layout)
    moves = result.max_moves if result.max_moves is not None else 10_000
    high = (DOT * layout.food.bit_count() + CLEAR
            + GHOST_EATEN * result.num_ghosts * layout.capsules.bit_count())
    return (-float(moves) - CAUGHT, float(high))


def clip(low: float, high: float, bounds: tuple[float, float]) -> tuple[float, float]:
    """``(low, high)`` clipped to ``bounds`` (``nan`` stays ``nan``)."""
    if math.isnan(low) or math.isnan(high):
        return low, high
    return max(bounds[0], low), min(bounds[1], high)


def interval_note(distinct: int, games: int, low: float, high: float) -> str:
    """'' for an interval that means something, else why it does not."""
    if games < 2 or math.isnan(low):
        return "degenerate: one game"
    if distinct == 1:
        return "degenerate: one game repeated"
    if low == high:
        return "degenerate: no spread"
    return ""


def percent(value: float) -> str:
    return f"{100 * value:.0f} %"


def outcome_table(played: Played, labels: Sequence[str] | None = None) -> str:
    """Per condition: games and distinct games, wins, win rate with its Wilson 95 % interval,
    mean score with its 95 % interval (clipped to the possible scores), mean moves, losses by
    capture, games cut by the move limit, think time; degenerate intervals are marked. A
    deterministic cell (every seed plays one game) shows that game's outcome and score, with
    no interval."""
    rows = []
    for s in played.summaries:
        if labels is not None and s.condition not in labels:
            continue
        distinct = played.distinct(s.condition)
        low, high = clip(s.score_low, s.score_high,
                         score_bounds(played.results[s.condition][0]))
        note = interval_note(distinct, s.games, low, high)
        if distinct == 1:  # one game, however many seeds played it: no interval
            game = played.results[s.condition][0]
            win_cell = f"{'won' if game.won else 'lost'} (one game)"
            score_cell = f"{game.score:.1f} (one game)"
        else:
            win_cell = f"{percent(s.win_rate)} [{percent(s.win_low)}, {percent(s.win_high)}]"
            score_cell = f"{s.mean_score:.1f} [{low:.1f}, {high:.1f}]" + (
                f" ({note})" if note else "")
        rows.append([s.condition, str(s.games), str(distinct) + (" (deterministic)"
                                                                 if distinct == 1 else ""),
                     str(s.wins), win_cell, score_cell,
                     f"{s.mean_moves:.1f}", str(s.ended_by(Outcome.LOSS)),
                     str(s.ended_by(Outcome.MOVE_LIMIT)), f"{s.think_ms_per_move:.2f}"])
    return markdown_table(["condition", "games", "distinct games", "wins",
                           "win rate [95 % Wilson]", "mean score [95 % t, clipped]",
                           "mean moves", "caught", "move limit", "ms per Pacman move"], rows)


def summary_data(played: Played) -> list[dict]:
    """The deterministic numbers of each summary (no timings), for ``results.json``."""
    keep = ("condition", "games", "wins", "win_rate", "win_low", "win_high", "mean_score",
            "score_low", "score_high", "mean_moves", "causes")
    data = []
    for s in played.summaries:
        row = {k: v for k, v in s.to_dict().items() if k in keep}
        row["distinct_games"] = played.distinct(s.condition)
        data.append(row)
    return data


# ---- paired tests -------------------------------------------------------------------------

#: Fewest distinct pairs of games for a sign test (all differences of one sign: p = 2^(1-n)).
SIGN_TEST_PAIRS = 6


@dataclass(frozen=True)
class Paired:
    """A paired difference A - B over shared seeds, its interval clipped to ``bounds``, and how
    many *distinct* pairs of games it rests on (repeated games are not independent evidence).

    :attr:`above_zero` / :attr:`below_zero` decide a claim: the 95 % interval lies on one side
    of 0, on at least :data:`SIGN_TEST_PAIRS` distinct pairs (with fewer nothing is decided).
    When every pair differs by the same amount (no spread: the t interval collapses to a point)
    the exact sign test decides instead: all of the distinct pairs on one side.
    """

    what: str
    difference: PairedDifference
    low: float
    high: float
    distinct_pairs: int

    @property
    def degenerate(self) -> bool:
        return self.distinct_pairs < 2 or math.isnan(self.low) or self.low == self.high

    def _side(self, sign: int, margin: float = 0.0) -> bool:
        if self.distinct_pairs < SIGN_TEST_PAIRS or math.isnan(self.low):
            return False
        if self.low == self.high:
            return sign * self.difference.difference > margin
        return self.low > margin if sign > 0 else self.high < -margin

    @property
    def above_zero(self) -> bool:
        return self._side(1)

    @property
    def below_zero(self) -> bool:
        return self._side(-1)

    def above(self, margin: float) -> bool:
        """The difference is bounded above ``margin`` (a practically relevant size)."""
        return self._side(1, margin)

    def decision(self, effect: float, threshold: float = 0.0) -> Decision:
        """The verdict (:func:`~pacman.experiments.power.decide_interval`) for "the
        difference exceeds ``threshold``" where the lecture implies ``effect``. One distinct
        pair decides nothing, and more seeds of it would not either: decided, not holding. A
        constant difference (no spread, ties included) is decided by the sign test, exactly.
        No verdict is firm on fewer than :data:`SIGN_TEST_PAIRS` distinct pairs (the sign
        test's least, ties included): it is undecided, needing the seeds that would give that
        many (:meth:`pairs_needed`) or, with a spread, 80 % power at the effect if more."""
        d = self.difference
        if self.distinct_pairs < 2 or math.isnan(self.low):
            undecidable = self.distinct_pairs >= 2  # one seed: more seeds would decide
            return Decision(False, not undecidable, d.difference, d.difference, d.difference,
                            max(2 * d.n, 6) if undecidable else None, threshold, effect,
                            self.what)
        if self.distinct_pairs < SIGN_TEST_PAIRS:
            # Too few distinct pairs for a firm verdict either way: the sign test could not
            # decide, and a t interval from so few rests on its normal model alone.
            needed = self.pairs_needed()
            if self.low != self.high:
                sd = paired_sd(d.low, d.high, d.n)
                needed = max(needed, games_for_power(sd, effect - threshold))
            return Decision(False, False, d.difference, self.low, self.high, needed,
                            threshold, effect, self.what, UNDECIDED)
        if self.low == self.high:
            if self._side(1, threshold) or d.difference <= threshold:
                return decide_interval(d.difference, d.difference, d.difference, d.n, 0.0,
                                       effect, threshold, exact=True, unit=self.what)
            return Decision(False, False, d.difference, self.low, self.high,
                            self.pairs_needed(), threshold, effect, self.what)
        return decide_interval(d.difference, self.low, self.high, d.n,
                               paired_sd(d.low, d.high, d.n), effect, threshold,
                               unit=self.what)

    def pairs_needed(self) -> int:
        """The seeds that would give :data:`SIGN_TEST_PAIRS` distinct pairs at the share of
        distinct pairs seen so far (more than the seeds played)."""
        n = self.difference.n
        share = self.distinct_pairs / n if n else 1.0
        return max(n + 1, math.ceil(SIGN_TEST_PAIRS / max(share, 1e-9)))

    def text(self, scale: float = 1.0, unit: str = "") -> str:
        d = self.difference
        pairs = (f"{d.n} shared seeds" if self.distinct_pairs == d.n else
                 f"{d.n} shared seeds, {self.distinct_pairs} distinct pairs of games")
        shown = f"{self.what} {scale * d.difference:+.1f}{unit}"
        if math.isnan(self.low):
            return f"{shown}, {pairs} (no interval)"
        if self.distinct_pairs < 2:
            return f"{shown}, {pairs} (degenerate: one game repeated, decides nothing)"
        if self.low == self.high:
            if d.difference == 0:
                few = (f"; decides nothing below {SIGN_TEST_PAIRS} distinct pairs"
                       if self.distinct_pairs < SIGN_TEST_PAIRS else "")
                return f"{shown}, {pairs} (degenerate: every pair ties{few})"
            return (f"{shown} in every pair, {pairs} (degenerate t interval; sign test on "
                    f"the distinct pairs, p = {min(1.0, 2.0 ** (1 - self.distinct_pairs)):.3g})")
        p_value = f"p = {d.p_value:.3g}" if d.p_value >= 1e-9 else "p < 1e-9"
        return (f"{shown}, 95 % paired-t interval [{scale * self.low:+.1f}, "
                f"{scale * self.high:+.1f}]{unit}, {p_value}, {pairs}")


def game_identity(result: GameResult) -> tuple:
    return (result.layout_text, tuple(result.actions))


def paired(what: str, a: Sequence[float], b: Sequence[float], bounds: tuple[float, float],
           distinct_pairs: int | None = None) -> Paired:
    """A - B seed by seed; the interval clipped to ``bounds`` (the range a difference can
    take). ``distinct_pairs`` defaults to the number of pairs."""
    d = paired_difference(list(a), list(b))
    low, high = clip(d.low, d.high, bounds)
    return Paired(what, d, low, high, len(a) if distinct_pairs is None else distinct_pairs)


def _distinct_pairs(played: Played, a: str, b: str) -> int:
    return len({(game_identity(x), game_identity(y))
                for x, y in zip(played.results[a], played.results[b])})


def paired_wins(played: Played, a: str, b: str) -> Paired:
    """Win rate of ``a`` minus ``b`` (in [-1, 1]) on shared seeds."""
    wins_a = [float(r.won) for r in played.results[a]]
    wins_b = [float(r.won) for r in played.results[b]]
    return paired("win rate", wins_a, wins_b, (-1.0, 1.0), _distinct_pairs(played, a, b))


def paired_scores(played: Played, a: str, b: str) -> Paired:
    """Mean score of ``a`` minus ``b`` on shared seeds (clipped to what scores allow)."""
    low_a, high_a = score_bounds(played.results[a][0])
    low_b, high_b = score_bounds(played.results[b][0])
    return paired("score", [r.score for r in played.results[a]],
                  [r.score for r in played.results[b]], (low_a - high_b, high_a - low_b),
                  _distinct_pairs(played, a, b))


def add_gif(report: Report, played: Played, label: str, settings: Settings,
            filename: str = "game.gif") -> None:
    """Export the representative game of ``label`` as ``filename`` and show it in the report."""
    from pacman.display.export import export_game  # pygame: only when a GIF is made

    result, index = played.representative(label)
    export_game(result, str(settings.out / filename), frame_time=0.08,
                board_size=settings.board_size)
    report.gif = (filename, f"{label}: seed {result.seed}, {result.outcome}, score "
                            f"{result.score} (store index {index})")


def paired_metric(played: Played, a: str, b: str, metric: Callable[[GameResult], float],
                  what: str, bounds: tuple[float, float]) -> Paired:
    """``metric`` of ``a`` minus ``b`` game by game on shared seeds; ``bounds`` is the range
    the difference can take."""
    return paired(what, [metric(r) for r in played.results[a]],
                  [metric(r) for r in played.results[b]], bounds, _distinct_pairs(played, a, b))


def distinct_wins(results: Sequence[GameResult]) -> tuple[int, int, float, float]:
    """``(distinct games won, distinct games, Wilson low, Wilson high)``: each distinct game
    counted once, so a game repeated on many seeds is one observation, not many."""
    from pacman.batch.stats import wilson_interval

    games = {game_identity(r): r.won for r in results}
    won = sum(games.values())
    low, high = wilson_interval(won, len(games))
    return won, len(games), low, high
