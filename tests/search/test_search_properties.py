"""Property tests on random trees: every algorithm agrees with an independent reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents.search import (
    TranspositionTable,
    alphabeta,
    expectimax,
    expectiminimax,
    iterative_deepening,
    minimax,
    tree_from_dict,
)
from search_support import (
    CountingGame,
    count_nodes,
    dag_reference,
    layered_dags,
    optimal_actions,
    reference_value,
    subsequence,
    tree_dicts,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
depths = st.one_of(st.none(), st.integers(0, 4))
ORDERS = ["none", "reversed", "random", "evaluation"]


def root_action(tree, depth=None):
    """The action the reference picks: the first optimal one in move order (None at chance roots)."""
    best = optimal_actions(tree, depth)
    return best[0] if best and tree["kind"] != "chance" else None


def game_of(tree):
    game = tree_from_dict(tree)
    return game, game.root


@SETTINGS
@given(tree=tree_dicts(), depth=depths)
def test_minimax_matches_reference(tree, depth):
    game, root = game_of(tree)
    result = minimax(game, root, depth=depth)
    assert result.value == reference_value(tree, depth)
    assert result.action == root_action(tree, depth)


@SETTINGS
@given(tree=tree_dicts(), depth=depths, strict=st.booleans())
def test_alphabeta_equals_minimax_value_and_action(tree, depth, strict):
    game, root = game_of(tree)
    full = minimax(game, root, depth=depth, trace=True)
    pruned = alphabeta(game, root, depth=depth, strict=strict, trace=True)
    assert pruned.value == full.value
    # With "strictly better replaces" the first best root child wins in both searches, even on
    # ties: later equal children come back as bounds <= alpha and never replace it.
    assert pruned.action == full.action
    assert pruned.stats.nodes_generated <= full.stats.nodes_generated
    # alpha-beta generates a subsequence of minimax's depth-first generation order
    assert subsequence(list(pruned.stats.generated), list(full.stats.generated))
    assert subsequence(list(pruned.stats.evaluated), list(full.stats.evaluated))


@SETTINGS
@given(tree=tree_dicts(), depth=depths)
def test_non_strict_pruning_never_generates_more_than_strict(tree, depth):
    game, root = game_of(tree)
    strict = alphabeta(game, root, depth=depth, strict=True)
    loose = alphabeta(game, root, depth=depth)
    assert loose.stats.nodes_generated <= strict.stats.nodes_generated
    assert loose.value == strict.value


@SETTINGS
@given(tree=tree_dicts(), depth=depths, prune=st.booleans())
def test_pruned_children_are_never_generated(tree, depth, prune):
    game, root = game_of(tree)
    counting = CountingGame(game)
    result = (alphabeta if prune else minimax)(counting, root, depth=depth)
    assert counting.successor_calls == result.stats.nodes_generated - 1
    if depth is None and not prune:
        assert result.stats.nodes_generated == count_nodes(tree)


@SETTINGS
@given(tree=tree_dicts(), depth=depths, order=st.sampled_from(ORDERS), seed=st.integers(0, 99),
       use_table=st.booleans(), prune=st.booleans())
def test_orderings_and_table_leave_the_value_unchanged(tree, depth, order, seed, use_table, prune):
    game, root = game_of(tree)
    search = alphabeta if prune else minimax
    table = TranspositionTable() if use_table else None
    result = search(game, root, depth=depth, order=order, rng=random.Random(seed), table=table)
    assert result.value == reference_value(tree, depth)
    if result.action is not None:
        assert result.action in optimal_actions(tree, depth)


@SETTINGS
@given(tree=tree_dicts(), depth=st.integers(1, 4), reorder=st.sampled_from(["none", "root", "all"]),
       algorithm=st.sampled_from(["minimax", "alphabeta"]), use_table=st.booleans())
def test_iterative_deepening_to_d_equals_fixed_depth_d(tree, depth, reorder, algorithm, use_table):
    game, root = game_of(tree)
    fixed = minimax(game, root, depth=depth)
    deep = iterative_deepening(game, root, max_depth=depth, algorithm=algorithm, reorder=reorder, table=use_table)
    # deepening may stop before ``depth`` once an iteration met no depth cut
    assert 1 <= deep.stats.depth_reached <= depth
    assert deep.value == fixed.value
    if len(optimal_actions(tree, depth)) == 1 or reorder == "none":
        assert deep.action == fixed.action
    elif deep.action is not None:
        assert deep.action in optimal_actions(tree, depth)


@SETTINGS
@given(tree=tree_dicts(kinds=("max", "min", "chance")), depth=depths)
def test_expectimax_pruning_with_bounds_equals_plain_expectimax(tree, depth):
    game, root = game_of(tree)
    plain = expectimax(game, root, depth=depth)
    for strict in (False, True):
        pruned = expectimax(game, root, depth=depth, bounds=(-6, 6), strict=strict)
        assert pruned.value == plain.value
        assert pruned.action == plain.action
        assert pruned.stats.nodes_generated <= plain.stats.nodes_generated
    assert plain.value == reference_value(tree, depth, min_as_chance=True)


@SETTINGS
@given(tree=tree_dicts(kinds=("max", "min", "chance")), depth=depths, prune=st.booleans(),
       bounded=st.booleans(), use_table=st.booleans())
def test_expectiminimax_matches_reference(tree, depth, prune, bounded, use_table):
    game, root = game_of(tree)
    result = expectiminimax(game, root, depth=depth, prune=prune, bounds=(-6, 6) if bounded else None,
                            table=TranspositionTable() if use_table else None)
    assert result.value == reference_value(tree, depth)
    assert result.action == root_action(tree, depth)


@SETTINGS
@given(tree=tree_dicts(kinds=("max", "min", "chance"), explicit_p=False), depth=depths)
def test_uniform_chance_nodes_match_reference(tree, depth):
    game, root = game_of(tree)
    assert expectiminimax(game, root, depth=depth).value == reference_value(tree, depth)
    assert expectimax(game, root, depth=depth).value == reference_value(tree, depth, min_as_chance=True)


@SETTINGS
@given(tree=tree_dicts())
def test_expectimax_with_point_mass_opponent_equals_minimax(tree):
    game, root = game_of(tree)
    exact = minimax(game, root)

    def point_mass(state, actions):
        # all the probability on the first minimising child (found by an independent search)
        values = [minimax(game, game.successor(state, a)).value for a in actions]
        k = values.index(min(values))
        return [1.0 if i == k else 0.0 for i in range(len(actions))]

    result = expectimax(game, root, opponent_model=point_mass)
    assert result.value == exact.value
    if root.kind.value == "max":
        assert result.action == exact.action


@SETTINGS
@given(tree=tree_dicts())
def test_min_nodes_rewritten_as_point_mass_chance_nodes_keep_the_minimax_value(tree):
    def rewrite(node):
        node = dict(node)
        if "children" in node:
            node["children"] = [rewrite(ch) for ch in node["children"]]
            if node["kind"] == "min":
                values = [reference_value(ch) for ch in node["children"]]
                k = values.index(min(values))
                node["kind"] = "chance"
                for i, ch in enumerate(node["children"]):
                    ch["p"] = 1.0 if i == k else 0.0
        return node

    game, root = game_of(rewrite(tree))
    assert expectiminimax(game, root).value == reference_value(tree)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=layered_dags(), depth=st.one_of(st.none(), st.integers(0, 5)), strict=st.booleans())
def test_transposition_table_bound_flags_on_graphs_with_transpositions(game, depth, strict):
    expected = dag_reference(game, game.root, depth)
    table = TranspositionTable()
    first = alphabeta(game, game.root, depth=depth, strict=strict, table=table)
    assert first.value == expected
    # a second search through the filled table reuses bounds stored under other windows
    again = alphabeta(game, game.root, depth=depth, strict=strict, table=table)
    assert again.value == expected
    assert again.action == minimax(game, game.root, depth=depth).action
    # searches rooted lower down meet entries stored under narrower windows: a bound wrongly
    # flagged exact would show here
    if depth != 0:
        sub_depth = None if depth is None else depth - 1
        for layer, width in ((1, len(game.values[1])), (2, len(game.values[2]) if len(game.values) > 2 else 0)):
            for i in range(width):
                state = (layer, i)
                d = None if sub_depth is None else max(0, sub_depth - (layer - 1))
                got = alphabeta(game, state, depth=d, strict=strict, table=table)
                assert got.value == dag_reference(game, state, d), state
    assert minimax(game, game.root, depth=depth, table=TranspositionTable()).value == expected
    if depth is not None and depth > 0:
        deep = iterative_deepening(game, game.root, max_depth=depth, reorder="all")
        assert deep.value == expected


@pytest.mark.parametrize("seed", range(5))
def test_evaluation_ordering_helps_on_a_larger_random_tree(seed):
    from pacman.agents.search.synthetic import UniformTree

    game = UniformTree(4, 6, seed=seed)
    exact = minimax(game, game.root, depth=6)
    # an evaluation that is the true value orders perfectly
    def oracle(state):
        return minimax(game, state).value

    plain = alphabeta(game, game.root, depth=6)
    ordered = alphabeta(game, game.root, depth=6, order="evaluation", evaluate=oracle)
    assert plain.value == ordered.value == exact.value
    assert ordered.stats.leaf_evaluations < plain.stats.leaf_evaluations


def follow(tree, pv):
    """The reference's first-best path of the same length as ``pv`` (stops at chance nodes)."""
    node, path = tree, []
    while node.get("children") and node["kind"] in ("max", "min") and len(path) < len(pv):
        values = [reference_value(ch) for ch in node["children"]]
        target = max(values) if node["kind"] == "max" else min(values)
        node = node["children"][values.index(target)]
        path.append(node["id"])
    return tuple(path)


