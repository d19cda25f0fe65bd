"""Ranking a cup: mean score and win rate with 95 % intervals over the shared seeds, each
entrant compared with the leader on the games both played, ties said as ties.

The rule, stated once (:data:`TIE_RULE`):

1. Entrants are ordered by mean score, then win rate, then fewer failed games (crash,
   illegal move, timeout), then id. The first is the leader.
2. Each other entrant is compared with the leader on the games both played with the same
   seed on the same maze (and, two-sided, against the same opponent): the mean of the
   per-game score differences with its paired 95 % Student-t interval and the paired t-test
   (:func:`scipy.stats.ttest_rel`). An entrant whose interval holds 0 (or that shares fewer
   than two games with the leader) is **tied with the leader**: rank 1, listed after the
   leader in the order of rule 1. The others follow, in the same order, ranked by their
   place in the list.
3. A game an entrant's side ends by failing (a crash, an illegal move, a timeout) counts as
   that side losing it: Pacman's failure as a capture (the score at the failure minus
   :data:`FAILURE_PENALTY`, what a capture costs), the ghost team's as Pacman's win (plus
   the same). So an agent that never answers ranks below every agent that plays.
4. Entrants that played no game (nothing to play, or a file that does not load) are listed
   last, unranked, with why.

Intervals: mean score, Student-t (:func:`scipy.stats.t`); win rate, Wilson
(:meth:`scipy.stats.binomtest` ``proportion_ci``). Only outcomes and scores count, never think
times, so the same games give the same table.

A two-sided cup rates both sides this way: Pacmen by the score they make (higher is better),
ghost teams by the score Pacmen make against them (lower is better) and the games Pacman does
not win.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable, Sequence

from scipy import stats

from pacman.batch.jobs import GameJob
from pacman.engine.game import GameResult
from pacman.engine.outcome import FAILURES, Outcome
from pacman.tournament.entrants import Entrant
from pacman.tournament.schedule import parse_label

CONFIDENCE = 0.95
#: What a game lost by failing costs the failing side (a capture's cost in the classic rules).
FAILURE_PENALTY = 500
TIE_RULE = ("ordered by mean score, then win rate, then fewer failed games, then id; an "
            "entrant whose paired 95% interval of the score difference with the leader (same "
            "seeds, same mazes) holds 0 is tied with the leader (rank 1); a game lost by "
            f"failing counts {FAILURE_PENALTY} points against the failing side")


@dataclass(frozen=True)
class Game:
    """One game of the cup as the ranking reads it."""

    pacman: str
    ghosts: str | None
    maze: str
    seed: int
    outcome: Outcome
    score: int  # the cup's score: the game's, with FAILURE_PENALTY for a failure
    moves: int
    failure: dict[str, Any] | None = None  # agent, kind, message, traceback; the failing side's
    failed_side: str | None = None  # "pacman" or "ghosts": whose failure it was


@dataclass
class Standing:
    """One entrant's row on one side (``side``: ``"pacman"`` or ``"ghosts"``)."""

    id: str
    side: str = "pacman"
    plays: str = ""
    status: str = ""
    games: list[Game] = field(default_factory=list)
    wins: int = 0
    win_rate: float = 0.0
    win_interval: tuple[float, float] = (0.0, 0.0)
    mean_score: float = 0.0
    score_interval: tuple[float, float] | None = None
    failed: dict[str, int] = field(default_factory=dict)
    rank: int | None = None
    tied: bool = False
    versus_leader: dict[str, Any] | None = None

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def failures(self) -> int:
        """Games this side lost by failing (games that reached the move cap are not)."""
        return sum(count for kind, count in self.failed.items() if kind != Outcome.MOVE_LIMIT)

    def best_and_worst(self) -> tuple[Game | None, Game | None]:
        """The entrant's best and worst game by its side's measure (first by maze, seed on
        equal measures)."""
        if not self.games:
            return None, None
        ordered = sorted(self.games, key=lambda g: (self._measure(g), g.maze, g.seed,
                                                   g.pacman, g.ghosts or ""))
        return ordered[-1], ordered[0]

    def _measure(self, game: Game) -> float:
        return game.score if self.side == "pacman" else -game.score

    def failed_games(self) -> list[Game]:
        """Games this entrant's side ended by failing, in maze and seed order."""
        return sorted((g for g in self.games if g.failed_side == self.side),
                      key=lambda g: (g.maze, g.seed, g.pacman, g.ghosts or ""))


def cup_games(pairs: Iterable[tuple[GameJob, GameResult]], two_sided: bool | None = None
              ) -> list[Game]:
    """The cup's games from ``(job, result)`` pairs (a store's, or a run's); games of
    conditions that are not a cup's are left out. ``two_sided`` says how labels are read
    (:func:`~pacman.tournament.schedule.parse_label`)."""
    found = []
    for job, result in pairs:
        pairing = parse_label(job.condition, two_sided)
        if pairing is None:
            continue
        failure = None
        side = None
        if result.failure is not None:
            failure = {"agent": result.failure.agent, "kind": str(result.failure.kind),
                       "message": result.failure.message,
                       "traceback": result.failure.traceback}
            side = "pacman" if result.failure.agent == 0 else "ghosts"
        score = result.score
        if side is not None:
            score += -FAILURE_PENALTY if side == "pacman" else FAILURE_PENALTY
        found.append(Game(pairing.pacman, pairing.ghosts, pairing.maze, result.seed,
                          Outcome(result.outcome), score, result.moves, failure, side))
    return found


