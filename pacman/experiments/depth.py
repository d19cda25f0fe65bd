"""Depth matters (the Pacman slides): evaluation quality against search depth.

"The deeper in the tree the evaluation function is buried, the less the quality of the
evaluation function matters." Alpha-beta Pacman with three evaluations of rising quality
(``score``, ``closest_dot``, ``better``) searches 1 to 5 rounds ahead against two directional
ghosts on ``small_classic`` (the ghosts' random moves make every seed a different game). The
lecture's point is an *interaction*: the gap between a good and a poor evaluation should shrink
as the search deepens. We test it seed by seed: for seed s, the gap at depth d is
``score(better) - score(poorer)``, and the contrast ``gap at depth 1 - gap at the deepest
depth`` has a paired t interval, judged against the gap halving (:func:`shrink_effect`); the
contrast to every intermediate depth is tabled, and a gap that significantly widens (against
the lecture) is named. Nodes and think time per move show the price of depth.
"""

from __future__ import annotations

import math

from pacman.batch import GameJob
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.figures import means_figure
from pacman.experiments.games import (Played, add_gif, outcome_table, paired, paired_scores,
                                      percent, play, score_bounds, summary_data)

LAYOUT = "small_classic"
DEPTHS = (1, 2, 3, 4, 5)
EVALUATIONS = ("score", "closest_dot", "better")
MAX_MOVES = 300


def label(evaluation: str, depth: int) -> str:
    return f"{evaluation}, depth {depth}"


def interaction(played: Played, good: str, poor: str, shallow: int, deep: int):
    """The paired contrast (good - poor at ``shallow``) - (good - poor at ``deep``)."""
    def scores(e: str, d: int) -> list[float]:
        return [r.score for r in played.results[label(e, d)]]

    gap_shallow = [g - p for g, p in zip(scores(good, shallow), scores(poor, shallow))]
    gap_deep = [g - p for g, p in zip(scores(good, deep), scores(poor, deep))]
    low, high = score_bounds(played.results[label(good, shallow)][0])
    span = 2 * (high - low)
    return paired(f"gap at depth {shallow} minus gap at depth {deep}", gap_shallow, gap_deep,
                  (-span, span))


#: The smallest shrink of the gap (points) and the depth gain (thirty dots) the lecture is
#: taken to imply.
LEAST_EFFECT, DEPTH_GAIN = 50.0, 300.0
PAIRS = (("better", "score"), ("better", "closest_dot"), ("closest_dot", "score"))


def shrink_effect(gap_shallow: float) -> float:
    """The lecture's "matters less", taken as: the shallow gap halves (at least
    :data:`LEAST_EFFECT` points)."""
    return max(LEAST_EFFECT, gap_shallow / 2)


def gap_reason(gaps: list[float], poor: str, deep: int, widening: list[str]) -> str:
    """Why the interaction claim is not borne out, from the measured gaps."""
    text = f"the mean gap goes from {gaps[0]:+.0f} to {gaps[1]:+.0f}"
    if widening:
        text += "; it significantly *widens* from the shallowest depth to " + ", ".join(
            widening)
    if gaps[1] >= gaps[0] and poor == "score":
        text += (f"; the score sees no dot beyond its horizon and still wanders at depth "
                 f"{deep}, so the gap does not close")
    return text


def widening_depths(played: Played, good: str, poor: str, depths: tuple[int, ...]
                    ) -> list[str]:
    """The depths at which the gap is significantly wider than at the shallowest depth."""
    return [f"depth {d} (p = {t.difference.p_value:.2g})" for d in depths[1:]
            for t in [interaction(played, good, poor, depths[0], d)] if t.below_zero]


def interaction_claims(report: Report, played: Played, depths: tuple[int, ...],
                       pairs: tuple[tuple[str, str], ...] = PAIRS) -> None:
    shallow, deep = depths[0], depths[-1]
    for good, poor in pairs:
        test = interaction(played, good, poor, shallow, deep)
        gaps = [played.summary(label(good, d)).mean_score
                - played.summary(label(poor, d)).mean_score for d in (shallow, deep)]
        effect = shrink_effect(gaps[0])
        decision = test.decision(effect)
        widening = widening_depths(played, good, poor, depths)
        report.claim(f"deeper search makes the evaluation matter less: the score gap between "
                     f"{good} and {poor} shrinks from depth {shallow} to depth {deep}",
                     decision.holds, f"mean gap {gaps[0]:+.0f} at depth {shallow}, "
                     f"{gaps[1]:+.0f} at depth {deep}; {test.text()}"
                     + (f"; against the lecture, the gap widens at {', '.join(widening)}"
                        if widening else ""),
                     "paired t-test of the interaction contrast on shared seeds; holds if its "
                     f"95 % interval lies above 0 (lecture: the gap halves, {effect:+.0f})",
                     gap_reason(gaps, poor, deep, widening), decision, test.difference.n)


