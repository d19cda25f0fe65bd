"""Engine speed on every shipped maze: successors/s, legal-action calls/s, random games/s.

Usage: ``python bench/bench_engine.py [--states N] [--games N] [--layouts a,b] [--cpu]
[--baseline DIR [--rounds N] [--rules classic]]``

States are sampled from seeded random play (all ghosts of the maze play); every legal successor
of every sampled state is generated. The last column compares successors/s with the engine's
targets (300,000/s on the 20x7 two-ghost maze, 100,000/s on the 28x27 four-ghost maze).

``--baseline DIR`` also loads the engine of another checkout (``DIR/pacman``, e.g. one made with
``git worktree add DIR main``) and times both engines on the same states in rounds of one
process, each round timing both, the one first in turn, so that the load of the machine falls
on both alike. The figure to decide by is the median of the rounds' ratios (this engine's rate
over the baseline's in the same round), printed with its quartiles: a burst of load spoils the
round it falls in, not the median, where each engine's best round (also printed) may come from
different moments of the load. ``--cpu`` times the rounds in CPU time. ``--rules classic``
times both engines' classic rules variant instead (states of its random play).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pacman.agents.basic import RandomPacman  # noqa: E402
from pacman.agents.ghosts import RandomGhost  # noqa: E402
from pacman.engine.game import random_play  # noqa: E402
from pacman.engine.game_loop import run_game  # noqa: E402
from pacman.engine.layout import load_layout, shipped_layout_names  # noqa: E402
from pacman.engine.rules import legal_actions, successor  # noqa: E402
from pacman.engine.state import GameState  # noqa: E402

TARGETS = {"small_classic": 300_000, "large_classic": 100_000}


def sample_states(layout, count: int, seed: int = 0) -> list[GameState]:
    return list(islice(random_play(GameState.initial(layout), random.Random(seed)), count))


#: the timer of every figure: wall-clock time, or this process's CPU time with ``--cpu``
TIMER = time.perf_counter


def best_of(repeats: int, work) -> float:
    """The shortest of ``repeats`` timings of ``work()`` (least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        began = TIMER()
        work()
        times.append(TIMER() - began)
    return min(times)


def bench_layout(name: str, states_wanted: int, games: int) -> dict:
    layout = load_layout(name)
    states = [s for s in sample_states(layout, states_wanted) if not s.is_terminal]
    pairs = [(s, a) for s in states for a in legal_actions(s, s[7])]

    def generate():
        for state, action in pairs:
            successor(state, action)

    def legal():
        for state in states:
            legal_actions(state, state[7])

    succ_rate = len(pairs) / best_of(3, generate)
    legal_rate = len(states) / best_of(3, legal)
    agents = [RandomPacman(0, random.Random(1))] + [
        RandomGhost(i, random.Random(i + 1)) for i in range(1, layout.num_ghosts + 1)]
    began = TIMER()
    for seed in range(games):
        run_game(layout, agents, seed=seed, max_moves=1000)
    game_rate = games / (TIMER() - began)
    return {"name": name, "size": f"{layout.width}x{layout.height}", "ghosts": layout.num_ghosts,
            "succ": succ_rate, "legal": legal_rate, "games": game_rate}


def load_baseline(checkout: str):
    """The ``rules``, ``layout``, ``state`` and ``game`` modules of the engine in ``checkout``,
    imported under the package name ``engine_baseline`` beside this checkout's ``pacman``."""
    source = Path(checkout) / "pacman"
    engine = "engine_baseline.engine" if (source / "engine" / "rules.py").is_file() else "engine_baseline"
    if not (source / "rules.py").is_file() and engine == "engine_baseline":
        sys.exit(f"--baseline {checkout}: no pacman/engine/rules.py (or pacman/rules.py) there")
    folder = Path(tempfile.mkdtemp(prefix="bench-baseline-"))
    target = folder / "engine_baseline"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\b(from|import) pacman\b", r"\1 engine_baseline", text)
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder))
    return {name: importlib.import_module(f"{engine}.{name}")
            for name in ("layout", "rules", "state", "game")}


