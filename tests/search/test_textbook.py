"""The textbook searches (``agents/search/textbook.py``) are the reference the fast paths equal.

On the lecture trees, on random trees and on real Pacman positions, the core search (and the
Pacman fast path behind it) gives the textbook's root value and action, generates the same
states in the same order and values the same leaves in the same order.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.search import TreeFormatError, alphabeta, expectimax, minimax, tree_from_dict
from pacman.agents.search import textbook
from pacman.agents.search.lecture_games import BUILTIN_TREES, builtin_tree
from pacman.agents.search.nodes import ChanceNodeError
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState
from pacman.agents.search.algorithms import algorithm_config
from pacman.agents.search.core import run_search
from search_support import FastPathSpy, reference_value, tree_dicts

FAST = {"minimax": minimax, "alphabeta": alphabeta, "expectimax": expectimax}
SLOW = {"minimax": textbook.minimax, "alphabeta": textbook.alphabeta, "expectimax": textbook.expectimax}


def assert_same_search(game, root, name, depth=None, **options):
    """The fast search and the textbook agree on value, action, visit order and leaf order."""
    trace = textbook.Trace()
    slow = SLOW[name](game, root, depth, None, trace, **options)
    fast = FAST[name](game, root, depth=depth, trace=True, **options)
    assert (fast.value, fast.action) == (slow.value, slow.action)
    assert list(fast.stats.generated) == trace.generated
    assert list(fast.stats.evaluated) == trace.evaluated
    assert fast.stats.nodes_generated == len(trace.generated)
    assert fast.stats.leaf_evaluations == len(trace.evaluated)
    return slow


def refused(tree: str, name: str, depth: int | None) -> type[Exception] | None:
    """The error the fast search refuses a lecture tree with (a chance node under minimax, a
    depth cut at a node with no static value), or ``None``."""
    game = builtin_tree(tree)
    try:
        FAST[name](game, game.root, depth=depth)
    except (ChanceNodeError, TreeFormatError) as error:
        return type(error)
    except Exception:  # a search broken otherwise is for the test of its case to report
        return None
    return None


LECTURE_CASES = [(tree, name, depth) for tree in sorted(BUILTIN_TREES) for name in sorted(FAST)
                 for depth in (None, 1, 2)]


@pytest.mark.parametrize("tree, name, depth", [c for c in LECTURE_CASES if refused(*c) is None])
def test_every_lecture_tree_searches_alike(tree, name, depth):
    game = builtin_tree(tree)
    assert_same_search(game, game.root, name, depth)


@pytest.mark.parametrize("tree, name, depth", [c for c in LECTURE_CASES if refused(*c) is not None])
def test_a_lecture_tree_the_fast_search_refuses_the_textbook_refuses(tree, name, depth):
    """Where the fast search refuses, the textbook refuses with the same error."""
    game = builtin_tree(tree)
    with pytest.raises(refused(tree, name, depth)):
        SLOW[name](game, game.root, depth)


def test_the_recitation_tree_by_the_textbook():
    """The recitation's worked tree: minimax 6 by A-C-H; alpha-beta values only E K Q N H I."""
    game = builtin_tree("recitation")
    assert textbook.minimax(game, game.root) == textbook.Decision(6, game.root.children[1].action)
    trace = textbook.Trace()
    textbook.alphabeta(game, game.root, trace=trace)
    assert [node.id for node in trace.evaluated] == ["E", "K", "Q", "N", "H", "I"]


def test_the_slides_expectimax_tree_is_worth_10():
    game = builtin_tree("slides_expectimax")
    assert textbook.expectimax(game, game.root).value == 10


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(tree=tree_dicts(), depth=st.one_of(st.none(), st.integers(0, 4)), strict=st.booleans())
def test_random_trees_search_alike(tree, depth, strict):
    game = tree_from_dict(tree)
    assert assert_same_search(game, game.root, "minimax", depth).value == reference_value(tree, depth)
    assert_same_search(game, game.root, "alphabeta", depth, strict=strict)


@SETTINGS
@given(tree=tree_dicts(kinds=("max", "min", "chance")), depth=st.one_of(st.none(), st.integers(0, 4)))
def test_random_chance_trees_search_alike_under_expectimax(tree, depth):
    game = tree_from_dict(tree)
    slow = assert_same_search(game, game.root, "expectimax", depth)
    assert slow.value == reference_value(tree, depth, min_as_chance=True)


def pacman_position(seed: int, name: str = "smallClassic") -> GameState:
    """A non-terminal position after seeded random play, with two ghosts."""
    state = GameState.initial(load_layout(name), num_ghosts=2)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        after = state.successor(rng.choice(state.legal_actions()))
        if after.is_terminal:
            break
        state = after
    return state


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", sorted(FAST))
def test_pacman_positions_search_alike_through_the_fast_path(seed, name):
    """The fast loop (``Search.node_value``) through Pacman's adapter equals the textbook node
    for node: the same value and action, the same states generated in the same order, the same
    states evaluated in the same order and as many end states valued. Only the generated states
    are traced (the loop then values leaves inline, as in play); the spy proves it ran."""
    game = PacmanGame(EVALUATIONS["better"])
    root = pacman_position(seed)
    evaluation = EVALUATIONS["better"].function
    slow_evaluated: list = []
    fast_evaluated: list = []

    def recording(into):
        def evaluate(state):
            into.append(state)
            return evaluation(state)
        return evaluate

    trace = textbook.Trace()
    slow = SLOW[name](game, root, 2, recording(slow_evaluated), trace)
    generated: list = []
    with FastPathSpy() as spy:
        fast = run_search(game, root, algorithm_config(name, depth=2, evaluate=recording(fast_evaluated)),
                          traces=(generated, None))
    assert spy.calls > 0
    assert (fast.value, fast.action) == (slow.value, slow.action)
    assert generated == trace.generated
    assert fast_evaluated == slow_evaluated
    assert fast.stats.terminal_utilities == sum(1 for s in trace.evaluated if s.is_terminal)
    assert fast.stats.leaf_evaluations == len(trace.evaluated)


def test_the_cut_hook_replaces_the_pruning_test():
    """``cut=never_cut`` is minimax however ``prune`` is set; the lecture's test is the default."""
    game = builtin_tree("recitation")
    plain, hooked, default = textbook.Trace(), textbook.Trace(), textbook.Trace()
    textbook.minimax(game, game.root, trace=plain)
    textbook.alphabeta(game, game.root, trace=hooked, cut=textbook.never_cut)
    textbook.alphabeta(game, game.root, trace=default, cut=textbook.lecture_cut(False))
    assert hooked.evaluated == plain.evaluated
    assert [node.id for node in default.evaluated] == ["E", "K", "Q", "N", "H", "I"]


def test_the_children_hook_may_generate_every_child_first():
    """An eager ``children`` generates a pruned node's children too, and the value is kept."""
    game = builtin_tree("recitation")

    def eager(game, state, trace):
        return [(a, textbook.generate(game, state, a, trace)) for a in game.actions(state)]

    lazy, every = textbook.Trace(), textbook.Trace()
    first = textbook.alphabeta(game, game.root, trace=lazy)
    second = textbook.alphabeta(game, game.root, trace=every, children=eager)
    assert first == second
    assert set(lazy.generated) < set(every.generated)


def test_a_decision_holds_each_root_actions_value():
    game = builtin_tree("recitation")
    decision = textbook.minimax(game, game.root)
    assert decision.values[decision.action] == decision.value == max(decision.values.values())
    assert set(decision.values) == set(game.actions(game.root))