def contrast_table(played: Played, depths: tuple[int, ...]) -> str:
    """Every pair's gap change from the shallowest depth to each deeper one."""
    rows = []
    for good, poor in PAIRS:
        cells = []
        for d in depths[1:]:
            t = interaction(played, good, poor, depths[0], d)
            mark = " (shrinks)" if t.above_zero else " (widens)" if t.below_zero else ""
            cells.append(f"{t.difference.difference:+.0f} [{t.low:+.0f}, {t.high:+.0f}]{mark}")
        rows.append([f"{good} minus {poor}", *cells])
    return markdown_table(["gap", *(f"depth {depths[0]} minus depth {d}" for d in depths[1:])],
                          rows)


def depth_claims(report: Report, played: Played, depths: tuple[int, ...]) -> None:
    shallow, deep = depths[0], depths[-1]
    for e in EVALUATIONS:
        test = paired_scores(played, label(e, deep), label(e, shallow))
        first = played.summary(label(e, shallow))
        reason = (f"{e} already wins {percent(first.win_rate)} at depth {shallow}: little room "
                  "left, and the gain is within the noise of this many seeds"
                  if first.win_rate >= 0.6 else "the evaluation, not the horizon, limits this "
                  "Pacman: deeper search sees the same flat values")
        decision = test.decision(DEPTH_GAIN)
        report.claim(f"with {e}, searching {deep} rounds scores higher than {shallow}",
                     decision.holds, test.text(), "paired t-test on shared seeds (depth "
                     f"{deep} minus depth {shallow}); holds if the 95 % interval lies above 0 "
                     f"(lecture: +{DEPTH_GAIN:g})", reason, decision, test.difference.n)
    nodes = {d: played.summary(label("better", d)).nodes_per_move or 0.0 for d in depths}
    growth = [nodes[b] / nodes[a] for a, b in zip(depths, depths[1:]) if nodes[a] > 0]
    geometric = math.exp(sum(map(math.log, growth)) / len(growth)) if growth else 0.0
    report.claim("each extra round multiplies the nodes searched per move (better "
                 "evaluation; more than 1.5x per round)", bool(growth)
                 and all(g > 1.5 for g in growth),
                 f"growth per round {', '.join(f'{g:.1f}x' for g in growth)}; geometric "
                 f"mean {geometric:.1f}x", "every ratio of nodes per move between "
                 "successive depths exceeds 1.5", "pruning and early game ends keep the "
                 "tree small at some depth")


def grid_table(played: Played, depths: tuple[int, ...]) -> str:
    rows = []
    for e in EVALUATIONS:
        cells = []
        for d in depths:
            s = played.summary(label(e, d))
            cells.append(f"{s.mean_score:.0f} ({percent(s.win_rate)})")
        rows.append([e, *cells])
    return markdown_table(["evaluation", *(f"depth {d}" for d in depths)], rows)


def run(settings: Settings, depths: tuple[int, ...] = DEPTHS) -> Report:
    report = Report("depth", "Depth matters (the Pacman slides)", __doc__.split("\n\n", 1)[1])
    conditions = [GameJob(label(e, d), LAYOUT, "alphabeta",
                          {"depth": d, "evaluation": e}, ("directional",), {}, 2,
                          max_moves=MAX_MOVES) for e in EVALUATIONS for d in depths]
    played = play(conditions, settings)
    interaction_claims(report, played, depths)
    depth_claims(report, played, depths)
    report.add("## Mean score (win rate) by evaluation and depth\n\n"
               + grid_table(played, depths))
    report.add("## How the gap changes with depth (paired contrasts, 95 % intervals)\n\n"
               + contrast_table(played, depths) + "\n\nPositive: the gap is smaller at the "
               "deeper depth, as the lecture says; marked where the interval excludes 0.")
    report.add(f"## All cells ({MAX_MOVES}-move cap)\n\n" + outcome_table(played))
    plot(played, depths, settings.out / "score_by_depth.png")
    report.figure("score_by_depth.png", "Mean score against depth for each evaluation (95 % "
                                        "t intervals over seeds)")
    plot_gaps(played, depths, settings.out / "gap_by_depth.png")
    report.figure("gap_by_depth.png", "Score gap between evaluations against depth (95 % "
                                      "paired-t intervals over seeds): the lecture says it "
                                      "shrinks")
    played.watch(report)
    add_gif(report, played, label("score", depths[-1]), settings)
    report.data["conditions"] = summary_data(played)
    return report


def plot(played: Played, depths: tuple[int, ...], path) -> None:
    series = []
    for e in EVALUATIONS:
        points = [(played.summary(label(e, d)).mean_score, played.summary(label(e, d)).score_low,
                   played.summary(label(e, d)).score_high) for d in depths]
        series.append((e, list(depths), points))
    means_figure(series, path, "depth (rounds)", "mean score")


def plot_gaps(played: Played, depths: tuple[int, ...], path) -> None:
    series = []
    for good, poor in PAIRS:
        points = []
        for d in depths:
            t = paired_scores(played, label(good, d), label(poor, d))
            points.append((t.difference.difference, t.low, t.high))
        series.append((f"{good} minus {poor}", list(depths), points))
    means_figure(series, path, "depth (rounds)", "score gap (points)")


EXPERIMENT = Experiment("depth", "depth matters",
                        "alpha-beta Pacman with score, closest_dot and better at depths 1-5 "
                        "against two directional ghosts: does depth make the evaluation "
                        "matter less?", games=110, ci_games=4, run=run)