@SETTINGS
@given(tree=tree_dicts())
def test_principal_variation_is_the_first_best_line(tree):
    game, root = game_of(tree)
    full = minimax(game, root)
    pruned = alphabeta(game, root)
    assert full.principal_variation == follow(tree, full.principal_variation)
    if tree.get("children"):
        # the line goes all the way down to a leaf whose value is the root value
        node = root
        for a in full.principal_variation:
            node = game.successor(node, a)
        assert not node.children and node.value == full.value
    assert pruned.principal_variation == full.principal_variation


windows = st.tuples(st.integers(-4, 4), st.integers(-4, 4)).map(sorted)
# a narrow value range makes values hit the window edges often, where the flags matter
narrow_trees = tree_dicts(kinds=("max", "min", "chance"), lo=-3, hi=3)


def assert_fail_soft(f, true, alpha, beta, strict):
    if strict:
        if true < alpha:
            assert true <= f < alpha
        elif true > beta:
            assert beta < f <= true
        else:
            assert f == true
    else:
        if true <= alpha:
            assert true <= f <= alpha
        elif true >= beta:
            assert beta <= f <= true
        else:
            assert f == true


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=narrow_trees, depth=depths, windows=st.lists(windows, min_size=1, max_size=3), strict=st.booleans(),
       bounded=st.booleans(), use_table=st.booleans())
