"""Smart ghosts coordinate (seed 003): a team that plans jointly against ghosts that each chase.

On the ``coordination`` maze (a ladder of loops, both ghosts starting in one corner) the same
Pacman (minimax, depth 3, ties broken at random so that seeds differ) meets four kinds of
ghosts. Independent adversarial ghosts each search two rounds to close *their own* distance,
so they take the same shortest path and queue up behind each other, and Pacman circles the
loops. The team searches the same two rounds over the joint ghost moves, minimising the cells
Pacman can still reach first: one ghost follows while the other takes the far side of the
loop, and Pacman is cut off. Directional and random ghosts are the baselines.
"""

from __future__ import annotations

from pacman.batch import GameJob
from pacman.batch.plots import plot_win_rates
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.games import (by_name, compare_conditions, outcome_table, percent,
                                     play, summary_data)
from pacman.stats import mean_interval

LAYOUT = "coordination"
PACMAN = {"depth": "3", "tie_break": "random"}
GHOSTS = {"independent adversarial": "adversarial", "coordinating team": "team",
          "directional": "directional", "random": "random"}
MAX_MOVES = 300


def run(settings: Settings) -> Report:
    report = Report("coordination", "Smart ghosts coordinate (seed 003)",
                    __doc__.split("\n\n", 1)[1])
    conditions = [GameJob(label, LAYOUT, "minimax", PACMAN, (ghost,), {}, 2,
                          max_moves=MAX_MOVES) for label, ghost in GHOSTS.items()]
    summaries, results = play(conditions, settings)
    report.add("## Pacman's results against each kind of ghost\n\n" + outcome_table(summaries))
    rows, survival = [], {}
    for label, games in results.items():
        caught = [r.moves for r in games if r.outcome == "loss"]
        survival[label] = caught
        if caught:
            mean, low, high = mean_interval(caught) if len(caught) > 1 else (caught[0],) * 3
            rows.append([label, str(len(caught)), f"{mean:.1f} [{low:.1f}, {high:.1f}]"])
        else:
            rows.append([label, "0", "-"])
    report.add("## Survival: Pacman's moves until he is caught (games he lost)\n\n"
               + markdown_table(["ghosts", "games lost", "mean moves until caught [95 %]"],
                                rows))
    versus = compare_conditions(results, "coordinating team", "independent adversarial")
    win = versus.win_rate
    report.add("## The team against the independent ghosts, seed by seed\n\n"
               f"Pacman's win rate against the team minus against the independent ghosts: "
               f"{100 * win.difference:+.0f} points, 95 % paired interval "
               f"[{100 * win.low:+.0f}, {100 * win.high:+.0f}] over {versus.seeds} shared seeds.")
    plot_win_rates(summaries, settings.out / "win_rates.png")
    report.figure("win_rates.png", "Pacman's win rate against each kind of ghost")
    s = by_name(summaries)
    team, alone = s["coordinating team"], s["independent adversarial"]
    report.claim("the coordinating team catches Pacman clearly more often than independent "
                 "adversarial ghosts (the Wilson intervals of his win rates do not overlap)",
                 team.win_high < alone.win_low,
                 f"Pacman wins {percent(team.win_rate)} [{percent(team.win_low)}, "
                 f"{percent(team.win_high)}] against the team, {percent(alone.win_rate)} "
                 f"[{percent(alone.win_low)}, {percent(alone.win_high)}] against independent "
                 "ghosts")
    report.data["conditions"] = summary_data(summaries)
    report.data["moves_until_caught"] = survival
    report.data["team_minus_independent_win_rate"] = {"difference": win.difference,
                                                      "low": win.low, "high": win.high}
    return report


EXPERIMENT = Experiment("coordination", "smart ghosts coordinate",
                        "minimax Pacman against independent adversarial ghosts, the "
                        "coordinating team, directional and random ghosts", games=200,
                        ci_games=20, run=run)
