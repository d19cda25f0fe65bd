"""Benchmark of the generic search core on implicit uniform random trees.

Run: ``python3 bench/bench_search_trees.py`` (``--help`` for the sizes).

1. Nodes generated per second by each algorithm on one uniform tree, with the
   ratio to plain minimax, and the cost of a bare recursive walk over the same
   game for comparison (the search core's own overhead is the difference).
2. Leaves evaluated versus depth for minimax and for alpha-beta under worst,
   random, evaluation and perfect move ordering, averaged over several trees;
   the fitted exponent of log_b(leaves) per ply is printed beside the Games I notes'
   b^(2d), b^(2*0.75d) and b^(2*0.5d) (one unit per ply here, so 1, 0.75 and
   0.5).  Perfect and worst orderings sort children by their true minimax
   value, computed by an exhaustive oracle pass; "evaluation" orders by a
   noisy evaluation (true value plus Gaussian noise of half the value spread).
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pacman.agents.search  # noqa: E402
import pacman.agents.search.synthetic  # noqa: E402
from baseline import BASELINE, load_baseline  # noqa: E402
from pacman.agents.search.game import NodeKind  # noqa: E402
from pacman.agents.search.synthetic import UniformTree  # noqa: E402
from pacman.experiments.pruning import fit_exponent as fit_slope  # noqa: E402
from pacman.experiments.pruning import ordering_runs  # noqa: E402


class PairedTree(UniformTree):
    """The same tree with utility tuples (v, -v), for max^n."""

    def player(self, state):
        return state[1] % 2

    def utility(self, state):
        v = super().utility(state)
        return (v, -v)

    def evaluate(self, state):
        v = super().evaluate(state)
        return (v, -v)


def bare_walk(game, state):
    """Minimax without any search machinery: the floor for per-node cost."""
    if game.is_end(state):
        return game.utility(state)
    k = game.kind(state)
    game.ends_depth_unit(state)
    values = [bare_walk(game, game.successor(state, a)) for a in game.actions(state)]
    return max(values) if k is NodeKind.MAX else min(values)


def timed(fn):
    """``(fn(), CPU seconds it took)``: CPU time, so other load on the machine does not count."""
    start = time.process_time()
    result = fn()
    return result, time.process_time() - start


def throughput_runs(search, b: int, height: int, seed: int) -> list[tuple[str, object]]:
    """The timed searches, built from one implementation of :mod:`pacman.agents.search` (today's or the
    baseline's: each with its own trees, since node kinds are compared by identity)."""
    UniformTree = search.synthetic.UniformTree
    game = UniformTree(b, height, seed=seed)
    chance_game = UniformTree(b, height, seed=seed, chance_every=3)
    spread = game.spread
    return [
        ("minimax", lambda: search.minimax(game, game.root)),
        ("alphabeta", lambda: search.alphabeta(game, game.root)),
        ("alphabeta strict", lambda: search.alphabeta(game, game.root, strict=True)),
        ("alphabeta + evaluation order", lambda: search.alphabeta(game, game.root, order="evaluation")),
        ("alphabeta + random order", lambda: search.alphabeta(game, game.root, order="random",
                                                              rng=random.Random(1))),
        ("alphabeta + table", lambda: search.alphabeta(game, game.root,
                                                       table=search.TranspositionTable())),
        ("alphabeta + trace", lambda: search.alphabeta(game, game.root, trace=True)),
        ("iterative deepening (alphabeta)", lambda: search.iterative_deepening(game, game.root,
                                                                               max_depth=height)),
        ("expectimax", lambda: search.expectimax(game, game.root)),
        ("expectimax + bounds", lambda: search.expectimax(game, game.root, bounds=(-spread, spread))),
        ("expectiminimax (chance every 3rd ply)",
         lambda: search.expectiminimax(chance_game, chance_game.root)),
        ("max^n (pairs)", lambda: search.maxn(paired_tree(search)(b, height, seed=seed), (0, 0))),
        ("mcts 3000 iterations", lambda: search.mcts(game, game.root, rng=random.Random(1),
                                                     iterations=3000, scale=spread)),
    ]


def paired_tree(search):
    if search is pacman.agents.search:
        return PairedTree

    class OldPairedTree(search.synthetic.UniformTree):
        player = PairedTree.player

        def utility(self, state):
            v = super().utility(state)
            return (v, -v)

        def evaluate(self, state):
            v = super().evaluate(state)
            return (v, -v)

    return OldPairedTree


def throughput(b: int, height: int, seed: int, baseline_rev: str | None, repeats: int) -> None:
    game = UniformTree(b, height, seed=seed)
    _, walk_time = timed(lambda: bare_walk(game, game.root))
    walk_nodes = sum(b**k for k in range(height + 1))
    print(f"1. Throughput on a uniform tree: b={b}, {height} plies, seed {seed}; best of {repeats}")
    print(f"   bare recursive walk (no search machinery): {walk_nodes / walk_time:,.0f} nodes/s")
    new_runs = throughput_runs(pacman.agents.search, b, height, seed)
    old_runs = None
    if baseline_rev is not None:
        old = load_baseline(baseline_rev).search
        importlib.import_module(old.__name__ + ".synthetic")
        old_runs = throughput_runs(old, b, height, seed)
        print(f"   'vs {baseline_rev}': today's nodes/s over revision {baseline_rev}'s, timed "
              "alternately in this process (same nodes)")
    print(f"   {'algorithm':40s} {'generated':>10s} {'nodes/s':>12s} {'vs minimax':>11s} {'vs bare walk':>13s}"
          + (f" {'vs ' + baseline_rev:>10s}" if old_runs else ""))
    base = None
    old_total = new_total = 0.0
    for i, (name, fn) in enumerate(new_runs):
        new_time = old_time = math.inf
        for _ in range(repeats):
            result, elapsed = timed(fn)
            new_time = min(new_time, elapsed)
            if old_runs:
                old_result, elapsed = timed(old_runs[i][1])
                old_time = min(old_time, elapsed)
                if old_result.stats.nodes_generated != result.stats.nodes_generated:
                    raise SystemExit(f"{name}: node counts differ from {baseline_rev}")
        rate = result.stats.nodes_generated / new_time
        base = base or rate
        versus = f" {old_time / new_time:10.3f}" if old_runs else ""
        new_total += new_time
        old_total += old_time
        print(f"   {name:40s} {result.stats.nodes_generated:10,d} {rate:12,.0f} {rate / base:11.2f} "
              f"{rate / (walk_nodes / walk_time):13.2f}{versus}", flush=True)
    if old_runs:
        print(f"   all rows: {old_total / new_total:.3f}x the speed of {baseline_rev}")
    print()


def scaling(b: int, max_depth: int, seeds: int) -> None:
    names = ["minimax", "worst", "random", "evaluation", "perfect"]
    table: dict[int, dict[str, float]] = {}
    for depth in range(1, max_depth + 1):
        totals = dict.fromkeys(names, 0)
        for seed in range(seeds):
            # Tie-free leaf values: ties would let alpha-beta prune even under "worst" ordering.
            game = UniformTree(b, depth, seed=seed, spread=10**9)
            for name, count in ordering_runs(game, seed).items():
                totals[name] += count
        table[depth] = {name: totals[name] / seeds for name in names}

    print(f"2. Leaves evaluated versus depth: b={b}, mean over {seeds} random trees per depth")
    print("   " + f"{'plies':>5s}" + "".join(f"{n:>12s}" for n in names) + f"{'b^(d/2)':>12s}")
    for depth, row in table.items():
        best_case = b ** math.ceil(depth / 2) + b ** (depth // 2) - 1  # Knuth and Moore's minimal tree
        print("   " + f"{depth:5d}" + "".join(f"{row[n]:12,.0f}" for n in names) + f"{best_case:12,d}")
    fit_from = 2 if max_depth >= 4 else 1
    depths = [d for d in table if d >= fit_from]
    slopes = {n: fit_slope(depths, [table[d][n] for d in depths], b) for n in names}
    theory = {"minimax": ("b^(2d)", 1.0), "worst": ("b^(2d)", 1.0), "random": ("b^(2*0.75d)", 0.75),
              "evaluation": ("-", None), "perfect": ("b^(2*0.5d)", 0.5)}
    print()
    print(f"   Fitted growth over plies {depths[0]}..{depths[-1]} (least squares of log_b leaves):")
    print(f"   {'ordering':12s} {'exponent/ply':>12s} {'x minimax':>10s} {'effective b':>12s}"
          f" {'Games I notes':>14s} {'predicted':>10s}")
    for n in names:
        label, predicted = theory[n]
        pred = "-" if predicted is None else f"{predicted:.2f}"
        print(f"   {n:12s} {slopes[n]:12.3f} {slopes[n] / slopes['minimax']:10.3f} {b ** slopes[n]:12.2f}"
              f" {label:>14s} {pred:>10s}")
    print()
    print("   Exponents are per ply (the Games I notes' d counts moves of both players, so b^(2d) is b^plies).")
    print("   'worst' sorts every node's children worst-first by true value; deep nodes can still cut")
    print("   against bounds inherited from above, so it stays a little below minimax.  The fit over")
    print("   few plies also absorbs the odd/even zig-zag of the minimal tree (last column).")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--branching", type=int, default=4, help="branching factor of the scaling trees (4)")
    parser.add_argument("--max-depth", type=int, default=8, help="deepest scaling tree in plies (8)")
    parser.add_argument("--seeds", type=int, default=3, help="random trees per depth (3)")
    parser.add_argument("--throughput-b", type=int, default=5, help="branching of the throughput tree (5)")
    parser.add_argument("--throughput-height", type=int, default=7, help="plies of the throughput tree (7)")
    parser.add_argument("--baseline", default=BASELINE,
                        help=f"git revision timed beside today's code ({BASELINE}; 'none' to skip)")
    parser.add_argument("--repeats", type=int, default=3, help="timings per throughput row (3)")
    parser.add_argument("--sections", default="1,2", help="which sections to run (1,2)")
    args = parser.parse_args()
    baseline = None if args.baseline == "none" else args.baseline
    if "1" in args.sections.split(","):
        throughput(args.throughput_b, args.throughput_height, 0, baseline, args.repeats)
    if "2" in args.sections.split(","):
        scaling(args.branching, args.max_depth, args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
