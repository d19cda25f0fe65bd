"""Property tests of the search algorithms on real Pacman positions, on every shipped maze.

Positions come from seeded random play (Pacman and ghosts all move at random, a game that ends
starts over). At most two ghosts play so that trees stay small; depth counts full rounds, as in
:class:`pacman.agents.pacman_game.PacmanGame`. Every algorithm is checked against a brute-force
reference written here from the recurrences alone, over ``state.legal_actions()`` and
``state.successor()``, without the search core.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents.evaluation import better, closest_dot, score
from pacman.agents.linear import LinearEvaluation
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.search import (
    TranspositionTable,
    alphabeta,
    expectimax,
    expectiminimax,
    iterative_deepening,
    minimax,
)
from pacman.engine.layout import Layout, load_layout, shipped_layout_names
from pacman.engine.rules import (
    EAT_GHOST_SCORE,
    FOOD_SCORE,
    LOSE_PENALTY,
    TIME_PENALTY,
    WIN_SCORE,
    successor,
)
from pacman.engine.state import GameState

LAYOUT_NAMES = shipped_layout_names()
MAX_GHOSTS = 2
#: Mazes too open for depth 3 within the time budget (tens of thousands of nodes per search).
WIDE = {"open_field"}
ORDERS = ("none", "evaluation", "random", "reversed")
EVALUATIONS: dict[str, Callable[[GameState], float]] = {
    "score": score,
    "closest_dot": closest_dot,
    "better": better,
    "linear": LinearEvaluation(),
}

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def layout_of(name: str) -> Layout:
    return load_layout(name)


def max_depth(name: str) -> int:
    return 2 if name in WIDE else 3


def random_position(name: str, seed: int, steps: int) -> GameState:
    """The non-terminal state after ``steps`` moves of seeded random play on maze ``name``.

    A game that ends starts over from the initial state; if the last move ended a game, the
    state before it is returned.
    """
    layout = layout_of(name)
    start = GameState.initial(layout, num_ghosts=min(MAX_GHOSTS, layout.num_ghosts))
    rng = random.Random(seed)
    state = previous = start
    for _ in range(steps):
        if state.is_terminal:
            state = start
        previous = state
        state = state.successor(rng.choice(state.legal_actions()))
    return previous if state.is_terminal else state


@st.composite
def cases(draw, name: str, evaluations: tuple[str, ...] = tuple(EVALUATIONS)):
    """``(state, depth, evaluation name)`` for maze ``name``."""
    state = random_position(name, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 120)))
    depth = draw(st.integers(1, max_depth(name)))
    return state, depth, draw(st.sampled_from(evaluations))


# --- the brute-force reference ------------------------------------------------------------------

def reference(state: GameState, depth: int, evaluate: Callable[[GameState], float], *,
              ghosts: str = "min", choices: dict | None = None) -> float:
    """Depth-limited minimax (``ghosts="min"``) or uniform expectimax (``ghosts="mean"``).

    ``depth`` counts rounds: the last agent's move of a round uses one up. End states are worth
    their score, states with no depth left their evaluation. With ``choices``, every MIN node
    records ``state -> (depth, first minimising action)``.
    """
    if state.is_terminal:
        return state.score
    if depth == 0:
        return evaluate(state)
    turn = state.turn
    next_depth = depth - 1 if turn == state.num_agents - 1 else depth
    actions = state.legal_actions()
    values = [reference(state.successor(a), next_depth, evaluate, ghosts=ghosts, choices=choices)
              for a in actions]
    if turn == 0:
        return max(values)
    if ghosts == "mean":
        total = 0.0
        for v in values:
            total += (1.0 / len(values)) * v
        return total
    best = min(values)
    if choices is not None:
        entry = (depth, actions[values.index(best)])
        # The informed game sees only the state, so one state must not need two choices.
        assert choices.setdefault(state, entry) == entry, f"{state!r} met at two depths"
    return best


def reference_root(state: GameState, depth: int, evaluate: Callable[[GameState], float],
                   ghosts: str = "min") -> tuple[float, dict[str, float]]:
    """The root value and the exact value of every root action."""
    turn = state.turn
    next_depth = depth - 1 if turn == state.num_agents - 1 else depth
    values = {a: reference(state.successor(a), next_depth, evaluate, ghosts=ghosts)
              for a in state.legal_actions()}
    if turn == 0:
        return max(values.values()), values
    if ghosts == "mean":
        total = 0.0
        for v in values.values():
            total += (1.0 / len(values)) * v
        return total, values
    return min(values.values()), values


def best_actions(state: GameState, values: dict[str, float]) -> list[str]:
    """The optimal root actions in move order."""
    target = max(values.values()) if state.turn == 0 else min(values.values())
    return [a for a, v in values.items() if v == target]


class CountingGame(PacmanGame):
    """A :class:`PacmanGame` counting its ``successor`` calls."""

    def __init__(self, evaluation: Callable[[GameState], float], *args, **kwargs) -> None:
        super().__init__(evaluation, *args, **kwargs)
        self.calls = 0

    def successor(self, state: GameState, action: str) -> GameState:  # type: ignore[override]
        self.calls += 1
        return successor(state, action)


# --- minimax, alpha-beta and the reference ------------------------------------------------------

@pytest.mark.parametrize("name", LAYOUT_NAMES)
@SETTINGS
@given(data=st.data())
def test_minimax_and_alphabeta_agree_with_the_reference(name, data):
    state, depth, ev = data.draw(cases(name))
    evaluate = EVALUATIONS[ev]
    value, values = reference_root(state, depth, evaluate)
    first_best = best_actions(state, values)[0]
    game = PacmanGame(evaluate)
    mm = minimax(game, state, depth=depth)
    assert mm.value == value
    assert mm.root_values == values
    assert mm.action == first_best
    for result in (alphabeta(game, state, depth=depth),
                   alphabeta(game, state, depth=depth, strict=True),
                   expectiminimax(game, state, depth=depth),
                   expectiminimax(game, state, depth=depth, prune=True)):
        assert result.value == value
        # In the same move order, ties included, the first best action is chosen.
        assert result.action == first_best
    assert alphabeta(game, state, depth=depth).stats.nodes_generated <= mm.stats.nodes_generated


@pytest.mark.parametrize("name", LAYOUT_NAMES)
@SETTINGS
@given(data=st.data())
def test_orderings_and_table_leave_alphabeta_unchanged(name, data):
    state, depth, ev = data.draw(cases(name))
    seed = data.draw(st.integers(0, 2**16))
    evaluate = EVALUATIONS[ev]
    value, values = reference_root(state, depth, evaluate)
    best = best_actions(state, values)
    game = PacmanGame(evaluate)
    plain = minimax(game, state, depth=depth).stats.nodes_generated
    for order in ORDERS:
        for table in (None, TranspositionTable()):
            result = alphabeta(game, state, depth=depth, order=order, rng=random.Random(seed),
                               table=table)
            assert result.value == value, (order, table is not None)
            assert result.action in best
            if len(best) == 1:
                assert result.action == best[0]
            if order != "evaluation":
                # Only evaluation ordering generates children that pruning would skip.
                assert result.stats.nodes_generated <= plain
        reordered = minimax(game, state, depth=depth, order=order, rng=random.Random(seed))
        assert reordered.value == value


@pytest.mark.parametrize("name", LAYOUT_NAMES)
@SETTINGS
@given(data=st.data())
def test_pruned_children_are_never_generated(name, data):
    state, depth, ev = data.draw(cases(name))
    seed = data.draw(st.integers(0, 2**16))
    evaluate = EVALUATIONS[ev]
    counting = CountingGame(evaluate)
    mm = minimax(counting, state, depth=depth)
    assert counting.calls == mm.stats.nodes_generated - 1
    for order in ORDERS:
        for table in (None, TranspositionTable()):
            counting.calls = 0
            result = alphabeta(counting, state, depth=depth, order=order,
                               rng=random.Random(seed), table=table)
            # Every successor the game computed is a generated node, the root excepted.
            assert counting.calls == result.stats.nodes_generated - 1, (order, table is not None)
    for bounded in (False, True):
        counting.calls = 0
        result = expectimax(counting, state, depth=depth,
                            bounds=score_bounds(state, depth) if bounded else None,
                            evaluate=score)
        assert counting.calls == result.stats.nodes_generated - 1


@pytest.mark.parametrize("name", LAYOUT_NAMES)
@SETTINGS
@given(data=st.data())
def test_iterative_deepening_equals_fixed_depth_alphabeta(name, data):
    state, depth, ev = data.draw(cases(name))
    evaluate = EVALUATIONS[ev]
    game = PacmanGame(evaluate)
    fixed = alphabeta(game, state, depth=depth)
    _, values = reference_root(state, depth, evaluate)
    best = best_actions(state, values)
    for order in ("none", "evaluation"):
        for reorder in ("none", "root", "all"):
            for table in (True, False):
                result = iterative_deepening(game, state, max_depth=depth, order=order,
                                             reorder=reorder, table=table)
                assert result.value == fixed.value, (order, reorder, table)
                assert result.action in best
                if len(best) == 1:
                    assert result.action == fixed.action
                assert result.stats.depth_reached <= depth


# --- expectimax ----------------------------------------------------------------------------------

def score_bounds(state: GameState, depth: int) -> tuple[float, float]:
    """Bounds on every utility and ``score`` evaluation within ``depth`` rounds of ``state``.

    From the rules' constants, with ``m = depth`` Pacman moves at most (a round has one),
    ``f`` dots and ``k`` ghosts:

    * each Pacman move costs ``TIME_PENALTY``, so at most ``m * TIME_PENALTY`` is lost to time,
      and a loss costs ``LOSE_PENALTY`` once (the game ends); nothing else loses points;
    * at most ``min(m, f)`` dots are eaten (``FOOD_SCORE`` each) and ``WIN_SCORE`` is only
      reachable if ``f <= m``;
    * a ghost can only be eaten while scared and is no longer scared after being eaten, so each
      ghost is eaten at most once per scared period (``EAT_GHOST_SCORE`` each): one period if
      any ghost is scared now, plus one per capsule within ``m`` moves of Pacman.
    """
    m = depth
    food = state.food_count
    k = state.num_ghosts
    periods = scared_periods(state, depth)
    lo = state.score - m * TIME_PENALTY - LOSE_PENALTY
    hi = (state.score + FOOD_SCORE * min(m, food) + (WIN_SCORE if food <= m else 0)
          + EAT_GHOST_SCORE * k * periods)
    return lo, hi


def scared_periods(state: GameState, depth: int) -> int:
    """How many scared periods the ghosts can have within ``depth`` rounds (see above)."""
    layout = state.layout
    row = layout.distance_rows[state.pacman_cell]
    near_capsules = sum(1 for c in layout.cells_of(state.capsules) if 0 <= row[c] <= depth)
    return (1 if any(state.scared_timers) else 0) + near_capsules


def better_bounds(state: GameState, depth: int) -> tuple[float, float]:
    """:func:`score_bounds` widened by the extra terms of :func:`pacman.agents.evaluation.better`.

    Beyond the score, ``better`` has a food term of at most 10 either way, adds at most
    ``100 / (d + 1) <= 100`` per scared ghost (only while one can be scared) and subtracts at
    most ``150 / (d + 1) <= 150`` per ghost, ``150`` when Pacman is cornered and ``20`` per
    capsule left (never more than now).
    The leaf check of the test below fails if ``better`` ever leaves these bounds.
    """
    lo, hi = score_bounds(state, depth)
    k = state.num_ghosts
    hunting = 100 * k if scared_periods(state, depth) else 0
    return lo - 10 - 150 * (k + 1) - 20 * state.capsules.bit_count(), hi + 10 + hunting


BOUNDS = {"score": score_bounds, "better": better_bounds}


@pytest.mark.parametrize("name", LAYOUT_NAMES)
@SETTINGS
@given(data=st.data())
def test_expectimax_pruning_with_valid_bounds_changes_nothing(name, data):
    state, depth, ev = data.draw(cases(name, tuple(BOUNDS)))
    evaluate = EVALUATIONS[ev]
    bounds = BOUNDS[ev](state, depth)
    value, values = reference_root(state, depth, evaluate, ghosts="mean")
    best = best_actions(state, values) if state.turn == 0 else [None]
    for game in (PacmanGame(evaluate), PacmanGame(evaluate, "uniform")):
        plain = expectimax(game, state, depth=depth)
        assert plain.value == value
        assert plain.action == best[0]
        for strict in (False, True):
            pruned = expectimax(game, state, depth=depth, bounds=bounds, strict=strict)
            assert pruned.value == plain.value
            assert pruned.action == plain.action
            assert pruned.stats.nodes_generated <= plain.stats.nodes_generated
    # The bounds are valid: every leaf of the tree lies inside them.
    leaves = expectimax(PacmanGame(evaluate), state, depth=depth, trace=True).stats.evaluated
    lo, hi = bounds
    for leaf in leaves:
        assert lo <= (leaf.score if leaf.is_terminal else evaluate(leaf)) <= hi


def test_expectimax_bounds_actually_prune():
    # Guard for the test above: with these bounds chance nodes do get cut on real positions.
    cutoffs = saved = 0
    for seed in range(40):
        state = random_position("small_classic", seed, 30 + seed)
        game = PacmanGame(score, "uniform")
        plain = expectimax(game, state, depth=2)
        pruned = expectimax(game, state, depth=2, bounds=score_bounds(state, 2))
        cutoffs += pruned.stats.cutoffs
        saved += plain.stats.nodes_generated - pruned.stats.nodes_generated
    assert cutoffs > 0 and saved > 0


@pytest.mark.parametrize("name", LAYOUT_NAMES)
@SETTINGS
@given(data=st.data())
def test_expectimax_with_point_mass_on_the_minimising_move_equals_minimax(name, data):
    state, depth, ev = data.draw(cases(name))
    evaluate = EVALUATIONS[ev]
    choices: dict[GameState, tuple[int, str]] = {}
    turn = state.turn
    next_depth = depth - 1 if turn == state.num_agents - 1 else depth
    for action in state.legal_actions():
        reference(state.successor(action), next_depth, evaluate, choices=choices)
    if turn != 0:
        value, values = reference_root(state, depth, evaluate)
        choices[state] = (depth, best_actions(state, values)[0])

    def minimiser(s: GameState, ghost: int) -> dict[str, float]:
        return {choices[s][1]: 1.0}

    informed = PacmanGame(evaluate, "informed", ghost_distribution=minimiser)
    mm = minimax(PacmanGame(evaluate), state, depth=depth)
    for result in (expectimax(informed, state, depth=depth),
                   expectiminimax(informed, state, depth=depth)):
        assert result.value == mm.value
        if turn == 0:
            assert result.action == mm.action
    if any(len(s.legal_actions()) > 1 for s in choices):
        # A uniform model averages over the ghosts' moves instead, and can only do better
        # (up to the rounding of a mean of equal values).
        uniform = expectimax(PacmanGame(evaluate), state, depth=depth).value
        assert uniform >= mm.value - 1e-9 * max(1.0, abs(mm.value))


def test_every_shipped_maze_is_covered():
    # The parametrisations above run on all of them; a maze with ghosts must keep some.
    assert len(LAYOUT_NAMES) >= 10
    for name in LAYOUT_NAMES:
        state = random_position(name, 0, 10)
        assert not state.is_terminal
        assert state.num_ghosts == min(MAX_GHOSTS, layout_of(name).num_ghosts)
