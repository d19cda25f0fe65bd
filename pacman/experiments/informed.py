"""Informed probabilities (the Pacman slides): the ghost runs depth-2 minimax with probability p and
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
above 10) and loses to neither by more than one dot (both intervals lie above -10: Pacman does
not know in advance which assumption is right); both paired score differences are stated. It
pays *but less than the lecture's effect* (200 points, :data:`EFFECT`) when the intervals it
beats lie below 200. It is *not borne out* when the true model loses to one assumption by more
than a dot (an interval below -10) or beats neither by one (both below 10), shows *no effect
of the lecture's size* when both intervals lie below 200 otherwise, and is *undecided*
otherwise. Each setting's reason is measured from its games: how often the true model plays
the identical game to each fixed assumption, where they part, and how often each is caught.
"""

from __future__ import annotations

from dataclasses import replace
from statistics import median

from pacman.batch import GameJob
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.power import (HOLDS, NOT_BORNE_OUT, NOT_LECTURE_SIZE, SMALLER, UNDECIDED,
                                      Decision, games_for_power, paired_sd)
from pacman.experiments.figures import intervals_figure
from pacman.experiments.games import (Paired, Played, add_gif, game_identity, outcome_table,
                                      paired_scores, percent, play, summary_data)
from pacman.engine.outcome import Outcome

PS = ("0.2", "0.8", "1.0")
#: Pacman's search depths per maze.
DEPTHS = {"trapped": ("2", "4"), "smallClassic": ("1", "2")}
GHOST_DEPTH = "2"
MAX_MOVES = 300
TRUE, UNIFORM, MINIMAX = "true model", "uniform model", "minimax"
#: A gain smaller than one dot does not count as paying.
MARGIN = 10.0
#: The gain the lecture's "informed probabilities" is taken to imply: twenty dots (two fifths
#: of a capture). A pilot (8 seeds) measured spreads that need about 45-120 seeds for 80 %
#: power at it on smallClassic, fewer on trapped.
EFFECT = 200.0


def best_games(played: Played, labels: dict[str, str]) -> int:
    return len(played.results[labels[TRUE]])


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