def _mean_interval(values: Sequence[float]) -> tuple[float, float] | None:
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    spread = stats.sem(values)
    if spread == 0 or not math.isfinite(spread):
        return (mean, mean)
    low, high = stats.t.interval(CONFIDENCE, len(values) - 1, loc=mean, scale=spread)
    return (float(low), float(high))


def _wilson(wins: int, games: int) -> tuple[float, float]:
    if games == 0:
        return (0.0, 1.0)
    interval = stats.binomtest(wins, games).proportion_ci(CONFIDENCE, method="wilson")
    return (float(interval.low), float(interval.high))


def paired(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """The paired comparison of ``a`` with ``b`` (same games, same order): mean difference
    ``a - b``, its 95 % interval (``None`` under two games) and the paired t-test's p-value."""
    differences = [x - y for x, y in zip(a, b)]
    count = len(differences)
    mean = sum(differences) / count if count else 0.0
    if count < 2:
        return {"games": count, "difference": mean, "interval": None, "p": None}
    if len(set(differences)) == 1:
        return {"games": count, "difference": mean, "interval": [mean, mean],
                "p": 1.0 if mean == 0 else 0.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        test = stats.ttest_rel(a, b)
        low, high = test.confidence_interval(CONFIDENCE)
    return {"games": count, "difference": mean, "interval": [float(low), float(high)],
            "p": float(test.pvalue)}


def _key(game: Game, side: str) -> tuple:
    """What makes two entrants' games the same game: the opponent (two-sided), maze, seed."""
    opponent = game.ghosts if side == "pacman" else game.pacman
    return (opponent, game.maze, game.seed)


def _summarise(standing: Standing) -> None:
    games = standing.games
    sign = 1 if standing.side == "pacman" else -1
    standing.wins = sum(1 for g in games if (g.outcome == Outcome.WIN) == (sign == 1))
    standing.win_rate = standing.wins / len(games) if games else 0.0
    standing.win_interval = _wilson(standing.wins, len(games))
    scores = [g.score for g in games]
    standing.mean_score = sum(scores) / len(scores) if scores else 0.0
    standing.score_interval = _mean_interval(scores)
    standing.failed = {str(kind): sum(1 for g in games if g.failed_side == standing.side
                                      and g.outcome == kind) for kind in FAILURES}
    standing.failed[str(Outcome.MOVE_LIMIT)] = sum(1 for g in games
                                                   if g.outcome == Outcome.MOVE_LIMIT)


def rank(games: Sequence[Game], entrants: Sequence[Entrant] = (), side: str = "pacman"
         ) -> list[Standing]:
    """The standings of ``side`` (``"pacman"``, or ``"ghosts"`` in a two-sided cup) by the
    rule of the module docstring. Entrants that are not playing are listed last, unranked;
    an entrant that plays but has no game yet is listed before them, unranked."""
    standings: dict[str, Standing] = {}
    for entrant in entrants:
        if side == "ghosts" and entrant.playing and entrant.ghosts is None:
            continue
        plays = entrant.plays if side == "pacman" else (entrant.ghosts or "").rpartition(":")[2]
        standings[entrant.id] = Standing(entrant.id, side, plays, entrant.status)
    for game in games:
        owner = game.pacman if side == "pacman" else game.ghosts
        if owner is None:
            continue
        if owner not in standings:
            standings[owner] = Standing(owner, side)
        standings[owner].games.append(game)
    for standing in standings.values():
        standing.games.sort(key=lambda g: (g.maze, g.seed, g.pacman, g.ghosts or ""))
        _summarise(standing)
    sign = 1 if side == "pacman" else -1
    order = sorted((s for s in standings.values() if s.games and not s.status),
                   key=lambda s: (-sign * s.mean_score, -s.win_rate, s.failures, s.id))
    rest = sorted((s for s in standings.values() if not s.games or s.status),
                  key=lambda s: (bool(s.status), s.id))
    if not order:
        return rest
    leader = order[0]
    leader.rank, leader.tied = 1, False
    by_key = {_key(g, side): g.score for g in leader.games}
    tied, behind = [], []
    for standing in order[1:]:
        shared = [(g.score, by_key[_key(g, side)]) for g in standing.games
                  if _key(g, side) in by_key]
        comparison = paired([a for a, _ in shared], [b for _, b in shared])
        standing.versus_leader = comparison
        interval = comparison["interval"]
        if interval is None or interval[0] <= 0 <= interval[1]:
            standing.tied, standing.rank = True, 1
            tied.append(standing)
        else:
            behind.append(standing)
    ranked = [leader, *tied, *behind]
    for place, standing in enumerate(ranked, start=1):
        if not standing.tied and standing is not leader:
            standing.rank = place
    return ranked + rest
