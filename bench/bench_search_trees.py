"""Benchmark of the generic search core on implicit uniform random trees.

Run: ``python3 bench/bench_search_trees.py`` (``--help`` for the sizes).

1. Nodes generated per second by each algorithm on one uniform tree, with the
   ratio to plain minimax, and the cost of a bare recursive walk over the same
   game for comparison (the search core's own overhead is the difference).
2. Leaves evaluated versus depth for minimax and for alpha-beta under worst,
   random, evaluation and perfect move ordering, averaged over several trees;
   the fitted exponent of log_b(leaves) per ply is printed beside seed 000's
   b^(2d), b^(2*0.75d) and b^(2*0.5d) (one unit per ply here, so 1, 0.75 and
   0.5).  Perfect and worst orderings sort children by their true minimax
   value, computed by an exhaustive oracle pass; "evaluation" orders by a
   noisy evaluation (true value plus Gaussian noise of half the value spread).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.search import (  # noqa: E402
    TranspositionTable,
    alphabeta,
    expectimax,
    expectiminimax,
    iterative_deepening,
    maxn,
    mcts,
    minimax,
)
from agents.search.game import NodeKind  # noqa: E402
from agents.search.synthetic import UniformTree  # noqa: E402
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
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def throughput(b: int, height: int, seed: int) -> None:
    game = UniformTree(b, height, seed=seed)
    chance_game = UniformTree(b, height, seed=seed, chance_every=3)
    spread = game.spread
    runs = [
        ("minimax", lambda: minimax(game, game.root)),
        ("alphabeta", lambda: alphabeta(game, game.root)),
        ("alphabeta strict", lambda: alphabeta(game, game.root, strict=True)),
        ("alphabeta + evaluation order", lambda: alphabeta(game, game.root, order="evaluation")),
        ("alphabeta + random order", lambda: alphabeta(game, game.root, order="random", rng=random.Random(1))),
        ("alphabeta + table", lambda: alphabeta(game, game.root, table=TranspositionTable())),
        ("alphabeta + trace", lambda: alphabeta(game, game.root, trace=True)),
        ("iterative deepening (alphabeta)", lambda: iterative_deepening(game, game.root, max_depth=height)),
        ("expectimax", lambda: expectimax(game, game.root)),
        ("expectimax + bounds", lambda: expectimax(game, game.root, bounds=(-spread, spread))),
        ("expectiminimax (chance every 3rd ply)", lambda: expectiminimax(chance_game, chance_game.root)),
        ("max^n (pairs)", lambda: maxn(PairedTree(b, height, seed=seed), (0, 0))),
        ("mcts 3000 iterations", lambda: mcts(game, game.root, rng=random.Random(1), iterations=3000,
                                              scale=spread)),
    ]
    _, walk_time = timed(lambda: bare_walk(game, game.root))
    walk_nodes = sum(b**k for k in range(height + 1))
    print(f"1. Throughput on a uniform tree: b={b}, {height} plies, seed {seed}")
    print(f"   bare recursive walk (no search machinery): {walk_nodes / walk_time:,.0f} nodes/s")
    print(f"   {'algorithm':40s} {'generated':>10s} {'nodes/s':>12s} {'vs minimax':>11s} {'vs bare walk':>13s}")
    base = None
    for name, fn in runs:
        result, elapsed = timed(fn)
        rate = result.stats.nodes_generated / elapsed
        base = base or rate
        print(f"   {name:40s} {result.stats.nodes_generated:10,d} {rate:12,.0f} {rate / base:11.2f} "
              f"{rate / (walk_nodes / walk_time):13.2f}")
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
          f" {'seed 000':>14s} {'predicted':>10s}")
    for n in names:
        label, predicted = theory[n]
        pred = "-" if predicted is None else f"{predicted:.2f}"
        print(f"   {n:12s} {slopes[n]:12.3f} {slopes[n] / slopes['minimax']:10.3f} {b ** slopes[n]:12.2f}"
              f" {label:>14s} {pred:>10s}")
    print()
    print("   Exponents are per ply (seed 000's d counts moves of both players, so b^(2d) is b^plies).")
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
    args = parser.parse_args()
    throughput(args.throughput_b, args.throughput_height, seed=0)
    scaling(args.branching, args.max_depth, args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
