"""Alpha-beta pruning and move ordering (the Games I notes): nodes against depth, with fitted exponents.

The Games I notes: with branching factor b, minimax looks at b^(2d) nodes for d moves of each player;
alpha-beta with random ordering about b^(2*0.75d), with the best ordering b^(2*0.5d). We count
leaves on uniform random trees (b = 3, tie-free values) under the worst ordering (children
sorted worst-first by their true value), random, a noisy evaluation, and the perfect ordering
(best-first by true value), and fit the exponent x in leaves ~ b^(x*plies). On Pacman
positions (``small_classic``, two ghosts, depth in rounds) we count generated nodes for
minimax and alpha-beta under the same orderings (worst and perfect from the children's exact
depth-limited minimax values, found by a full minimax pass first) and under the game's own
move order and its reverse, and fit the growth per round relative to minimax.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any
from dataclasses import dataclass
from itertools import islice

from pacman.agents.evaluation import better
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.search import alphabeta, minimax
from pacman.agents.search.game import NodeKind
from pacman.agents.search.synthetic import UniformTree
from pacman.batch.plots import pyplot, save_figure
from pacman.experiments.base import Experiment, Report, Settings, markdown_table
from pacman.experiments.power import HOLDS, MOST_GAMES, NOT_BORNE_OUT, UNDECIDED, Decision
from pacman.engine.game import random_play
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState

BRANCHING = 3
TREE_PLIES = (2, 3, 4, 5, 6, 7, 8)
TREE_ORDERS = ("minimax", "worst", "random", "evaluation", "perfect")
PREDICTED = {"minimax": 1.0, "worst": 1.0, "random": 0.75, "perfect": 0.5}
PACMAN_DEPTHS = (1, 2, 3, 4)
PACMAN_ORDERS = ("worst", "none", "reversed", "random", "evaluation", "perfect")
#: Resamples of every bootstrap interval, and the fewest samples whose interval decides a claim
#: (as the experiments' sign test asks for six distinct pairs).
BOOTSTRAP_RESAMPLES = 999
FEWEST_SAMPLES = 6
#: One colour per ordering, the same in both panels of the figure.
COLOURS = {"minimax": "black", "worst": "tab:red", "none": "tab:brown", "reversed": "tab:pink",
           "random": "tab:orange", "evaluation": "tab:green", "perfect": "tab:blue"}


def oracle_values(game: UniformTree) -> dict[int, float]:
    """The true minimax value of every node of ``game``, by node index."""
    values: dict[int, float] = {}

    def solve(state) -> float:
        value: float
        if game.is_end(state):
            value = game.utility(state)
        else:
            children = [solve(game.successor(state, a)) for a in game.actions(state)]
            value = max(children) if game.kind(state) is NodeKind.MAX else min(children)
        values[state[0]] = value
        return value

    solve(game.root)
    return values


def ordering_runs(game: UniformTree, seed: int) -> dict[str, int]:
    """Leaves evaluated by minimax and by alpha-beta under each ordering on ``game``."""
    truth = oracle_values(game)
    b = game.b

    def by_truth(best_first: bool):
        def order(state, kind, actions):
            base = state[0] * b + 1
            return sorted(actions, key=lambda a: truth[base + a],
                          reverse=(kind is NodeKind.MAX) == best_first)
        return order

    def noisy(state) -> float:
        return truth[state[0]] + random.Random(state[0] * 7919 + seed).gauss(0.0, game.spread / 2)

    root = game.root
    return {
        "minimax": minimax(game, root).stats.terminal_utilities,
        "worst": alphabeta(game, root, order=by_truth(False)).stats.terminal_utilities,
        "random": alphabeta(game, root, order="random",
                            rng=random.Random(seed)).stats.terminal_utilities,
        "evaluation": alphabeta(game, root, order="evaluation",
                                evaluate=noisy).stats.terminal_utilities,
        "perfect": alphabeta(game, root, order=by_truth(True)).stats.terminal_utilities,
    }


def fit_exponent(depths: list[int], counts: list[float], base: float) -> float:
    """Least-squares slope of log_base(count) against depth."""
    ys = [math.log(c, base) for c in counts]
    mx, my = sum(depths) / len(depths), sum(ys) / len(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(depths, ys))
            / sum((x - mx) ** 2 for x in depths))


def tree_counts(trees: int, seed: int) -> dict[str, list[list[float]]]:
    """Leaves per ordering, tree and depth: ``counts[ordering][k][j]`` for tree ``k`` (seed
    ``seed + k``) at ``TREE_PLIES[j]`` plies."""
    counts: dict[str, list[list[float]]] = {name: [[] for _ in range(trees)]
                                            for name in TREE_ORDERS}
    for plies in TREE_PLIES:
        for k in range(trees):
            game = UniformTree(BRANCHING, plies, seed=seed + k, spread=10**9)
            for name, count in ordering_runs(game, seed + k).items():
                counts[name][k].append(float(count))
    return counts


def means(counts: list[list[float]]) -> list[float]:
    """The mean over samples (rows) at every depth (column)."""
    return [sum(column) / len(column) for column in zip(*counts)]


def tree_table(trees: int, seed: int) -> dict[str, list[float]]:
    """Mean leaves per ordering and depth over ``trees`` random trees per depth."""
    return {name: means(rows) for name, rows in tree_counts(trees, seed).items()}


@dataclass(frozen=True)
class Fitted:
    """A fitted exponent and its 95 % bootstrap interval over the samples (trees or
    positions): ``low == high == value`` when every resample gives the same fit (an exact
    count, as under the perfect ordering on uniform trees)."""

    value: float
    low: float
    high: float

    def text(self) -> str:
        if math.isnan(self.low):
            return f"{self.value:.2f} (one sample: no interval)"
        if self.low == self.high:
            return f"{self.value:.2f} (exact: every resample fits it)"
        return f"{self.value:.2f} [{self.low:.2f}, {self.high:.2f}]"


def bootstrap_interval(samples: int, statistic: Callable[[list[int]], float],
                       seed: int) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval (:func:`scipy.stats.bootstrap`) of
    ``statistic(indices)`` over resamples of ``samples`` samples, drawn with ``seed`` (the same
    resamples for every statistic of one run). One sample: no interval (``nan``)."""
    import numpy as np
    from scipy.stats import bootstrap

    if samples < 2:
        return math.nan, math.nan
    found = bootstrap((np.arange(samples),), lambda chosen: statistic([int(i) for i in chosen]),
                      vectorized=False, n_resamples=BOOTSTRAP_RESAMPLES, method="percentile",
                      confidence_level=0.95, rng=np.random.default_rng(seed))
    low, high = float(found.confidence_interval.low), float(found.confidence_interval.high)
    spread = found.bootstrap_distribution
    if float(spread.max() - spread.min()) <= 1e-9:  # every resample fits the same exponent
        return float(spread[0]), float(spread[0])
    return low, high


