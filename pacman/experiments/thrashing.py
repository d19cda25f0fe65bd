"""Thrashing (seed 003): a depth-2 Pacman whose evaluation is the score hovers beside a dot.

On the ``thrashing`` maze the nearest dot is three steps away, one more than a depth-2 search
sees. With the ``score`` evaluation every plan looks the same (each move costs one point, no
dot is in reach), so the choice among tied moves decides everything: the first-listed tie
(North) steps into a dead-end pocket, the only way out is back South, and the next search ties
again. ``closest_dot`` adds the pull of the nearest dot, breaks the tie and eats it at once.
"""

from __future__ import annotations

import random

from pacman.batch import GameJob
from pacman.batch.plots import pyplot, save_figure
from pacman.directions import REVERSE
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.games import play
from pacman.game import GameResult, replay_states
from pacman.layout import load_layout
from pacman.lineup import lineup
from pacman.state import GameState

LAYOUT = "thrashing"
MAX_MOVES = 60
#: The CI check of the lecture's claim: eaten within this many moves, or not.
FAIL_WITHIN = 30
FIX_WITHIN = 5

AGENTS = {
    "score, first tie": {"depth": "2", "evaluation": "score", "tie_break": "first"},
    "score, random tie": {"depth": "2", "evaluation": "score", "tie_break": "random"},
    "closest_dot": {"depth": "2", "evaluation": "closest_dot", "tie_break": "first"},
}


def first_dot_move(result: GameResult) -> int | None:
    """Pacman's move (1-based) that ate the first dot, ``None`` if none did."""
    states = list(replay_states(result))
    start_food = states[0].food_count
    moves = 0
    for before, after in zip(states, states[1:]):
        if before.turn == 0:
            moves += 1
            if after.food_count < start_food:
                return moves
    return None


def thrash_index(result: GameResult, until: int | None = None) -> float:
    """Share of Pacman's moves (up to move ``until``) that undo his previous move or return
    him to a position he has stood on with the same food left (progress-free wandering)."""
    states = list(replay_states(result))
    seen: set[tuple[int, int]] = {(states[0].pacman_cell, states[0].food)}
    previous = None
    thrashing = total = 0
    for before, action, after in zip(states, result.actions, states[1:]):
        if before.turn != 0:
            continue
        if until is not None and total >= until:
            break
        total += 1
        place = (after.pacman_cell, after.food)
        if (previous is not None and action == REVERSE[previous]) or place in seen:
            thrashing += 1
        seen.add(place)
        previous = action
    return thrashing / total if total else 0.0


def hesitation(options: dict[str, str]) -> tuple[int, dict[str, float], str] | None:
    """Replay the agent's own searches: the first decision that undoes the previous move, with
    the root values it saw and its choice (``None`` if it never hesitates within the cap)."""
    layout = load_layout(LAYOUT)
    agent = lineup(layout, "minimax", [], 0, options)[0].build(0, random.Random(0))
    state = GameState.initial(layout, 0)
    previous = None
    for move in range(1, MAX_MOVES + 1):
        action = agent.get_action(state)
        report = agent.last_report()
        if previous is not None and action == REVERSE[previous]:
            return move, dict(report["root_values"]), action
        state = state.successor(action)
        if state.is_terminal or state.food_count < layout.food.bit_count():
            return None
        previous = action
    return None


