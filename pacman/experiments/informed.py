"""Informed probabilities (seed 003): the ghost runs depth-2 minimax with probability p and
moves at random otherwise. When does knowing that model pay?

The lecture's answer is expectimax with the ghost's true move distribution: at each chance
node Pacman simulates the ghost's own depth-2 search. We compare, at the same depth and
breaking ties at random, expectimax with the true model (built from the ghosts' actual
settings: ``model=mixed`` with ``model_options=p=P,depth=2``), expectimax with a uniform
model, and minimax (which assumes the ghost always plays its worst case), against mixed
ghosts with p = 0.2, 0.8 and 1.0, on ``trapped`` (one ghost, a dead-end pocket where a wrong
guess is punished; Pacman depths 2 and 4) and ``smallClassic`` (two ghosts; depths 1 and 2,
as the true model costs a ghost search per chance node).

Knowing the model *pays* in a setting when the true model beats at least one of the two fixed
assumptions by more than one dot (10 points: the 95 % interval of the paired difference lies
above 10) and is clearly worse than neither (Pacman does not know in advance which assumption
is right); both paired score differences are stated.
"""

from __future__ import annotations

from pacman.batch import GameJob
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.games import (Played, add_gif, outcome_table, paired_scores, percent,
                                      play, summary_data)

PS = ("0.2", "0.8", "1.0")
#: Pacman's search depths per maze.
DEPTHS = {"trapped": ("2", "4"), "smallClassic": ("1", "2")}
GHOST_DEPTH = "2"
MAX_MOVES = 300
TRUE, UNIFORM, MINIMAX = "true model", "uniform model", "minimax"
#: A gain smaller than one dot does not count as paying.
MARGIN = 10.0


def setting(maze: str, p: str, depth: str) -> str:
    return f"{maze}, p={p}, depth {depth}"


def pacmen(p: str, depth: str) -> dict[str, tuple[str, dict[str, str]]]:
    """The three Pacmen of one setting: the true model is the ghosts' own settings."""
    common = {"depth": depth, "tie_break": "random"}
    return {TRUE: ("expectimax", {**common, "model": "mixed",
                                  "model_options": f"p={p},depth={GHOST_DEPTH}"}),
            UNIFORM: ("expectimax", common),
            MINIMAX: ("minimax", common)}


def conditions(grid: list[tuple[str, str, str]]) -> list[GameJob]:
    jobs = []
    for maze, p, depth in grid:
        for name, (agent, options) in pacmen(p, depth).items():
            jobs.append(GameJob(f"{setting(maze, p, depth)}: {name}", maze, agent, options,
                                ("mixed",), {"p": p, "depth": GHOST_DEPTH}, None,
                                max_moves=MAX_MOVES))
    return jobs


def why_not(p: float, gap_uniform: float, gap_minimax: float,
            win_rates: list[float] | None = None, worse: bool = False) -> str:
    """The most likely reason knowing the model does not pay in one setting."""
    if worse:
        return ("the true model is clearly worse than a fixed assumption here: predicting the "
                "ghosts' next moves exactly lets Pacman pass close to them within the horizon, "
                "and beyond it that closeness gets him caught; the pessimist keeps the margin "
                "a short horizon needs")
    if win_rates and max(win_rates) == 0.0:
        return ("every Pacman is caught in every game here: at this depth no model sees a way "
                "out in time, so there is nothing for the model to win")
    if win_rates and min(win_rates) == 1.0 and abs(gap_uniform) < 5 and abs(gap_minimax) < 5:
        return "every Pacman wins every game here with nearly the same score: no room to differ"
    if p <= 0.3 and gap_uniform <= gap_minimax:
        return ("the ghost moves at random most of the time, so the true model is close to "
                "the uniform one and cannot be told apart at this size")
    if p >= 0.8 and gap_minimax <= gap_uniform:
        return ("the ghost plays its searched move most of the time, so minimax's worst case "
                "is nearly the truth: the true model adds little over minimax")
    return ("the search rarely meets a position where the ghost's next moves decide the "
            "game, so the model changes few decisions")