def fitted(counts: list[list[float]], depths: list[int], base: float | Callable[[list[int]], float],
           seed: int) -> Fitted:
    """The exponent of the mean counts against depth, with its bootstrap interval over the
    samples (``base`` a number, or a function of the resampled indices: minimax's growth on
    the same resample)."""
    def statistic(chosen: list[int]) -> float:
        b = base(chosen) if callable(base) else base
        return fit_exponent(depths, means([counts[i] for i in chosen]), b)

    value = statistic(list(range(len(counts))))
    low, high = bootstrap_interval(len(counts), statistic, seed)
    return Fitted(value, low, high)


def pacman_positions(count: int, seed: int) -> list[GameState]:
    """``count`` Pacman turns, every 7th of seeded random play on ``small_classic``."""
    start = GameState.initial(load_layout("small_classic"))
    turns = (s for s in random_play(start, random.Random(seed)) if s.turn == 0)
    return list(islice(turns, 6, 6 + 7 * count, 7))


def child_values(game: PacmanGame, state: GameState, depth: int) -> dict:
    """``state -> {action: exact value}`` for every expanded node of the depth-limited minimax
    tree of ``state`` (a state met at two depths keeps its values from the first meeting)."""
    table: dict = {}

    def value(s: GameState, d: int) -> float:
        if game.is_end(s):
            return game.utility(s)
        if d == 0:
            return game.evaluate(s)
        nd = d - 1 if game.ends_depth_unit(s) else d
        children = {a: value(game.successor(s, a), nd) for a in game.actions(s)}
        table.setdefault(s, children)
        return (max if game.kind(s) is NodeKind.MAX else min)(children.values())

    value(state, depth)
    return table


def by_value(table: dict, best_first: bool):
    """A move ordering from exact child values: best-first (perfect) or worst-first."""
    def order(state, kind, actions):
        children = table.get(state)
        if children is None:
            return list(actions)
        return sorted(actions, key=lambda a: children[a],
                      reverse=(kind is NodeKind.MAX) == best_first)
    return order


