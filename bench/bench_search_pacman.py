"""Benchmark of the search algorithms on real Pacman positions (``small_classic``: 20x7, 2 ghosts).

Run: ``python3 bench/bench_search_pacman.py`` (under two minutes on two cores; ``--help`` for
the sizes, e.g. ``--games 100 --positions 60`` for the full run, ``--sections 1,2`` for a part).

Positions are Pacman's turns taken from seeded random play (every agent moves at random, a game
that ends starts over). Searches use the adversarial :class:`pacman.agents.pacman_game.PacmanGame`
(each ghost a MIN layer; depth counts full rounds) and the ``better`` evaluation.

E. The cost per call of the ``better`` evaluation today and at the baseline revision
   (``bench/baseline.py`` imports that revision's search code, evaluation and Pacman adapter
   beside today's), on the leaves searches value.
1. Speed: nodes generated per second by minimax, alpha-beta, alpha-beta with evaluation
   ordering, alpha-beta with a transposition table, uniform expectimax and iterative deepening
   with the previous iteration's best moves first (the deepening agent's search) at a fixed depth,
   today and at the baseline revision, alternately in one process (same nodes, checked).
O. Move ordering: nodes, ordering evaluations and CPU time of alpha-beta and iterative
   deepening under no ordering, evaluation ordering (every child generated and scored) and the
   history heuristic with killer moves (no child generated to order).
2. Nodes generated versus depth for minimax and for alpha-beta under the four move orderings,
   with the fitted growth per round. ``G`` is minimax's growth per round; the Games I notes'
   predictions for a two-ply round are ``b^(2d)``, ``b^(2*0.75d)`` and ``b^(2*0.5d)`` with the
   per-ply factor ``b = sqrt(G)`` (so ``b^(2d) = G^d``: minimax's own growth). The exponent
   column is ``x`` in ``nodes ~ b^(2*x*d)``: 1 for minimax, 0.75 and 0.5 predicted for random
   and best ordering.
3. Iterative deepening (alpha-beta, evaluation ordering, transposition table) under a time
   budget per move: the depth its deepest finished iteration reached.
4. Strength: win rate and mean score of a few search agents over seeded games against two
   directional and against two random ghosts, played in worker processes; the last two rows
   are the strongest setting of docs/strongest-pacman.md (``strong`` evaluation,
   ``resist=true``) and the setting it replaced.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import os
import random
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.agents.evaluation import better  # noqa: E402
from pacman.agents.linear import make_linear_evaluation  # noqa: E402
from pacman.agents.pacman_game import PacmanGame  # noqa: E402
import pacman.agents.search  # noqa: E402
from pacman.agents.search import alphabeta, minimax  # noqa: E402
from pacman.agents.search.deepening import iterative_deepening  # noqa: E402
from pacman.engine.game import AgentSpec, random_play  # noqa: E402
from pacman.engine.game_loop import run_game  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.lineup.build import agent_spec, lineup  # noqa: E402
from pacman.engine.outcome import Outcome  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import BASELINE, load_baseline  # noqa: E402

LAYOUT = "small_classic"
ORDERS = ("none", "random", "evaluation", "reversed")


def sample_positions(count: int, seed: int, spacing: int = 7) -> list[GameState]:
    """``count`` non-terminal states with Pacman to move, every ``spacing``-th Pacman turn of
    seeded random play on :data:`LAYOUT` (a game that ends starts over)."""
    pacman_turns = (s for s in random_play(GameState.initial(load_layout(LAYOUT)),
                                           random.Random(seed)) if s.turn == 0)
    return list(islice(islice(pacman_turns, spacing - 1, None, spacing), count))


# --- 1. speed, beside the baseline revision ---------------------------------------------------

def speed_runs(search, game_type, evaluation, depth: int):
    """The timed searches of section 1, from one implementation (today's or the baseline's)."""
    game = game_type(evaluation)
    uniform = game_type(evaluation, "uniform")
    return [
        ("minimax", lambda s: search.minimax(game, s, depth=depth)),
        ("alpha-beta", lambda s: search.alphabeta(game, s, depth=depth)),
        ("alpha-beta + evaluation ordering",
         lambda s: search.alphabeta(game, s, depth=depth, order="evaluation")),
        ("alpha-beta + transposition table",
         lambda s: search.alphabeta(game, s, depth=depth, table=search.TranspositionTable())),
        ("expectimax (uniform ghosts)", lambda s: search.expectimax(uniform, s, depth=depth)),
        # the deepening agent's search: a table, the previous iteration's best moves first
        ("deepening (table, best moves first)",
         lambda s: search.iterative_deepening(game, s, max_depth=depth, reorder="all", table=True)),
    ]


def cpu_best_of(repeats: int, work) -> float:
    best = math.inf
    for _ in range(repeats):
        began = time.process_time()
        work()
        best = min(best, time.process_time() - began)
    return best


def speed(positions: list[GameState], depth: int, repeats: int, baseline_rev: str) -> None:
    old = load_baseline(baseline_rev)
    new_runs = speed_runs(pacman.agents.search, PacmanGame, better, depth)
    old_runs = speed_runs(old.search, old.pacman_game.PacmanGame, old.evaluation.better, depth)
    print(f"1. Speed at depth {depth} (rounds) over {len(positions)} positions of {LAYOUT}; best of "
          f"{repeats} CPU timings, today's code and revision {baseline_rev}'s alternately "
          f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"   {'algorithm':34s} {'nodes':>8s} {'nodes/s':>10s} {baseline_rev + ' n/s':>12s} "
          f"{'speed-up':>8s} {'nodes/mm':>9s}")
    base_nodes = None
    for (name, run), (_, old_run) in zip(new_runs, old_runs):
        results: list = []
        new_time = old_time = math.inf
        for _ in range(repeats):
            new_time = min(new_time, cpu_best_of(
                1, lambda run=run, results=results: results.append([run(s) for s in positions])))
            old_time = min(old_time, cpu_best_of(
                1, lambda run=old_run, results=results: results.append([run(s) for s in positions])))
        nodes = sum(r.stats.nodes_generated for r in results[0])
        old_nodes = sum(r.stats.nodes_generated for r in results[1])
        if nodes != old_nodes or [r.value for r in results[0]] != [r.value for r in results[1]]:
            raise SystemExit(f"{name}: nodes or values differ from {baseline_rev}")
        base_nodes = base_nodes or nodes
        print(f"   {name:34s} {nodes:8,d} {nodes / new_time:10,.0f} {nodes / old_time:12,.0f} "
              f"{old_time / new_time:8.2f} {nodes / base_nodes:9.3f}", flush=True)
    print()


def evaluation_speed(positions: list[GameState], depth: int, repeats: int, baseline_rev: str) -> None:
    """Cost per call of ``better`` today and at ``baseline_rev`` on the leaves searches value."""
    from pacman.agents import maze_tables

    old = load_baseline(baseline_rev)
    game = PacmanGame(better)
    leaves = [leaf for s in positions
              for leaf in alphabeta(game, s, depth=depth, trace=True).stats.evaluated
              if leaf.outcome is None]
    same = all(better(s) == old.evaluation.better(s) for s in leaves)

    def today_from_empty_tables():
        maze_tables.TABLES_BY_LAYOUT_ID.clear()
        for s in leaves:
            better(s)

    cold = cpu_best_of(repeats, today_from_empty_tables)
    warm = cpu_best_of(repeats, lambda: [better(s) for s in leaves])
    before = cpu_best_of(repeats, lambda: [old.evaluation.better(s) for s in leaves])
    n = len(leaves)
    print(f"E. The better evaluation on the {n:,d} leaves of depth-{depth} alpha-beta searches "
          f"from {len(positions)} positions of {LAYOUT} (equal values: {same}); CPU, best of {repeats}")
    print(f"   revision {baseline_rev}: {before / n * 1e6:6.2f} us per call")
    print(f"   today, tables built in the run: {cold / n * 1e6:6.2f} us per call "
          f"({before / cold:.1f}x faster)")
    print(f"   today, tables already built:    {warm / n * 1e6:6.2f} us per call "
          f"({before / warm:.1f}x faster)")
    print()


def ordering_cost(positions: list[GameState], depth: int, repeats: int) -> None:
    """Nodes and time of alpha-beta and iterative deepening under each move ordering."""
    game = PacmanGame(better)
    rows = [(f"alpha-beta depth {depth}, order={order}",
             lambda s, o=order: alphabeta(game, s, depth=depth, order=o))
            for order in ("none", "evaluation", "history")]
    rows += [(f"deepening to {depth}, order={order}, reorder={reorder}",
              lambda s, o=order, r=reorder: iterative_deepening(
                  game, s, max_depth=depth, order=o, reorder=r, table=True))
             for order, reorder in (("none", "root"), ("evaluation", "all"), ("history", "all"),
                                    ("none", "all"))]
    print(f"O. Move ordering over {len(positions)} positions of {LAYOUT}: nodes generated, Eval "
          f"calls made only to order, and CPU time (best of {repeats})")
    print(f"   {'search':52s} {'nodes':>9s} {'order evals':>11s} {'seconds':>8s}")
    for name, run in rows:
        results: list = []
        seconds = cpu_best_of(repeats, lambda run=run, results=results: results.append(
            [run(s) for s in positions]))
        stats = [r.stats for r in results[-1]]
        print(f"   {name:52s} {sum(s.nodes_generated for s in stats):9,d} "
              f"{sum(s.ordering_evaluations for s in stats):11,d} {seconds:8.3f}", flush=True)
    print()


# --- 2. nodes versus depth -------------------------------------------------------------------------

def fit_slope(depths: list[int], counts: list[float]) -> float:
    """Least-squares slope of ``ln(count)`` against depth."""
    xs, ys = depths, [math.log(c) for c in counts]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
            / sum((x - mx) ** 2 for x in xs))


def scaling(positions: list[GameState], max_depth: int, seed: int) -> None:
    game = PacmanGame(better)
    depths = list(range(1, max_depth + 1))
    names = ["minimax"] + [f"ab/{o}" for o in ORDERS]
    totals = {n: [0] * len(depths) for n in names}
    per_position_ratio: list[float] = []
    for i, state in enumerate(positions):
        for j, depth in enumerate(depths):
            mm = minimax(game, state, depth=depth).stats.nodes_generated
            totals["minimax"][j] += mm
            for order in ORDERS:
                result = alphabeta(game, state, depth=depth, order=order,
                                   rng=random.Random(seed * 1_000_003 + i * 101 + depth))
                totals[f"ab/{order}"][j] += result.stats.nodes_generated
                if order == "evaluation" and depth == 4:
                    per_position_ratio.append(result.stats.nodes_generated / mm)
    n = len(positions)
    means = {name: [t / n for t in row] for name, row in totals.items()}
    growth = math.exp(fit_slope(depths, means["minimax"]))
    b = math.sqrt(growth)
    print(f"2. Mean nodes generated versus depth over {n} positions of {LAYOUT} "
          f"(depth in rounds: Pacman + 2 ghosts)")
    header = "   " + f"{'':22s}" + "".join(f"{'d=' + str(d):>10s}" for d in depths)
    print(header + f"{'exponent':>10s}")
    minimax_slope = math.log(growth)
    for name in names:
        slope = fit_slope(depths, means[name])
        row = "".join(f"{v:10,.0f}" for v in means[name])
        print(f"   {name:22s}{row}{slope / minimax_slope:10.3f}")
    first = means["minimax"][0]
    for label, x in (("Games I: b^(2d)", 1.0), ("Games I: b^(2*0.75d)", 0.75),
                     ("Games I: b^(2*0.5d)", 0.5)):
        # Anchored at minimax's depth-1 count: only the growth is predicted, not the constant.
        row = "".join(f"{first * b ** (2 * x * (d - 1)):10,.0f}" for d in depths)
        print(f"   {label:22s}{row}{x:10.3f}")
    print(f"   minimax growth per round G = {growth:.2f}, per-ply b = sqrt(G) = {b:.2f}; "
          "exponent x: nodes ~ b^(2*x*d), least squares over all depths")
    if 4 in depths:
        j = depths.index(4)
        ratio = totals["ab/evaluation"][j] / totals["minimax"][j]
        verdict = "meets" if ratio <= 0.2 else "misses"
        print(f"   alpha-beta + evaluation ordering / minimax at depth 4: {ratio:.3f} of the nodes "
              f"(1/{1 / ratio:.1f}; target <= 1/5: {verdict}); per position median "
              f"{statistics.median(per_position_ratio):.3f}, "
              f"range {min(per_position_ratio):.3f}..{max(per_position_ratio):.3f}")
    print()


# --- 3. iterative deepening ------------------------------------------------------------------------

def deepening(positions: list[GameState], budget: float) -> None:
    game = PacmanGame(better)
    print(f"3. Iterative deepening alpha-beta ({budget} s per move, evaluation ordering, "
          f"transposition table) over {len(positions)} positions of {LAYOUT}")
    print(f"   {'previous-iteration reordering':30s} {'min':>4s} {'median':>7s} {'max':>4s} "
          f"{'nodes/move':>11s} {'>= 6':>6s}")
    for reorder in ("root", "all"):
        reached = []
        nodes = 0
        for state in positions:
            result = iterative_deepening(game, state, time_budget=budget, algorithm="alphabeta",
                                         order="evaluation", table=True, reorder=reorder)
            reached.append(result.stats.depth_reached)
            nodes += result.stats.nodes_generated
        share = sum(1 for d in reached if d >= 6) / len(reached)
        print(f"   {reorder:30s} {min(reached):4d} {statistics.median(reached):7.1f} "
              f"{max(reached):4d} {nodes / len(positions):11,.0f} {share:6.0%}", flush=True)
    print("   (a search that meets no depth cut stops early: the whole game below was searched)")
    print()


# --- 4. strength -----------------------------------------------------------------------------------

#: label -> (Pacman agent name, options as on the command line); ``evaluation=linear`` is built
#: with :func:`pacman.agents.linear.make_linear_evaluation` (default weights).
CONFIGS: dict[str, tuple[str, dict[str, str]]] = {
    "alphabeta depth=2 better": ("alphabeta", {"depth": "2", "evaluation": "better"}),
    "alphabeta depth=3 better": ("alphabeta", {"depth": "3", "evaluation": "better"}),
    "alphabeta depth=2 linear": ("alphabeta", {"depth": "2", "evaluation": "linear"}),
    "expectimax depth=2 better": ("expectimax", {"depth": "2", "evaluation": "better"}),
    "expectimax depth=3 informed": ("expectimax", {"depth": "3", "evaluation": "better",
                                                   "model": "directional"}),
    "deepening 0.05 s better": ("deepening", {"time_budget": "0.05", "evaluation": "better"}),
    # The strongest setting (docs/strongest-pacman.md) and the one it replaced, side by side.
    "deepening 0.04 s better": ("deepening", {"time_budget": "0.04", "order": "none"}),
    "deepening 0.04 s strong": ("deepening", {"time_budget": "0.04", "order": "none",
                                              "evaluation": "strong", "resist": "true"}),
}
GHOSTS = ("directional", "random")


def pacman_spec(label: str) -> AgentSpec:
    name, options = CONFIGS[label]
    if options.get("evaluation") == "linear":
        rest = {k: v for k, v in options.items() if k != "evaluation"}
        spec = agent_spec(name, "pacman", rest)
        typed = dict(spec.options, evaluation=make_linear_evaluation("default"))
        return AgentSpec(name=name, factory=spec.factory, options=typed,
                         raw_options=dict(options, evaluation="linear:default"))
    return agent_spec(name, "pacman", options)


def play(label: str, ghosts: str, seed: int, max_moves: int) -> tuple[str, int, int, float]:
    """One game in a worker: ``(outcome, score, Pacman moves, Pacman think seconds)``."""
    layout = load_layout(LAYOUT)
    specs = lineup(layout, "random", ghosts)
    specs[0] = pacman_spec(label)
    result = run_game(layout, specs, seed=seed, max_moves=max_moves)
    return result.outcome, result.score, result.moves, result.think_time[0]


def strength(games: int, workers: int, max_moves: int, labels: list[str]) -> None:
    print(f"4. Strength on {LAYOUT} over {games} seeded games per row (seeds 0..{games - 1}), "
          f"{workers} worker processes, at most {max_moves} Pacman moves")
    print(f"   {'Pacman':28s} {'ghosts':>14s} {'wins':>6s} {'win %':>6s} {'mean score':>11s} "
          f"{'± s.e.':>7s} {'moves':>6s} {'s/move':>7s} {'other':>8s}")
    began = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        jobs = {(label, ghosts): [pool.submit(play, label, ghosts, seed, max_moves)
                                  for seed in range(games)]
                for label in labels for ghosts in GHOSTS}
        for (label, ghosts), futures in jobs.items():
            results = [f.result() for f in futures]
            wins = sum(1 for r in results if r[0] == Outcome.WIN)
            scores = [r[1] for r in results]
            moves = sum(r[2] for r in results)
            think = sum(r[3] for r in results)
            other = sum(1 for r in results if r[0] not in (Outcome.WIN, Outcome.LOSS))
            error = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
            print(f"   {label:28s} {'2 ' + ghosts:>14s} {wins:6d} {wins / games:6.0%} "
                  f"{statistics.fmean(scores):11.1f} {error:7.1f} {moves / games:6.0f} "
                  f"{think / max(1, moves):7.4f} {other:8d}", flush=True)
    print(f"   ('other': games ending neither in a win nor a loss; {time.perf_counter() - began:.0f} s)")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30,
                        help="positions for sections 1 and 2 (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random play (default 0)")
    parser.add_argument("--speed-depth", type=int, default=3,
                        help="search depth of section 1 (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="timings per row in section 1")
    parser.add_argument("--max-depth", type=int, default=5,
                        help="deepest depth of section 2 (default 5)")
    parser.add_argument("--id-positions", type=int, default=20,
                        help="positions for section 3 (default 20)")
    parser.add_argument("--budget", type=float, default=0.2,
                        help="seconds per move in section 3 (default 0.2)")
    parser.add_argument("--games", type=int, default=20, help="games per row in section 4")
    parser.add_argument("--workers", type=int, default=2, help="worker processes in section 4")
    parser.add_argument("--max-moves", type=int, default=500,
                        help="Pacman move cap per game in section 4 (default 500)")
    parser.add_argument("--configs", default=None,
                        help=f"comma-separated row labels of section 4 (default: all of "
                             f"{'; '.join(CONFIGS)})")
    parser.add_argument("--sections", default="E,1,O,2,3,4", help="which sections to run")
    parser.add_argument("--baseline", default=BASELINE,
                        help=f"git revision timed beside today's code (default {BASELINE})")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    labels = [s.strip() for s in args.configs.split(",")] if args.configs else list(CONFIGS)
    for label in labels:
        if label not in CONFIGS:
            parser.error(f"unknown configuration {label!r}; known: {'; '.join(CONFIGS)}")
    positions = sample_positions(args.positions, args.seed)
    began = time.perf_counter()
    if "1" in sections:
        speed(positions, args.speed_depth, args.repeats, args.baseline)
    if "E" in sections:
        evaluation_speed(positions, args.speed_depth, args.repeats, args.baseline)
    if "O" in sections:
        ordering_cost(positions, args.speed_depth + 1, args.repeats)
    if "2" in sections:
        scaling(positions, args.max_depth, args.seed)
    if "3" in sections:
        deepening(sample_positions(args.id_positions, args.seed + 1), args.budget)
    if "4" in sections:
        strength(args.games, args.workers, args.max_moves, labels)
    print(f"total {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
