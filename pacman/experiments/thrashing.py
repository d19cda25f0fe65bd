"""Thrashing (seed 003): a depth-2 Pacman whose evaluation is the score, and its fix.

First the lecture's situation. On ``thrashing_lecture`` a dot lies right beside Pacman and four
more sit in the corners, beyond a depth-2 horizon; there are no ghosts. With the score as
evaluation, eating now (+10, then any move) and eating later (stop, then eat) are worth the
same at the root, so the choice between them is a tie-break; once the near dot is gone no dot
is within two moves, every move ties again, and Pacman wanders. ``closest_dot`` (the score
minus a tenth of the distance to the nearest dot, the lecture's "distance to dot") breaks both
ties. Each evaluation plays with ties broken by move order (``first``: deterministic, one game
whatever the seed) and at random (``random``: a different game per seed).

Then the general lesson on the classic course's mazes: the same two evaluations (random ties)
against the classic course's random ghosts on ``smallClassic``, ``mediumClassic`` and
``openClassic``: wins, and dots eaten per 100 moves.
"""

from __future__ import annotations

import random
from typing import Any

from pacman.batch import GameJob
from pacman.batch.plots import pyplot, save_figure
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.games import (Played, add_gif, outcome_table, paired_metric,
                                      paired_wins, percent, play, summary_data)
from pacman.game import GameResult, replay_states
from pacman.layout import load_layout
from pacman.lineup import lineup
from pacman.state import GameState
from pacman.stats import wilson_interval

LECTURE_MAZE = "thrashing_lecture"
LECTURE_MOVES = 100
CLASSIC_MAZES = ("smallClassic", "mediumClassic", "openClassic")
CLASSIC_MOVES = 500
EVALUATIONS = ("score", "closest_dot")
TIES = ("first", "random")


def lecture_label(evaluation: str, tie: str) -> str:
    return f"{evaluation}, {tie} ties"


def classic_label(maze: str, evaluation: str) -> str:
    return f"{maze}: {evaluation}"


def conditions(mazes: tuple[str, ...] = CLASSIC_MAZES) -> list[GameJob]:
    jobs = [GameJob(lecture_label(e, t), LECTURE_MAZE, "minimax",
                    {"depth": "2", "evaluation": e, "tie_break": t}, (), {}, 0,
                    max_moves=LECTURE_MOVES) for e in EVALUATIONS for t in TIES]
    jobs += [GameJob(classic_label(m, e), m, "minimax",
                     {"depth": "2", "evaluation": e, "tie_break": "random"}, ("random",), {},
                     None, max_moves=CLASSIC_MOVES) for m in mazes for e in EVALUATIONS]
    return jobs


def dots_eaten(result: GameResult) -> int:
    states = list(replay_states(result))
    return states[0].food_count - states[-1].food_count


def dots_per_100_moves(result: GameResult) -> float:
    return 100.0 * dots_eaten(result) / max(1, result.moves)


def first_dot_move(result: GameResult) -> int | None:
    """Pacman's move (1-based) that ate the first dot, ``None`` if none did."""
    states = list(replay_states(result))
    moves = 0
    for before, after in zip(states, states[1:]):
        if before.turn == 0:
            moves += 1
            if after.food_count < states[0].food_count:
                return moves
    return None


def root_values(evaluation: str, maze: str = LECTURE_MAZE) -> dict[str, float]:
    """The depth-2 root values of the score or closest_dot Pacman at the maze's start."""
    layout = load_layout(maze)
    agent: Any = lineup(layout, "minimax", [], 0, {"depth": "2", "evaluation": evaluation}
                   )[0].build(0, random.Random(0))
    agent.get_action(GameState.initial(layout, 0))
    return dict(agent.last_report()["root_values"])


def eating_move(maze: str = LECTURE_MAZE) -> str:
    """The move that eats the dot beside Pacman at the start of ``maze``."""
    state = GameState.initial(load_layout(maze), 0)
    return next(a for a in state.legal_actions() if a != "Stop"
                and state.successor(a).food_count < state.food_count)