def pacman_counts(positions: list[GameState], seed: int) -> dict[str, list[list[float]]]:
    """Nodes generated per algorithm/ordering, position and depth: ``counts[name][i][j]``."""
    game = PacmanGame(better)
    counts: dict[str, list[list[float]]] = {name: [[] for _ in positions]
                                            for name in ("minimax", *PACMAN_ORDERS)}
    for i, state in enumerate(positions):
        for depth in PACMAN_DEPTHS:
            counts["minimax"][i].append(
                float(minimax(game, state, depth=depth).stats.nodes_generated))
            truth = child_values(game, state, depth)
            for order in PACMAN_ORDERS:
                spec = {"worst": by_value(truth, False),
                        "perfect": by_value(truth, True)}.get(order, order)
                rng = random.Random(seed * 1_000_003 + i * 101 + depth)
                counts[order][i].append(float(alphabeta(game, state, depth=depth, order=spec,
                                                        rng=rng).stats.nodes_generated))
    return counts


def pacman_table(positions: list[GameState], seed: int) -> dict[str, list[float]]:
    """Mean nodes generated per algorithm/ordering and depth over ``positions``."""
    return {name: means(rows) for name, rows in pacman_counts(positions, seed).items()}


def run(settings: Settings) -> Report:
    report = Report("pruning", "Alpha-beta pruning and move ordering (the Games I notes)",
                    __doc__.split("\n\n", 1)[1])
    counts, plies, fits = _tree_section(report, settings)
    pac_counts, depths, pac_fits = _pacman_section(report, settings)
    table = {name: means(rows) for name, rows in counts.items()}
    pac = {name: means(rows) for name, rows in pac_counts.items()}
    plot(table, pac, settings.out / "nodes_against_depth.png")
    report.figure("nodes_against_depth.png", "Leaves (trees) and nodes (Pacman) against depth, "
                                             "log scale; one colour per ordering in both panels")
    _tree_claims(report, fits, plies, len(counts["minimax"]))
    _pacman_claims(report, pac_counts, pac_fits, depths, settings.seed)
    report.add("## Games\n\nThis experiment searches positions and trees; it plays no games, "
               "so there is no game to replay. Every number above is deterministic given the "
               "seed; the intervals are 95 % percentile bootstrap intervals over the trees (or "
               "positions) drawn, refitting the exponent on every resample.")
    report.data["trees"] = {"plies": plies, "leaves": table,
                            "exponents": {k: f.value for k, f in fits.items()},
                            "intervals": {k: [f.low, f.high] for k, f in fits.items()}}
    report.data["pacman"] = {"depths": depths, "nodes": pac,
                             "exponents": {k: f.value for k, f in pac_fits.items()},
                             "intervals": {k: [f.low, f.high] for k, f in pac_fits.items()}}
    return report


def _tree_section(report: Report, settings: Settings) -> tuple[dict, list[int], dict]:
    """Leaves per ordering on random trees: the counts, the plies and the fitted exponents
    with their bootstrap intervals over trees."""
    trees = max(2, settings.games)
    counts = tree_counts(trees, settings.seed)
    plies = list(TREE_PLIES)
    fits = {name: fitted(rows, plies, BRANCHING, settings.seed) for name, rows in counts.items()}
    rows = [[name, *(f"{v:,.0f}" for v in means(counts[name])), fits[name].text(),
             f"{PREDICTED[name]:.2f}" if name in PREDICTED else "-"]
            for name in counts]
    report.add(f"## Random trees (b = {BRANCHING}, mean leaves over {trees} trees per depth)\n\n"
               + markdown_table(["ordering", *(f"{p} plies" for p in plies),
                                 "fitted x [95 % bootstrap]", "the Games I notes' x"], rows)
               + "\n\nx is the exponent in leaves ~ b^(x * plies); the Games I notes writes b^(2d), "
                 "b^(2*0.75d), b^(2*0.5d) with d moves per player, i.e. 2d plies. The interval "
                 "resamples the trees and refits.")
    return counts, plies, fits