def divergence(played: Played, a: str, b: str) -> dict:
    """How the games of ``a`` and ``b`` differ seed by seed: identical games, the Pacman move
    at which the others first part (median), and the seeds each was caught on."""
    same, parts = 0, []
    caught = {a: 0, b: 0}
    for x, y in zip(played.results[a], played.results[b]):
        caught[a] += x.outcome == Outcome.LOSS
        caught[b] += y.outcome == Outcome.LOSS
        if game_identity(x) == game_identity(y):
            same += 1
            continue
        first = next((i for i, (m, n) in enumerate(zip(x.actions, y.actions)) if m != n),
                     min(len(x.actions), len(y.actions)))
        parts.append(1 + first // (1 + x.num_ghosts))  # actions alternate Pacman, ghosts
    return {"seeds": len(played.results[a]), "identical": same,
            "parts_at": median(parts) if parts else None,
            "caught": caught[a], "caught_other": caught[b]}


def measured_reason(name: str, other: str, d: dict) -> str:
    """What the games show about the true model against ``other``, in numbers."""
    text = (f"against {other} the true model plays the identical game on {d['identical']} of "
            f"{d['seeds']} seeds")
    if d["parts_at"] is not None:
        text += f"; the others part at Pacman's move {d['parts_at']:g} (median)"
    return text + (f"; the true model is caught on {d['caught']} seeds, {other} on "
                   f"{d['caught_other']}")


def pays_decision(tests: dict[str, Paired]) -> Decision:
    """The verdict of "knowing the model pays" from the paired tests of the true model against
    each fixed assumption (see the module docstring). Holding and not borne out exclude each
    other: one needs every difference above -10, the other one below -10 or all below 10."""
    gains = {k: t.decision(EFFECT, MARGIN) for k, t in tests.items()}
    beaten = [d for d in gains.values() if d.holds]
    loses_to_none = all(d.low > -MARGIN for d in gains.values())
    best = max(gains.values(), key=lambda d: d.low)
    if beaten and loses_to_none:
        verdict = SMALLER if max(d.high for d in beaten) < EFFECT else HOLDS
        return replace(best, holds=True, decided=True, verdict=verdict)
    if any(d.high < -MARGIN for d in gains.values()) or all(
            d.high < MARGIN for d in gains.values()):
        return replace(best, holds=False, decided=True, needed=None, verdict=NOT_BORNE_OUT)
    if all(d.high < EFFECT for d in gains.values()):
        return replace(best, holds=False, decided=True, needed=None, verdict=NOT_LECTURE_SIZE)
    # Open: a gain that may reach the lecture's effect, or a loss that may exceed a dot; sized
    # like every undecided claim, for 80 % power at the lecture's effect (from -10 to +200).
    needed = [d.needed for d in gains.values() if d.kind == UNDECIDED and d.needed]
    needed += [games_for_power(paired_sd(t.difference.low, t.difference.high, t.difference.n),
                               EFFECT + MARGIN)
               for k, t in tests.items() if gains[k].low <= -MARGIN]
    seeds = max(t.difference.n for t in tests.values())
    return replace(best, holds=False, decided=False, needed=max([seeds + 1, *needed]),
                   verdict=UNDECIDED)


def setting_claim(report: Report, played: Played, maze: str, p: str, depth: str) -> list[str]:
    """Does knowing the model pay here? Returns the setting's table row."""
    name = setting(maze, p, depth)
    labels = {k: f"{name}: {k}" for k in (TRUE, UNIFORM, MINIMAX)}
    means = {k: played.summary(v).mean_score for k, v in labels.items()}
    tests = {k: paired_scores(played, labels[TRUE], labels[k]) for k in (UNIFORM, MINIMAX)}
    decision = pays_decision(tests)
    reason = "; ".join(measured_reason(name, k, divergence(played, labels[TRUE], labels[k]))
                       for k in tests)
    if any(t.high < -MARGIN for t in tests.values()):
        reason = "the true model scores clearly lower than a fixed assumption: " + reason
    report.claim(f"{name}: knowing the model pays (the true model outscores uniform or "
                 "minimax by more than a dot, and neither outscores it by one)", decision.holds,
                 "; ".join(f"true minus {k}: {t.text()}" for k, t in tests.items()),
                 "two paired t-tests on shared seeds; holds if one 95 % interval of the score "
                 f"difference lies above {MARGIN:g} and both lie above -{MARGIN:g}, not borne "
                 f"out if one lies below -{MARGIN:g} or both below {MARGIN:g} (lecture: "
                 f"+{EFFECT:g})", reason, decision, best_games(played, labels))
    wins = {k: percent(played.summary(v).win_rate) for k, v in labels.items()}
    cost = (played.summary(labels[TRUE]).think_ms_per_move
            / max(1e-9, played.summary(labels[UNIFORM]).think_ms_per_move))
    return [maze, p, depth, *(f"{means[k]:.0f} ({wins[k]})" for k in (TRUE, UNIFORM, MINIMAX)),
            *(f"{t.difference.difference:+.1f} [{t.low:+.1f}, {t.high:+.1f}]"
              for t in tests.values()), report.claims[-1].verdict,
            f"{cost:.1f}x"]


def run(settings: Settings, grid: list[tuple[str, str, str]] | None = None) -> Report:
    report = Report("informed", "Informed probabilities (the Pacman slides)", __doc__.split("\n\n", 1)[1])
    grid = grid or [(m, p, d) for m, depths in DEPTHS.items() for p in PS for d in depths]
    played = play(conditions(grid), settings)
    rows = [setting_claim(report, played, *g) for g in grid]
    kinds = [c.kind for c in report.claims]
    named = {shown: [f"{r[0]} p={r[1]} depth {r[2]}" for r, k in zip(rows, kinds) if k == kind]
             for kind, shown in ((HOLDS, "pays"), (SMALLER, "pays, but less than the "
                                 "lecture's effect"), (NOT_LECTURE_SIZE, NOT_LECTURE_SIZE),
                                 (NOT_BORNE_OUT, NOT_BORNE_OUT), (UNDECIDED, UNDECIDED))}
    report.add("## Where knowing the model pays\n\n"
               + "".join(f"- {kind}: {len(names)} of {len(rows)} settings"
                         + (f" ({'; '.join(names)})" if names else "") + "\n"
                         for kind, names in named.items() if names)
               + "\nThe claims above give, for each setting, how often the true model's games "
                 "differ from the others', where they part, and how often each is caught.\n\n"
               + markdown_table(
        ["maze", "p", "depth", "true model: mean score (wins)", "uniform", "minimax",
         "true minus uniform [95 % paired]", "true minus minimax [95 % paired]", "verdict",
         "think time, true / uniform"], rows)
        + "\n\nThe true model costs a ghost search at every chance node (the Pacman slides: \"this "
          "kind of thing gets very slow very quickly\"): the last column is its think time "
          "per move over uniform expectimax's.")
    report.add(f"## All cells ({MAX_MOVES}-move cap)\n\n" + outcome_table(played))
    plot(played, grid, settings.out / "true_model_gain.png")
    report.figure("true_model_gain.png", "The true model's score minus each fixed "
                                         "assumption's, per setting (95 % paired intervals)")
    played.watch(report)
    add_gif(report, played, f"{setting(*grid[0])}: {TRUE}", settings)
    report.data["conditions"] = summary_data(played)
    report.data["settings"] = [r[:3] + r[6:9] for r in rows]
    return report


def plot(played: Played, grid: list[tuple[str, str, str]], path) -> None:
    rows = []
    for g in grid:
        name = setting(*g)
        for other in (UNIFORM, MINIMAX):
            t = paired_scores(played, f"{name}: {TRUE}", f"{name}: {other}")
            rows.append((f"{name}: true minus {other}", t.difference.difference, t.low, t.high))
    intervals_figure(rows, path, "score difference (points), 95 % paired-t interval",
                     [(0.0, "no difference"), (MARGIN, "one dot (the claim's threshold)"),
                      (EFFECT, "the lecture's effect (twenty dots)")])


EXPERIMENT = Experiment("informed", "informed probabilities",
                        "against p-minimax ghosts: expectimax with the true model, uniform "
                        "expectimax, minimax, across p, depth and mazes", games=60, ci_games=3,
                        run=run)
