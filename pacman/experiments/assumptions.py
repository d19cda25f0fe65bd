"""World assumptions (the Pacman slides): minimax and expectimax Pacman against an adversarial and a
random ghost.

Pacman searches 4 rounds with an evaluation that avoids trouble (``better``); the ghost
either searches 2 rounds with an evaluation that seeks Pacman (``adversarial``) or moves at
random. Both Pacmen break ties at random. The adversarial ghost breaks ties by move order, as
in the lecture (the lecture's own cells); a variant breaks its ties at random (``adversarial,
random ties``). Against either, the games vary only as much as the tie-breaks matter: the
tables count the distinct games of every cell (the expectimax cells often play one game on
every seed, whichever tie-break the ghost uses).

On the ``trapped`` maze Pacman starts inside a dead-end pocket whose mouth is also the only way
out of the ghost's den, four moves from the ghost; two dots lie in the pocket, five on a long
loop. Eating the pocket first keeps Pacman in it longer than the ghost needs to reach the
mouth. Minimax assumes the ghost comes straight for the mouth, leaves at once, leads the ghost
(either ghost) round the loop and comes back for the pocket last, with the ghost behind him.
Expectimax models the ghost as uniform: the trap closes only if it picks the right exit of its
den, then the right turn at a junction, then turns into the pocket, so he eats the pocket
first. The adversarial ghost makes those choices every time; the random ghost seldom does, and
expectimax then finishes fastest, with the best score.

Every seed is an independent draw of every tie-break, so rates are bounded over seeds (Wilson
95 %), with the number of distinct games beside them; a cell that plays one game on every seed
is marked deterministic (its outcome is then exact).
"""

from __future__ import annotations

from pacman.batch import GameJob
from pacman.batch.plots import plot_scores, plot_win_rates
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.games import (Played, add_gif, distinct_wins, outcome_table,
                                      paired_scores, percent, play, summary_data)
from pacman.experiments.power import Decision, decide_rate
from pacman.batch.stats import wilson_interval

LAYOUT = "trapped"
MAX_MOVES = 300
PACMEN = ("minimax", "expectimax")
GHOSTS = {"adversarial": ("adversarial", {}),
          "adversarial, random ties": ("adversarial", {"tie_break": "random"}),
          "random": ("random", {})}
#: The Pacman slides' table: 5 games per cell.
LECTURE = {("minimax", "adversarial"): "Won 5/5, Avg. Score: 483",
           ("minimax", "random"): "Won 5/5, Avg. Score: 493",
           ("expectimax", "adversarial"): "Won 1/5, Avg. Score: -303",
           ("expectimax", "random"): "Won 5/5, Avg. Score: 503"}


def label(pacman: str, ghost: str) -> str:
    return f"{pacman.capitalize()} Pacman vs {ghost} ghost"


def lecture_table(played: Played, first: int) -> str:
    rows = []
    for p in PACMEN:
        ours = []
        for g in ("adversarial", "random"):
            games = played.results[label(p, g)][:first]
            wins = sum(r.won for r in games)
            ours.append(f"Won {wins}/{len(games)}, Avg. Score: "
                        f"{sum(r.score for r in games) / len(games):.0f}")
        rows.append([f"{p.capitalize()} Pacman", LECTURE[p, "adversarial"],
                     LECTURE[p, "random"], *ours])
    return markdown_table(["", "lecture: Adversarial ghost", "lecture: Random ghost",
                           "ours: Adversarial ghost", "ours: Random ghost"], rows)


#: "Nearly always" and "most": the thresholds, and the rates the lecture's table implies.
NEARLY_ALWAYS, MOST = 0.75, 0.5
LECTURE_WIN, LECTURE_LOSS_WIN = 0.95, 0.2


def seed_wins(played: Played, cell: str) -> tuple[int, int]:
    """(games won, games) of ``cell``, counted over seeds."""
    results = played.results[cell]
    return sum(r.won for r in results), len(results)