def _pacman_section(report: Report, settings: Settings) -> tuple[dict, list[int], dict]:
    """Nodes per ordering on Pacman positions: the counts, the depths and the exponents
    relative to minimax (refitted with minimax's growth on every resample)."""
    positions = pacman_positions(max(2, settings.games), settings.seed)
    counts = pacman_counts(positions, settings.seed)
    depths = list(PACMAN_DEPTHS)

    def growth(chosen: list[int]) -> float:
        return math.exp(fit_exponent(depths, means([counts["minimax"][i] for i in chosen]),
                                     math.e))

    everything = list(range(len(positions)))
    pac_fits = {name: fitted(rows, depths, growth, settings.seed) for name, rows in counts.items()}
    rows = [[name if name == "minimax" else f"alpha-beta, {name}",
             *(f"{v:,.0f}" for v in means(row)), pac_fits[name].text()]
            for name, row in counts.items()]
    report.add(f"## Pacman positions ({len(positions)} positions of small_classic, depth in "
               f"rounds of 3 moves)\n\n"
               + markdown_table(["search", *(f"depth {d}" for d in depths),
                                 "exponent relative to minimax [95 % bootstrap]"], rows)
               + f"\n\nMinimax grows by {growth(everything):.1f}x per round here. Even the worst "
                 "ordering prunes on Pacman positions, unlike on the tie-free random trees: many "
                 "children have equal values (moves that change nothing within the horizon), "
                 "and a cut on v >= beta fires on a tie whatever the order.")
    return counts, depths, pac_fits


def band_decision(estimate: float, low: float, high: float, *, at_least: float | None = None,
                  at_most: float | None = None, samples: int, unit: str) -> Decision:
    """The claim "the quantity lies in [``at_least``, ``at_most``]" (either end may be open),
    decided on its 95 % interval ``[low, high]``: holds when the interval lies inside,
    not borne out when it lies wholly outside, else undecided (``needed``: the samples that
    would shrink the interval, as 1/sqrt(n), to clear the nearest end, if it can). An interval
    from fewer than :data:`FEWEST_SAMPLES` samples decides nothing (a bootstrap of so few has
    too few distinct resamples); an exact one (no spread) decides at any size."""
    inside = ((at_least is None or low >= at_least) and (at_most is None or high <= at_most))
    outside = ((at_least is not None and high < at_least)
               or (at_most is not None and low > at_most))
    verdict = HOLDS if inside else NOT_BORNE_OUT if outside else UNDECIDED
    needed = None
    if low != high and samples < FEWEST_SAMPLES:  # too few resamples to trust the interval
        inside, verdict, needed = False, UNDECIDED, FEWEST_SAMPLES
    elif verdict == UNDECIDED and not math.isnan(low):
        edges = [e for e in (at_least, at_most) if e is not None]
        distance = min(abs(estimate - e) for e in edges)
        half = (high - low) / 2
        if distance > 0 and half > 0:
            needed = max(samples + 1, min(MOST_GAMES, math.ceil(samples * (half / distance) ** 2)))
    edge = at_least if at_least is not None else at_most
    return Decision(inside, verdict != UNDECIDED, estimate, low, high, needed,
                    0.0 if edge is None else edge, None, unit, verdict)


def _tree_claims(report: Report, fits: dict[str, Fitted], plies: list[int], trees: int) -> None:
    """The Games I notes' exponents for perfect, random and worst ordering on random trees,
    decided on their bootstrap intervals."""
    fit_test = (f"least-squares slope of log_b(mean leaves) against plies over {plies[0]} to "
                f"{plies[-1]} plies, with its 95 % bootstrap interval over the {trees} trees; "
                "holds if the interval lies inside the band, not borne out if wholly outside")
    for name, text, band, reason in (
            ("perfect", "perfect ordering brings the exponent close to the Games I notes' 0.5 "
             "(within 0.1)", (0.4, 0.6), "odd ply counts and small depths bend the fit away "
             "from the asymptotic b^(d/2)"),
            ("random", "random ordering lands near the Games I notes' 0.75 (within 0.1)",
             (0.65, 0.85), "0.75 is an asymptotic figure; at these depths random ordering "
             "prunes more or less than the limit")):
        f = fits[name]
        decision = band_decision(f.value, f.low, f.high, at_least=band[0], at_most=band[1],
                                 samples=trees, unit="exponent")
        report.claim(text, decision.holds, f"fitted {f.text()}", fit_test, reason, decision,
                     trees, "trees")
    f = fits["worst"]
    decision = band_decision(f.value, f.low, f.high, at_least=0.9, samples=trees,
                             unit="exponent")
    report.claim("the worst ordering prunes almost nothing (exponent at least 0.9)",
                 decision.holds, f"fitted {f.text()}", fit_test,
                 "ties in the leaf values let alpha-beta cut even under the worst order",
                 decision, trees, "trees")


