"""World assumptions (seed 003): minimax and expectimax Pacman against an adversarial and a
random ghost.

Pacman searches 4 rounds with an evaluation that avoids trouble (``better``); the ghost
either searches 2 rounds with an evaluation that seeks Pacman (``adversarial``) or moves at
random. Both Pacmen break ties at random. The adversarial ghost breaks ties by move order, as
in the lecture, which makes it nearly deterministic: its cells hold few distinct games, and
the tables say so. A variant ghost that breaks its ties at random (``adversarial, random
ties``) gives those cells real variation.

On the ``trapped`` maze Pacman starts inside a dead-end pocket whose mouth is also the only way
out of the ghost's den, four moves from the ghost; two dots lie in the pocket, five on a long
loop. Eating the pocket first keeps Pacman in it longer than the ghost needs to reach the
mouth. Minimax assumes the ghost comes straight for the mouth, leaves at once, leads the ghost
(either ghost) round the loop and comes back for the pocket last, with the ghost behind him.
Expectimax models the ghost as uniform: the trap closes only if it picks the right exit of its
den, then the right turn at a junction, then turns into the pocket, so he eats the pocket
first. The adversarial ghost makes those choices every time; the random ghost seldom does, and
expectimax then finishes fastest, with the best score.

Rates are bounded over *distinct* games (each distinct game counted once, Wilson 95 %), so a
game repeated on every seed counts as one observation.
"""

from __future__ import annotations

from pacman.batch import GameJob
from pacman.batch.plots import plot_scores, plot_win_rates
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.games import (Played, add_gif, distinct_wins, outcome_table,
                                      paired_scores, percent, play, summary_data)

LAYOUT = "trapped"
MAX_MOVES = 300
PACMEN = ("minimax", "expectimax")
GHOSTS = {"adversarial": ("adversarial", {}),
          "adversarial, random ties": ("adversarial", {"tie_break": "random"}),
          "random": ("random", {})}
#: Seed 003's table: 5 games per cell.
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


def rate_text(played: Played, cell: str) -> str:
    won, distinct, low, high = distinct_wins(played.results[cell])
    return (f"{cell}: won {won} of {distinct} distinct games, Wilson 95 % [{percent(low)}, "
            f"{percent(high)}] ({played.summary(cell).wins} of "
            f"{played.summary(cell).games} seeds)")


def wins_nearly_always(played: Played, cell: str) -> bool:
    """The Wilson 95 % lower bound of the cell's win rate over distinct games is >= 75 %."""
    return distinct_wins(played.results[cell])[2] >= 0.75


def loses_most(played: Played, cell: str) -> bool:
    """The Wilson 95 % upper bound of the cell's win rate over distinct games is < 50 %."""
    return distinct_wins(played.results[cell])[3] < 0.5


def few_games_reason(played: Played, cell: str) -> str:
    won, distinct, _, _ = distinct_wins(played.results[cell])
    if won == distinct and distinct < 12:
        return (f"only {distinct} distinct games: minimax plays nearly the same escape "
                "whatever the seed and the ghost's tie-breaks, and a bound over so few games "
                "cannot reach 75 % even when every one is won")
    return "minimax is caught in some distinct games (see the replays)"


def claims(report: Report, played: Played) -> None:
    for ghost in ("adversarial, random ties", "random"):
        cell = label("minimax", ghost)
        report.claim(f"minimax wins nearly always against the {ghost} ghost",
                     wins_nearly_always(played, cell), rate_text(played, cell),
                     "the Wilson 95 % lower bound of the win rate over distinct games is at "
                     "least 75 %", few_games_reason(played, cell))
    for ghost in ("adversarial", "adversarial, random ties"):
        cell = label("expectimax", ghost)
        report.claim(f"expectimax loses most games against the {ghost} ghost",
                     loses_most(played, cell), rate_text(played, cell),
                     "the Wilson 95 % upper bound of the win rate over distinct games is below "
                     "50 %", "the ghost plays one game (or a handful) whatever the seed, so the "
                     "bound over distinct games cannot fall below 50 %"
                     if distinct_wins(played.results[cell])[1] < 5 else
                     "expectimax escapes the trap on many seeds")
    test = paired_scores(played, label("expectimax", "random"), label("minimax", "random"))
    report.claim("against the random ghost expectimax scores higher than minimax (it eats "
                 "the pocket first and finishes sooner)", test.above_zero, test.text(),
                 "paired t-test on shared seeds (expectimax minus minimax); holds if the 95 % "
                 "interval lies above 0", "the random ghost reaches the pocket's mouth often "
                 "enough to cancel the moves expectimax saves")


def run(settings: Settings) -> Report:
    report = Report("assumptions", "World assumptions: minimax vs expectimax (seed 003)",
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


EXPERIMENT = Experiment("assumptions", "world assumptions (seed 003's table)",
                        "minimax and expectimax Pacman (depth 4) against an adversarial "
                        "(depth 2, ties by move order or at random) and a random ghost on the "
                        "trapped maze", games=60, ci_games=10, run=run)