def rate_text(played: Played, cell: str) -> str:
    won, games = seed_wins(played, cell)
    low, high = wilson_interval(won, games)
    distinct = played.distinct(cell)
    won_distinct = distinct_wins(played.results[cell])[0]
    kind = (" (deterministic: one game on every seed, its outcome exact)" if distinct == 1
            else "")
    return (f"{cell}: won {won} of {games} seeds, Wilson 95 % over seeds [{percent(low)}, "
            f"{percent(high)}]; {distinct} distinct games, {won_distinct} of them won{kind}")


def wins_nearly_always(played: Played, cell: str) -> Decision:
    """The Wilson 95 % lower bound of the cell's win rate over seeds is at least 75 %."""
    return decide_rate(*seed_wins(played, cell), NEARLY_ALWAYS, above=True,
                       planning=LECTURE_WIN)


def loses_most(played: Played, cell: str) -> Decision:
    """The Wilson 95 % upper bound of the cell's win rate over seeds is below 50 %."""
    return decide_rate(*seed_wins(played, cell), MOST, above=False, planning=LECTURE_LOSS_WIN)


def claims(report: Report, played: Played) -> None:
    for ghost in ("adversarial", "adversarial, random ties", "random"):
        cell = label("minimax", ghost)
        decision = wins_nearly_always(played, cell)
        lecture = " (the lecture's cell)" if ghost == "adversarial" else ""
        report.claim(f"minimax wins nearly always against the {ghost} ghost{lecture}",
                     decision.holds, rate_text(played, cell),
                     "the Wilson 95 % lower bound of the win rate over seeds is at least 75 % "
                     "(lecture: 5 of 5)", "minimax is caught on many seeds (see the replays)",
                     decision, seed_wins(played, cell)[1])
    for ghost in ("adversarial", "adversarial, random ties"):
        cell = label("expectimax", ghost)
        decision = loses_most(played, cell)
        report.claim(f"expectimax loses most games against the {ghost} ghost",
                     decision.holds, rate_text(played, cell),
                     "the Wilson 95 % upper bound of the win rate over seeds is below 50 % "
                     "(lecture: 1 of 5 won)", "expectimax escapes the trap on many seeds",
                     decision, seed_wins(played, cell)[1])
    test = paired_scores(played, label("expectimax", "random"), label("minimax", "random"))
    report.claim("against the random ghost expectimax scores higher than minimax (it eats "
                 "the pocket first and finishes sooner)", test.above_zero, test.text(),
                 "paired t-test on shared seeds (expectimax minus minimax); holds if the 95 % "
                 "interval lies above 0 (lecture: +10)", "the random ghost reaches the "
                 "pocket's mouth often enough to cancel the moves expectimax saves",
                 test.decision(10.0), test.difference.n)


def run(settings: Settings) -> Report:
    report = Report("assumptions", "World assumptions: minimax vs expectimax (the Pacman slides)",
                    __doc__.split("\n\n", 1)[1])
    conditions = [GameJob(label(p, g), LAYOUT, p, {"depth": "4", "tie_break": "random"},
                          (ghost,), options, 1, max_moves=MAX_MOVES)
                  for p in PACMEN for g, (ghost, options) in GHOSTS.items()]
    played = play(conditions, settings)
    first = min(5, settings.games)
    report.add(f"## The lecture's table beside ours (our first {first} seeds)\n\n"
               + lecture_table(played, first))
    report.add(f"## All {settings.games} games per cell, with 95 % intervals\n\n"
               + outcome_table(played))
    claims(report, played)
    plot_win_rates(played.summaries, settings.out / "win_rates.png")
    plot_scores(played.summaries, settings.out / "scores.png")
    report.figure("win_rates.png", "Win rate per cell (95 % Wilson intervals over seeds)")
    report.figure("scores.png", "Score distribution per cell")
    played.watch(report)
    add_gif(report, played, label("expectimax", "adversarial"), settings)
    report.data["conditions"] = summary_data(played)
    return report


EXPERIMENT = Experiment("assumptions", "world assumptions (the Pacman slides' table)",
                        "minimax and expectimax Pacman (depth 4) against an adversarial "
                        "(depth 2, ties by move order or at random) and a random ghost on the "
                        "trapped maze", games=110, ci_games=10, run=run)