def _pacman_claims(report: Report, counts: dict, fits: dict[str, Fitted], depths: list[int],
                   seed: int) -> None:
    """Orderings on Pacman positions rank as on trees, and evaluation ordering pays; both
    decided on bootstrap intervals over the positions (the same resamples for every
    ordering, so the comparisons are paired)."""
    positions = len(counts["minimax"])

    def exponents(chosen: list[int]) -> dict[str, float]:
        growth = math.exp(fit_exponent(depths, means([counts["minimax"][i] for i in chosen]),
                                       math.e))
        return {name: fit_exponent(depths, means([rows[i] for i in chosen]), growth)
                for name, rows in counts.items()}

    def margin(chosen: list[int]) -> float:
        """How far perfect lies below every other ordering and worst above every other
        alpha-beta ordering (the smaller of the two; at least 0 when the ranking holds)."""
        x = exponents(chosen)
        others = [v for k, v in x.items() if k not in ("minimax", "perfect")]
        middle = [v for k, v in x.items() if k not in ("minimax", "perfect", "worst")]
        return min(min(others) - x["perfect"], x["worst"] - max(middle))

    everything = list(range(positions))
    value = margin(everything)
    low, high = bootstrap_interval(positions, margin, seed)
    decision = band_decision(value, low, high, at_least=-1e-9, samples=positions,
                             unit="exponent margin")
    report.claim("on Pacman positions too, perfect ordering prunes most and worst ordering "
                 "least", decision.holds,
                 ", ".join(f"{k} {v.value:.2f}" for k, v in fits.items())
                 + f"; margin {value:.3f} [{low:.3f}, {high:.3f}]",
                 "growth exponents relative to minimax, fitted over depths "
                 f"{depths[0]}-{depths[-1]}; the margin (perfect below every other ordering, "
                 "worst above every other alpha-beta ordering) with its 95 % bootstrap interval "
                 "over positions; holds if the interval lies at or above 0",
                 "many tied child values on Pacman positions make orderings prune alike",
                 decision, positions, "positions")
    deepest = len(depths) - 1

    def ratio(chosen: list[int]) -> float:
        return (sum(counts["evaluation"][i][deepest] for i in chosen)
                / sum(counts["minimax"][i][deepest] for i in chosen))

    value = ratio(everything)
    low, high = bootstrap_interval(positions, ratio, seed)
    decision = band_decision(value, low, high, at_most=0.2, samples=positions,
                             unit="share of minimax's nodes")
    report.claim(f"on Pacman positions, alpha-beta with evaluation ordering at depth "
                 f"{depths[deepest]} generates at most a fifth of minimax's nodes",
                 decision.holds, f"{value:.3f} [{low:.3f}, {high:.3f}] of minimax's nodes",
                 f"mean nodes over {positions} positions, alpha-beta over minimax, with its "
                 "95 % bootstrap interval over positions; holds if the interval lies at or "
                 "below 0.2", "the evaluation orders children poorly at these positions",
                 decision, positions, "positions")


def figure_of(trees: dict[str, list[float]], pacman: dict[str, list[float]]) -> Any:
    """The figure: leaves against plies on random trees (left) and nodes against depth on
    Pacman positions (right), one colour per ordering in both panels, whole-number ticks."""
    plt = pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, row in trees.items():
        left.plot(TREE_PLIES, row, marker="o", color=COLOURS[name], label=name)
    for x, style in ((1.0, ":"), (0.75, "--"), (0.5, "-.")):
        left.plot(TREE_PLIES, [BRANCHING ** (x * p) for p in TREE_PLIES], style, color="grey",
                  linewidth=1, label=f"b^({x:g} plies)")
    left.set_yscale("log")
    left.set_xticks(list(TREE_PLIES))
    left.set_xlabel("plies")
    left.set_ylabel("leaves evaluated")
    left.set_title(f"random trees, b = {BRANCHING}")
    left.legend(fontsize=7)
    for name, row in pacman.items():
        right.plot(PACMAN_DEPTHS, row, marker="o", color=COLOURS[name],
                   label=name if name == "minimax" else f"alpha-beta, {name}")
    right.set_yscale("log")
    right.set_xticks(list(PACMAN_DEPTHS))
    right.set_xlabel("depth (rounds)")
    right.set_ylabel("nodes generated")
    right.set_title("Pacman positions, small_classic")
    right.legend(fontsize=7)
    return figure


def plot(trees: dict[str, list[float]], pacman: dict[str, list[float]], path) -> None:
    """Draw :func:`figure_of` into ``path``."""
    save_figure(figure_of(trees, pacman), path)


EXPERIMENT = Experiment("pruning", "alpha-beta pruning and move ordering",
                        "nodes against depth under worst, random, evaluation and perfect "
                        "ordering, on random trees and Pacman positions", games=20, ci_games=3,
                        run=run)