def setting_claim(report: Report, played: Played, maze: str, p: str, depth: str) -> list[str]:
    """Does knowing the model pay here? Returns the setting's table row."""
    name = setting(maze, p, depth)
    labels = {k: f"{name}: {k}" for k in (TRUE, UNIFORM, MINIMAX)}
    means = {k: played.summary(v).mean_score for k, v in labels.items()}
    tests = {k: paired_scores(played, labels[TRUE], labels[k]) for k in (UNIFORM, MINIMAX)}
    worse = any(t.below_zero for t in tests.values())
    pays = any(t.above(MARGIN) for t in tests.values()) and not worse
    report.claim(f"{name}: knowing the model pays (the true model outscores uniform or "
                 "minimax by more than a dot, and neither outscores it)", pays,
                 "; ".join(f"true minus {k}: {t.text()}" for k, t in tests.items()),
                 "two paired t-tests on shared seeds; holds if one 95 % interval of the score "
                 f"difference lies above {MARGIN:g} and neither lies below 0",
                 why_not(float(p), means[TRUE] - means[UNIFORM], means[TRUE] - means[MINIMAX],
                         [played.summary(v).win_rate for v in labels.values()], worse))
    wins = {k: percent(played.summary(v).win_rate) for k, v in labels.items()}
    cost = (played.summary(labels[TRUE]).think_ms_per_move
            / max(1e-9, played.summary(labels[UNIFORM]).think_ms_per_move))
    return [maze, p, depth, *(f"{means[k]:.0f} ({wins[k]})" for k in (TRUE, UNIFORM, MINIMAX)),
            *(f"{t.difference.difference:+.1f} [{t.low:+.1f}, {t.high:+.1f}]"
              for t in tests.values()), "pays" if pays else "no", f"{cost:.1f}x"]


def run(settings: Settings, grid: list[tuple[str, str, str]] | None = None) -> Report:
    report = Report("informed", "Informed probabilities (seed 003)", __doc__.split("\n\n", 1)[1])
    grid = grid or [(m, p, d) for m, depths in DEPTHS.items() for p in PS for d in depths]
    played = play(conditions(grid), settings)
    rows = [setting_claim(report, played, *g) for g in grid]
    pays = [f"{r[0]} p={r[1]} depth {r[2]}" for r in rows if r[8] == "pays"]
    not_pays = [f"{r[0]} p={r[1]} depth {r[2]}" for r in rows if r[8] != "pays"]
    report.add("## Where knowing the model pays\n\n"
               f"Knowing the model pays in {len(pays)} of {len(rows)} settings"
               + (f": {'; '.join(pays)}" if pays else "") + ". It does not in "
               + ("; ".join(not_pays) if not_pays else "none") + " (the claims above give "
               "the most likely reason for each).\n\n" + markdown_table(
        ["maze", "p", "depth", "true model: mean score (wins)", "uniform", "minimax",
         "true minus uniform [95 % paired]", "true minus minimax [95 % paired]", "verdict",
         "think time, true / uniform"], rows)
        + "\n\nThe true model costs a ghost search at every chance node (seed 003: \"this "
          "kind of thing gets very slow very quickly\"): the last column is its think time "
          "per move over uniform expectimax's.")
    report.add(f"## All cells ({MAX_MOVES}-move cap)\n\n" + outcome_table(played))
    played.watch(report)
    add_gif(report, played, f"{setting(*grid[0])}: {TRUE}", settings)
    report.data["conditions"] = summary_data(played)
    report.data["settings"] = [r[:3] + r[6:9] for r in rows]
    return report


EXPERIMENT = Experiment("informed", "informed probabilities",
                        "against p-minimax ghosts: expectimax with the true model, uniform "
                        "expectimax, minimax, across p, depth and mazes", games=20, ci_games=3,
                        run=run)