def test_fail_soft_window_contract(tree, depth, windows, strict, bounded, use_table):
    """The core's contract under any window; with a table, later windows reuse earlier entries."""
    from pacman.agents.search.core import SearchConfig, window_value

    game, root = game_of(tree)
    table = TranspositionTable() if use_table else None
    cfg = SearchConfig(depth=depth, prune=True, strict=strict, bounds=(-3, 3) if bounded else None, table=table)
    true = reference_value(tree, depth)
    for alpha, beta in windows:
        if alpha == beta and not strict:
            continue
        f, _counts = window_value(game, root, cfg, alpha, beta)
        assert_fail_soft(f, true, alpha, beta, strict)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=narrow_trees, depth=depths, strict=st.booleans(), bounded=st.booleans(),
       windows=st.lists(windows, min_size=1, max_size=3))
def test_table_entries_carry_correct_bound_flags(tree, depth, strict, bounded, windows):
    from pacman.agents.search.core import SearchConfig, window_value
    from pacman.agents.search.table import EXACT, LOWER, UPPER

    game, root = game_of(tree)
    table = TranspositionTable()
    bounds = (-3, 3) if bounded else None
    cfg = SearchConfig(depth=depth, prune=True, strict=strict, bounds=bounds, table=table)
    result = expectiminimax(game, root, depth=depth, prune=True, strict=strict, bounds=bounds, table=table)
    assert result.value == reference_value(tree, depth)
    for alpha, beta in windows:
        if alpha < beta or strict:
            window_value(game, root, cfg, alpha, beta)
    nodes = {}
    stack = [tree]
    while stack:
        d = stack.pop()
        nodes[d["id"]] = d
        stack.extend(d.get("children", []))
    for (node_id, remaining), (flag, stored, _best) in table.entries.items():
        true = reference_value(nodes[node_id], None if remaining == float("inf") else remaining)
        if flag == EXACT:
            assert stored == true, node_id
        elif flag == LOWER:
            assert true >= stored, node_id
        else:
            assert flag == UPPER and true <= stored, node_id
