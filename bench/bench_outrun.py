"""Benchmark of the chase check (``outrun``): what the veto adds to a move of the strongest
setting, beside the search it follows.

Run: ``python3 bench/bench_outrun.py`` (about a minute; ``--moves``, ``--games``,
``--rounds``, ``--layout``, ``--budget``).

Positions are Pacman's turns from seeded games of the strongest setting against directional
ghosts (the first ``--moves`` of each game). At each, the setting's search (the deepening
agent without ``outrun``) runs under its CPU budget, then
:func:`pacman.agents.chase_survival.veto_trap` on its result; both are timed on the searching
thread's CPU clock. The veto runs twice: unbounded in time (its 500 nodes only), and as the
agent runs it, stopping once the decision has taken ``1 + OUTRUN_SHARE`` times the budget.
Printed: the search's and each veto's time per move (mean, 99th percentile, maximum), the whole
decision's (search and the bounded veto), the moves whose decision would take longer than that
limit with each veto, the veto's time as a share of the search's, and how often it changed the
move.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.agents.chase_survival import CheckBudget, veto_trap  # noqa: E402
from pacman.agents.evaluation import EVALUATIONS  # noqa: E402
from pacman.agents.ghosts import DirectionalGhost  # noqa: E402
from pacman.agents.search_agents import OUTRUN_SHARE, IterativeDeepeningAgent  # noqa: E402
from pacman.engine.layout import load_layout  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="originalClassic")
    parser.add_argument("--games", type=int, default=3, help="seeded games (3)")
    parser.add_argument("--moves", type=int, default=120, help="Pacman moves per game (120)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of the check (20)")
    parser.add_argument("--budget", type=float, default=0.04, help="CPU seconds per search")
    args = parser.parse_args()
    searcher = IterativeDeepeningAgent(0, random.Random(0), time_budget=args.budget,
                                       order="none", evaluation=EVALUATIONS["strong"],
                                       resist=True, focus="horizon")
    clock = time.thread_time
    searches: list[float] = []
    vetoes: list[float] = []
    bounded: list[float] = []
    limit = (1 + OUTRUN_SHARE) * args.budget
    changed = 0
    for seed in range(args.games):
        state = GameState.initial(load_layout(args.layout))
        ghosts = [DirectionalGhost(i, random.Random(f"{seed}:{i}"))
                  for i in range(1, len(state.positions))]
        for _ in range(args.moves):
            if state.outcome is not None:
                break
            result = searcher.search(state)  # the setting without outrun, timed by itself
            gc.disable()  # as during the agent's own veto
            # Alternately first: the second check of a position finds the maze tables warm.
            for first in (len(searches) % 2, 1 - len(searches) % 2):
                started = clock()
                if first:
                    chosen = veto_trap(state, result, args.rounds)
                    vetoes.append(clock() - started)
                else:
                    deadline = started + limit - result.stats.elapsed  # the search just ended
                    veto_trap(state, result, args.rounds, CheckBudget(clock=clock,
                                                                      deadline=deadline))
                    bounded.append(clock() - started)
            gc.enable()
            searches.append(result.stats.elapsed)
            changed += chosen.action != result.action
            state = state.successor(chosen.action)
            for ghost in ghosts:
                if state.outcome is not None:
                    break
                state = state.successor(ghost.get_action(state))
    print(f"{len(searches)} positions of {args.games} games on {args.layout}, "
          f"{args.budget * 1000:.0f} ms search budget, check of {args.rounds} rounds")
    print(f"{'CPU ms per move':16s} {'mean':>7s} {'p99':>7s} {'max':>7s}")
    unbounded_decisions = [a + b for a, b in zip(searches, vetoes)]
    decisions = [a + b for a, b in zip(searches, bounded)]
    for name, times in (("search", searches), ("veto", vetoes), ("bounded veto", bounded),
                        ("decision", decisions)):
        print(f"{name:16s} {1000 * statistics.fmean(times):7.2f} "
              f"{1000 * percentile(times, 0.99):7.2f} {1000 * max(times):7.2f}")
    over = [sum(t > limit for t in times) for times in (unbounded_decisions, decisions)]
    worst = [1000 * max(0.0, max(times) - limit) for times in (unbounded_decisions, decisions)]
    print(f"decisions over {1000 * limit:.0f} ms: {over[0]} with the unbounded veto (up to "
          f"{worst[0]:.2f} ms over), {over[1]} with the bounded one (up to {worst[1]:.2f} ms "
          "over: it reads the clock once a node)")
    print(f"veto / search: {statistics.fmean(vetoes) / statistics.fmean(searches):.3f} of the "
          f"time; moves changed: {changed} of {len(searches)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