def eat_now_ties(values: dict[str, float], eat: str) -> list[str] | None:
    """The tied best moves if eating now (``eat``) ties with another move at the top of the
    root values, else ``None``."""
    tied = [a for a, v in values.items() if v == max(values.values())]
    return tied if eat in tied and len(tied) > 1 else None


def hesitations(results: list[GameResult]) -> tuple[int, float, float]:
    """Seeds that did not eat the adjacent dot at move 1, with the Wilson 95 % interval of
    their share."""
    count = sum(1 for r in results if first_dot_move(r) != 1)
    low, high = wilson_interval(count, len(results))
    return count, low, high


def tie_claims(report: Report) -> dict:
    """The root values at the first decision, and the claims about the tie."""
    eat = eating_move()
    values = {e: root_values(e) for e in EVALUATIONS}
    rows = [[a, *(f"{values[e][a]:g}" for e in EVALUATIONS)] for a in values["score"]]
    report.add("## The lecture's situation: root values at the first decision\n\nPacman "
               f"stands beside a dot (move `{eat}` eats it). Depth-2 minimax root values:\n\n"
               + markdown_table(["action", *(f"eval = {e}" for e in EVALUATIONS)], rows)
               + "\n\nWith the score, eating now and eating after a `Stop` both end two moves "
                 "with one dot more: the root cannot tell them apart.")
    score, fixed = values["score"], values["closest_dot"]
    tied = eat_now_ties(score, eat)
    report.claim("with eval = score, eating now and eating later tie at the root (the "
                 "lecture's hesitation)", tied is not None,
                 "tied best moves: " + ", ".join(tied or [max(score, key=score.__getitem__)]),
                 "the eating move's root value equals another move's best value",
                 "the search sees a difference between eating now and later (a depth or "
                 "move-cost difference from the lecture's setting)")
    best = max(fixed, key=fixed.__getitem__)
    others = max(v for a, v in fixed.items() if a != eat)
    report.claim("closest_dot breaks the tie: eating now is strictly best", best == eat
                 and fixed[eat] > others, f"{eat} {fixed[eat]:g}, best other {others:g}",
                 "the eating move's root value is above every other move's",
                 "the distance term does not separate eating now from waiting")
    return {"eating_move": eat, "root_values": values}


def lecture_claims(report: Report, played: Played) -> dict:
    """Hesitation beside the dot and starving once no dot is in reach."""
    rows, data = [], {}
    for e in EVALUATIONS:
        for t in TIES:
            label = lecture_label(e, t)
            games = played.results[label]
            first = [first_dot_move(r) for r in games]
            hesitated = sum(1 for m in first if m != 1)
            eaten = [dots_eaten(r) for r in games]
            data[label] = {"hesitated": hesitated, "first_dot_move": first, "dots": eaten}
            rows.append([label, str(len(games)), str(played.distinct(label)),
                         f"{hesitated} / {len(games)}",
                         f"{sum(eaten) / len(eaten):.2f} of 5"])
    report.add(f"## Hesitating beside the dot, starving after it ({LECTURE_MOVES} moves)\n\n"
               + markdown_table(["Pacman (minimax, depth 2)", "games", "distinct games",
                                 "did not eat the adjacent dot at move 1",
                                 "mean dots eaten"], rows)
               + "\n\nWith ties broken by move order every seed plays the same game (one "
                 "distinct game): its row is one observation, whatever the number of seeds.")
    seeds = len(played.results[lecture_label("score", "random")])
    hesitated, low, high = hesitations(played.results[lecture_label("score", "random")])
    report.claim("with random ties the score agent hesitates beside the dot on a real share "
                 "of seeds", low > 0.1, f"{hesitated} of {seeds} seeds, Wilson 95 % "
                 f"[{percent(low)}, {percent(high)}]",
                 "the Wilson 95 % lower bound of the share of seeds that did not eat at move 1 "
                 "is above 10 %", "too few seeds to bound the share above 10 %")
    test = paired_metric(played, lecture_label("closest_dot", "random"),
                         lecture_label("score", "random"), dots_eaten, "dots eaten",
                         (-5.0, 5.0))
    report.claim(f"once no dot is within the horizon the score agent starves: closest_dot "
                 f"eats more dots in {LECTURE_MOVES} moves (random ties)", test.above_zero,
                 test.text(), "paired t-test on shared seeds, closest_dot minus score; holds "
                 "if the 95 % interval lies above 0",
                 "the random walk of the score agent reaches the far dots as often as the "
                 "closest_dot agent within this move cap")
    return data


