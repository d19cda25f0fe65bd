"""Depth matters (seed 003): the same alpha-beta Pacman searching 1 to 5 rounds ahead.

Alpha-beta Pacman with the ``better`` evaluation against two directional ghosts on
``small_classic``: win rate, mean score, nodes and think time per move at each depth. Deeper
search sees captures and escapes sooner, at a cost that grows by a roughly constant factor per
round.
"""

from __future__ import annotations

import math

from pacman.batch import GameJob
from pacman.batch.plots import plot_against_option
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.games import outcome_table, percent, play, summary_data

LAYOUT = "small_classic"
DEPTHS = (1, 2, 3, 4, 5)
MAX_MOVES = 500


def run(settings: Settings, depths: tuple[int, ...] = DEPTHS) -> Report:
    report = Report("depth", "Depth matters (seed 003)", __doc__.split("\n\n", 1)[1])
    conditions = [GameJob(f"depth {d}", LAYOUT, "alphabeta", {"depth": str(d)},
                          ("directional",), {}, 2, max_moves=MAX_MOVES) for d in depths]
    summaries, _ = play(conditions, settings)
    report.add("## Results by depth\n\n" + outcome_table(summaries))
    nodes = [s.nodes_per_move or 0.0 for s in summaries]
    growth = [b / a for a, b in zip(nodes, nodes[1:]) if a > 0]
    rows = [[s.condition, f"{n:,.0f}", f"{g:.1f}" if g else "-", f"{s.think_ms_per_move:.2f}"]
            for s, n, g in zip(summaries, nodes, [None, *growth])]
    report.add("## Cost by depth\n\n" + markdown_table(
        ["depth", "nodes per move", "x previous depth", "ms per move (this run)"], rows))
    plot_against_option(summaries, "depth", settings.out / "against_depth.png")
    report.figure("against_depth.png", "Win rate, score, think time and nodes per move "
                                       "against the search depth")
    first, best = summaries[0], max(summaries[1:], key=lambda s: s.win_rate)
    report.claim(f"searching deeper wins more often: the best deeper search beats depth "
                 f"{depths[0]}", best.win_rate > first.win_rate,
                 f"{first.condition} wins {percent(first.win_rate)}, {best.condition} "
                 f"{percent(best.win_rate)}")
    geometric = math.exp(sum(math.log(g) for g in growth) / len(growth)) if growth else 0.0
    report.claim("each extra round multiplies the nodes searched per move (more than 1.5x)",
                 all(g > 1.5 for g in growth),
                 f"growth per round {', '.join(f'{g:.1f}x' for g in growth)}; geometric "
                 f"mean {geometric:.1f}x")
    report.data["conditions"] = summary_data(summaries)
    report.data["nodes_per_move"] = nodes
    return report


EXPERIMENT = Experiment("depth", "depth matters",
                        "alpha-beta Pacman at depths 1-5 against two directional ghosts",
                        games=100, ci_games=10, run=run)