def compare_engines(name: str, states_wanted: int, baseline: dict, rounds: int = 41,
                    variant: str = "default") -> dict:
    """Successors/s of the baseline engine and of this one on the same states (of the rules
    variant named ``variant``), timed in rounds that time both, the one first in turn: each
    engine's best round, and the median and quartiles of the rounds' ratios (this / baseline)."""
    timed = {}
    for label, layout_mod, rules, state_mod, game in (
            ("baseline", baseline["layout"], baseline["rules"], baseline["state"],
             baseline["game"]),
            ("this", sys.modules["pacman.engine.layout"], sys.modules["pacman.engine.rules"],
             sys.modules["pacman.engine.state"], sys.modules["pacman.engine.game"])):
        layout = layout_mod.load_layout(name)
        start = state_mod.state_class(variant).initial(layout)
        states = [s for s in islice(game.random_play(start, random.Random(0)), states_wanted)
                  if not s.is_terminal]
        pairs = [(s, a) for s in states for a in rules.legal_actions(s, s[7])]
        timed[label] = (rules.successor, pairs, [])
    gc.disable()  # a collection inside one engine's round would be charged to it alone
    engines = list(timed.values())
    for round_ in range(rounds):
        for succ, pairs, times in engines if round_ % 2 == 0 else engines[::-1]:
            began = TIMER()
            for state, action in pairs:
                succ(state, action)
            times.append(TIMER() - began)
    gc.enable()
    rates = {label: len(pairs) / min(times) for label, (_, pairs, times) in timed.items()}
    (_, base_pairs, base_times), (_, this_pairs, this_times) = timed["baseline"], timed["this"]
    ratios = [(len(this_pairs) / this) / (len(base_pairs) / base)
              for base, this in zip(base_times, this_times)]
    low, median, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    return {"name": name, **rates, "best ratio": rates["this"] / rates["baseline"],
            "ratio": median, "quartiles": (low, high)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--layouts", help="comma-separated maze names (default: all shipped)")
    parser.add_argument("--cpu", action="store_true",
                        help="time with this process's CPU time (figures independent of other "
                             "load on the machine) instead of wall-clock time")
    parser.add_argument("--baseline", metavar="DIR",
                        help="also time the engine of the checkout in DIR, side by side")
    parser.add_argument("--rounds", type=int, default=41,
                        help="rounds of --baseline, each timing both engines (the median of the "
                             "rounds' ratios decides)")
    parser.add_argument("--rules", default="default",
                        help="the rules variant --baseline times (default or classic)")
    args = parser.parse_args()
    if args.cpu:
        global TIMER
        TIMER = time.process_time
    names = args.layouts.split(",") if args.layouts else shipped_layout_names()
    if args.baseline:
        baseline = load_baseline(args.baseline)
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
              f"{'CPU' if args.cpu else 'wall-clock'} time, {args.rounds} rounds")
        print(f"{'maze':16} {'baseline succ/s':>16} {'this succ/s':>12} {'best ratio':>10} "
              f"{'median ratio':>12} {'quartiles':>13}")
        for name in names:
            row = compare_engines(name, args.states, baseline, args.rounds, args.rules)
            low, high = row["quartiles"]
            print(f"{name:16} {row['baseline']:>16,.0f} {row['this']:>12,.0f} "
                  f"{row['best ratio']:>10.3f} {row['ratio']:>12.3f} {low:>6.3f}-{high:.3f}",
                  flush=True)
        return
    print(f"{'maze':16} {'size':>6} {'ghosts':>6} {'successors/s':>13} {'legal/s':>12} "
          f"{'games/s':>8}  vs target")
    for name in names:
        row = bench_layout(name, args.states, args.games)
        target = TARGETS.get(name)
        versus = f"{row['succ'] / target:.1f}x of {target:,}" if target else ""
        print(f"{row['name']:16} {row['size']:>6} {row['ghosts']:>6} {row['succ']:>13,.0f} "
              f"{row['legal']:>12,.0f} {row['games']:>8.1f}  {versus}", flush=True)


if __name__ == "__main__":
    main()