def run(settings: Settings) -> Report:
    report = Report("thrashing", "Thrashing: a depth-2 Pacman next to a dot (seed 003)",
                    __doc__.split("\n\n", 1)[1])
    conditions = [GameJob(label, LAYOUT, "minimax", options, (), {}, 0, max_moves=MAX_MOVES)
                  for label, options in AGENTS.items()]
    summaries, results = play(conditions, settings)
    rows, data = [], {}
    for label, games in results.items():
        eaten = [first_dot_move(r) for r in games]
        ate = [m for m in eaten if m is not None]
        index = [thrash_index(r, until=FAIL_WITHIN) for r in games]
        within_fail = sum(1 for m in ate if m <= FAIL_WITHIN)
        within_fix = sum(1 for m in ate if m <= FIX_WITHIN)
        data[label] = {"games": len(games), "eaten": len(ate),
                       f"eaten_within_{FAIL_WITHIN}": within_fail,
                       f"eaten_within_{FIX_WITHIN}": within_fix,
                       "moves_to_dot": eaten, "mean_thrash_index": sum(index) / len(index)}
        rows.append([label, str(len(games)),
                     f"{within_fix} / {within_fail} / {len(ate)}",
                     f"{sum(ate) / len(ate):.1f}" if ate else "never",
                     f"{sum(index) / len(index):.2f}"])
    report.add(f"## Moves until the first dot ({MAX_MOVES}-move cap)\n\n" + markdown_table(
        ["Pacman (minimax, depth 2)", "games",
         f"dot eaten within {FIX_WITHIN} / {FAIL_WITHIN} / {MAX_MOVES} moves",
         "mean moves to the dot (games that ate it)",
         f"thrash index (first {FAIL_WITHIN} moves)"], rows)
        + "\n\nThe thrash index is the share of Pacman's moves that undo his previous move or "
          "bring him back to a place he has been with the same food left.")
    games = settings.games
    fails = games - data["score, first tie"][f"eaten_within_{FAIL_WITHIN}"]
    fixed = data["closest_dot"][f"eaten_within_{FIX_WITHIN}"]
    report.claim(f"with the score evaluation Pacman fails to eat the dot within {FAIL_WITHIN} "
                 "moves on most seeds", fails > games / 2, f"{fails} of {games} seeds")
    report.claim(f"with closest_dot he eats it within {FIX_WITHIN} moves",
                 fixed > games / 2, f"{fixed} of {games} seeds")
    seen = hesitation(AGENTS["score, first tie"])
    fixed_view = hesitation(AGENTS["closest_dot"])
    if seen is not None:
        move, values, action = seen
        report.add(f"## Why: the root values when it hesitates\n\nAt move {move} the score "
                   f"agent undoes its previous move. Its depth-2 search saw these root values:"
                   f"\n\n" + markdown_table(["action", "root value"],
                                            [[a, f"{v:g}"] for a, v in values.items()])
                   + f"\n\nEvery action ties: no dot is within two moves, so each plan is worth "
                     f"its move cost alone, and the first tied action in move order "
                     f"(`{action}`) is taken, back and forth.")
        data["hesitation"] = {"move": move, "root_values": values, "action": action}
        tied = len(set(values.values())) == 1
        report.claim("the hesitating search sees every move as equally good (tied root values)",
                     tied, ", ".join(f"{a} {v:g}" for a, v in values.items()))
    report.claim("closest_dot never undoes a move before eating the dot",
                 fixed_view is None, "no hesitation found" if fixed_view is None
                 else f"hesitates at move {fixed_view[0]}")
    figure_path = settings.out / "moves_to_dot.png"
    plot(data, figure_path)
    report.figure(figure_path.name, f"Share of seeds whose first dot was eaten by each move "
                                    f"(cap {MAX_MOVES})")
    report.data["conditions"] = data
    return report


def plot(data: dict, path) -> None:
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(7, 3.5))
    for label, row in data.items():
        if label == "hesitation":
            continue
        moves = row["moves_to_dot"]
        xs = list(range(0, MAX_MOVES + 1))
        ys = [sum(1 for m in moves if m is not None and m <= x) / len(moves) for x in xs]
        axes.step(xs, ys, where="post", label=label)
    axes.set_xlabel("Pacman moves")
    axes.set_ylabel("share of seeds with the dot eaten")
    axes.set_ylim(-0.02, 1.02)
    axes.legend(loc="lower right")
    save_figure(figure, path)


EXPERIMENT = Experiment("thrashing", "depth-2 Pacman thrashing next to a dot, and the fix",
                        "score vs closest_dot on the thrashing maze: moves to the dot, "
                        "thrash index, the tied root values", games=100, ci_games=10, run=run)