def classic_claims(report: Report, played: Played, mazes: tuple[str, ...]) -> dict:
    """Per classic maze: closest_dot eats faster and wins more often than score."""
    rows, data = [], {}
    for maze in mazes:
        fixed, plain = classic_label(maze, "closest_dot"), classic_label(maze, "score")
        rate = paired_metric(played, fixed, plain, dots_per_100_moves, "dots per 100 moves",
                             (-100.0, 100.0))
        wins = paired_wins(played, fixed, plain)
        data[maze] = {"dots_per_100_moves": rate.difference.difference,
                      "win_rate": wins.difference.difference}
        both = [played.summary(fixed).win_rate, played.summary(plain).win_rate]
        rows.append([maze, rate.text(), wins.text(100, " pts")])
        report.claim(f"{maze}: closest_dot eats faster than score", rate.above_zero,
                     rate.text(), "paired t-test on shared seeds (closest_dot minus score); "
                     "holds if the 95 % interval lies above 0",
                     "captures by the ghosts end both agents' games before the eating rates "
                     "can differ")
        report.claim(f"{maze}: closest_dot wins more often than score", wins.above_zero,
                     wins.text(100, " pts"), "paired t-test on the win indicators of shared "
                     "seeds; holds if the 95 % interval lies above 0",
                     "neither evaluation avoids ghosts, so captures decide most games"
                     if max(both) < 0.25 else "the difference is within the noise of "
                     "this many seeds")
    report.add("## The general lesson on the classic mazes (closest_dot minus score)\n\n"
               + markdown_table(["maze", "dots per 100 moves", "win rate"], rows))
    return data


def run(settings: Settings, mazes: tuple[str, ...] = CLASSIC_MAZES) -> Report:
    report = Report("thrashing", "Thrashing: a depth-2 Pacman beside a dot (seed 003)",
                    __doc__.split("\n\n", 1)[1])
    data = {"tie": tie_claims(report)}
    played = play(conditions(mazes), settings)
    lecture = [lecture_label(e, t) for e in EVALUATIONS for t in TIES]
    data["lecture"] = lecture_claims(report, played)
    report.add("## Lecture maze: outcomes\n\n" + outcome_table(played, lecture))
    data["classic"] = classic_claims(report, played, mazes)
    report.add("## Classic mazes: outcomes (random ghosts)\n\n"
               + outcome_table(played, [c for c in played.results if c not in lecture]))
    plot(data["lecture"], settings.out / "dots_eaten.png")
    report.figure("dots_eaten.png", f"Dots eaten within {LECTURE_MOVES} moves on the lecture "
                                    "maze, per seed")
    played.watch(report)
    add_gif(report, played, lecture_label("score", "random"), settings)
    report.data["conditions"] = summary_data(played)
    report.data["measures"] = data
    return report


def plot(data: dict, path) -> None:
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(7, 3.5))
    labels = list(data)
    axes.boxplot([data[label]["dots"] for label in labels])
    axes.set_xticks(range(1, len(labels) + 1), labels)
    axes.set_ylabel("dots eaten (of 5)")
    axes.tick_params(axis="x", labelsize=8)
    save_figure(figure, path)


EXPERIMENT = Experiment("thrashing", "depth-2 Pacman thrashing beside a dot, and the fix",
                        "the lecture's tie beside a dot (both tie-breaks), then score vs "
                        "closest_dot on the classic mazes", games=40, ci_games=6, run=run)
