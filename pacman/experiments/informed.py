"""Informed probabilities (seed 003): the ghost runs depth-2 minimax 80 % of the time and moves
at random otherwise. Which search should Pacman use?

The lecture's answer is expectimax with the ghost's true move distribution: to get each chance
node's probabilities Pacman simulates the ghost's own depth-2 search. We compare, at the same
depth, expectimax with that true model (``model=mixed``), expectimax with a uniform model, and
minimax (which assumes the ghost always plays its worst case), all against two mixed ghosts
on ``small_classic``.
"""

from __future__ import annotations

from pacman.batch import GameJob
from pacman.batch.plots import plot_win_rates
from pacman.experiments.base import Experiment, Report, Settings
from pacman.experiments.games import (by_name, compare_conditions, outcome_table, percent,
                                      play, summary_data)

LAYOUT = "small_classic"
DEPTH = "2"
PACMEN = {"expectimax, true model": ("expectimax", {"depth": DEPTH, "model": "mixed"}),
          "expectimax, uniform model": ("expectimax", {"depth": DEPTH}),
          "minimax": ("minimax", {"depth": DEPTH})}
MAX_MOVES = 500


def run(settings: Settings) -> Report:
    report = Report("informed", "Informed probabilities (seed 003)", __doc__.split("\n\n", 1)[1])
    conditions = [GameJob(label, LAYOUT, agent, options, ("mixed",), {"p": "0.8"}, 2,
                          max_moves=MAX_MOVES) for label, (agent, options) in PACMEN.items()]
    summaries, results = play(conditions, settings)
    report.add("## Pacman against two mixed ghosts (80 % depth-2 minimax, 20 % random)\n\n"
               + outcome_table(summaries))
    lines, undecided = [], []
    for other in ("expectimax, uniform model", "minimax"):
        c = compare_conditions(results, "expectimax, true model", other)
        if c.score.low <= 0 <= c.score.high:
            undecided.append(other)
        lines.append(f"- true model minus {other}: win rate {100 * c.win_rate.difference:+.0f} "
                     f"points [{100 * c.win_rate.low:+.0f}, {100 * c.win_rate.high:+.0f}], "
                     f"score {c.score.difference:+.0f} [{c.score.low:+.0f}, "
                     f"{c.score.high:+.0f}] over {c.seeds} shared seeds")
    report.add("## Paired differences (95 % intervals)\n\n" + "\n".join(lines)
               + "\n\nThe true model costs a ghost search at every chance node: compare the "
                 "think times per move above (seed 003: \"this kind of thing gets very slow "
                 "very quickly\")."
               + ("" if not undecided else
                  f"\n\nAt this size the true model is not measurably better than "
                  f"{' or '.join(undecided)}: the score intervals of the differences contain 0. "
                  "A two-round search with the `better` evaluation already keeps away from the "
                  "ghosts, so the model matters only in the few positions where a ghost can "
                  "reach Pacman within the horizon, and there a ghost that plays its searched "
                  "move 80 % of the time is close to the adversary that minimax assumes."))
    plot_win_rates(summaries, settings.out / "win_rates.png")
    report.figure("win_rates.png", "Pacman's win rate with each model of the mixed ghosts")
    s = by_name(summaries)
    informed = s["expectimax, true model"]
    best_other = max((s["expectimax, uniform model"], s["minimax"]),
                     key=lambda x: x.mean_score)
    report.claim("expectimax with the ghosts' true distribution scores at least as well as "
                 "the best of uniform expectimax and minimax (within the 95 % interval of "
                 "its mean)", informed.score_high >= best_other.mean_score,
                 f"true model {informed.mean_score:.0f} [{informed.score_low:.0f}, "
                 f"{informed.score_high:.0f}], {best_other.condition} "
                 f"{best_other.mean_score:.0f}; win rates {percent(informed.win_rate)} vs "
                 f"{percent(best_other.win_rate)}")
    report.data["conditions"] = summary_data(summaries)
    return report


EXPERIMENT = Experiment("informed", "informed probabilities",
                        "against 80 %-minimax ghosts: expectimax with the true model, uniform "
                        "expectimax, minimax", games=100, ci_games=10, run=run)
