"""Exact traces, pruning variants, tables, deepening, max^n, MCTS and code hygiene."""

from __future__ import annotations

import ast
import math
import random
from pathlib import Path

import pytest

from pacman.agents.search import (
    SearchConfig,
    TranspositionTable,
    alphabeta,
    expectimax,
    expectiminimax,
    iterative_deepening,
    maxn,
    mcts,
    minimax,
    run_search,
    tree_from_dict,
)
from pacman.agents.search.lecture_games import BinsGame, HalvingGame, builtin_tree
from pacman.agents.search.synthetic import UniformTree

PACKAGE = Path(__file__).resolve().parents[2] / "agents" / "search"


def leaf(i, v):
    return {"id": i, "value": v}


def node(i, kind, children, value=None):
    d = {"id": i, "kind": kind, "children": children}
    if value is not None:
        d["value"] = value
    return d


def ids(states):
    return [s.id for s in states]


# --- exact orders -------------------------------------------------------------------------

EQUAL_MAX_ROOT = node("R", "max", [
    node("B", "min", [leaf("b1", 3), leaf("b2", 5)]),
    node("C", "min", [leaf("c1", 3), leaf("c2", 9)]),
])
EQUAL_MIN_ROOT = node("R", "min", [
    node("B", "max", [leaf("b1", 5), leaf("b2", 1)]),
    node("C", "max", [leaf("c1", 5), leaf("c2", 0)]),
])


def test_non_strict_pruning_cuts_on_equality_at_min_nodes():
    game = tree_from_dict(EQUAL_MAX_ROOT)
    result = alphabeta(game, game.root, trace=True)
    # C's first child equals alpha = 3: v <= alpha prunes c2
    assert ids(result.stats.generated) == ["R", "B", "b1", "b2", "C", "c1"]
    assert ids(result.stats.evaluated) == ["b1", "b2", "c1"]
    assert (result.value, result.action) == (3, "B")
    assert result.root_values == {"B": 3, "C": 3}
    assert result.stats.cutoffs == 1


def test_strict_pruning_needs_a_strictly_worse_value():
    game = tree_from_dict(EQUAL_MAX_ROOT)
    result = alphabeta(game, game.root, strict=True, trace=True)
    assert ids(result.stats.generated) == ["R", "B", "b1", "b2", "C", "c1", "c2"]
    assert ids(result.stats.evaluated) == ["b1", "b2", "c1", "c2"]
    assert (result.value, result.action) == (3, "B")
    assert result.stats.cutoffs == 0


def test_non_strict_and_strict_pruning_at_max_nodes():
    game = tree_from_dict(EQUAL_MIN_ROOT)
    loose = alphabeta(game, game.root, trace=True)
    strict = alphabeta(game, game.root, strict=True, trace=True)
    assert ids(loose.stats.evaluated) == ["b1", "b2", "c1"]
    assert ids(strict.stats.evaluated) == ["b1", "b2", "c1", "c2"]
    assert loose.value == strict.value == 5
    assert loose.action == strict.action == "B"


def test_first_best_action_wins_ties_at_the_root():
    game = tree_from_dict(node("R", "max", [leaf("x", 1), leaf("y", 4), leaf("z", 4)]))
    for search in (minimax, alphabeta, expectiminimax):
        assert search(game, game.root).action == "y"
    assert minimax(game, game.root, order="reversed").action == "z"
    game = tree_from_dict(node("R", "min", [leaf("x", 4), leaf("y", 1), leaf("z", 1)]))
    assert minimax(game, game.root).action == "y"


def test_move_orderings_change_the_generation_order():
    game = builtin_tree("slides_minimax")
    rev = alphabeta(game, game.root, order="reversed", trace=True)
    assert ids(rev.stats.generated)[:5] == ["A", "D", "D3", "D2", "D1"]
    by_eval = alphabeta(game, game.root, order="evaluation", trace=True, evaluate=lambda s: s.value or 0)
    # evaluation ordering generates all children of an expanded node to score them
    assert ids(by_eval.stats.generated)[:4] == ["A", "B", "C", "D"]
    assert by_eval.stats.ordering_evaluations > 0
    shuffled = [ids(alphabeta(game, game.root, order="random", rng=random.Random(s), trace=True).stats.generated)
                for s in range(6)]
    assert len({tuple(x) for x in shuffled}) > 1
    again = ids(alphabeta(game, game.root, order="random", rng=random.Random(0), trace=True).stats.generated)
    assert again == shuffled[0]


def test_evaluation_ordering_sorts_max_nodes_down_and_min_nodes_up():
    game = builtin_tree("recitation")
    result = minimax(game, game.root, depth=2, order="evaluation", trace=True)
    # A (MAX) scores B 2, C 6, D 1 and searches C, B, D; C (MIN) scores G 7, H 6 and searches
    # H first; B: E 2 before F 3; D: I 1 before J 20.  Every child is generated to be scored.
    assert ids(result.stats.generated) == list("ABCDGHEFIJ")
    assert ids(result.stats.evaluated) == list("HGEFIJ")
    assert result.stats.ordering_evaluations == 9
    assert result.value == 6 and result.action == "C"


def test_random_ordering_requires_an_injected_rng():
    game = builtin_tree("slides_minimax")
    with pytest.raises(ValueError, match="rng"):
        minimax(game, game.root, order="random")
    with pytest.raises(ValueError, match="unknown move ordering"):
        minimax(game, game.root, order="best")


# --- transposition table and caching --------------------------------------------------------


def test_table_caches_static_evaluations_between_searches():
    game = builtin_tree("recitation")
    table = TranspositionTable()
    first = minimax(game, game.root, depth=2, table=table, trace=True)
    second = minimax(game, game.root, depth=3, table=table, trace=True)
    assert first.value == second.value == 6
    # E, H, I were valued at depth 2 already; at depth 3 they come from the cache
    assert second.stats.cache_hits == 3
    assert ids(second.stats.evaluated) == ["K", "L", "M", "N", "O", "P"]


def test_table_finds_transpositions_in_the_halving_game():
    game = HalvingGame()
    table = TranspositionTable()
    result = minimax(game, (40, 0), table=table)
    plain = minimax(game, (40, 0))
    assert result.value == plain.value and result.action == plain.action
    assert result.stats.transposition_hits > 0
    assert result.stats.nodes_generated < plain.stats.nodes_generated / 10


# --- depth units ------------------------------------------------------------------------------


class RoundsGame(BinsGame):
    """The bins game where only the opponent's move completes a depth unit."""

    def ends_depth_unit(self, state):
        return state[0] == "pick"


def test_depth_is_decremented_only_when_a_unit_ends():
    game = RoundsGame()
    # depth 1 = one full round (you, then the opponent): the whole game
    assert minimax(game, game.start, depth=1).stats.static_evaluations == 0
    assert minimax(game, game.start, depth=1).value == 1
    # ply-counting depth 1 stops after your move
    cut = minimax(BinsGame(), BinsGame.start, depth=1)
    assert cut.stats.static_evaluations == 3
    assert cut.action == "C"  # mean of C (5) is the best heuristic value


def test_root_at_depth_zero_or_terminal_has_no_action():
    game = builtin_tree("recitation")
    result = minimax(game, game.root, depth=0)
    assert (result.value, result.action, result.principal_variation) == (6, None, ())
    assert minimax(HalvingGame(), (0, 1)).value == -1


# --- iterative deepening ------------------------------------------------------------------------


def test_deepening_returns_the_deepest_finished_iteration_within_the_budget():
    game = UniformTree(5, 14, seed=3)
    result = iterative_deepening(game, game.root, time_budget=0.15)
    reached = result.stats.depth_reached
    assert 1 <= reached < 14
    fixed = alphabeta(game, game.root, depth=reached)
    assert result.value == fixed.value
    assert result.action in [a for a, v in minimax(game, game.root, depth=reached).root_values.items()
                             if v == fixed.value]
    assert result.stats.elapsed < 1.0


def test_deepening_with_a_fake_clock_stops_at_the_deadline():
    ticks = iter(range(10**9))
    clock = lambda: next(ticks) * 0.001  # noqa: E731 - every look at the clock costs a millisecond
    game = UniformTree(4, 10, seed=1)
    seen = []
    result = iterative_deepening(game, game.root, time_budget=0.02, clock=clock, on_iteration=seen.append)
    assert [r.stats.depth_reached for r in seen] == list(range(1, len(seen) + 1))
    assert result.stats.depth_reached == len(seen)
    assert result.stats.nodes_generated > sum(r.stats.nodes_generated for r in seen)  # the abandoned one


def test_deepening_with_no_finished_iteration_returns_the_first_action():
    game = UniformTree(3, 5)
    result = iterative_deepening(game, game.root, time_budget=0.0, clock=iter(range(10**6)).__next__)
    assert math.isnan(result.value)
    assert result.action == 0
    assert result.stats.depth_reached == 0


def test_deepening_stops_once_the_tree_is_exhausted():
    game = builtin_tree("recitation")
    result = iterative_deepening(game, game.root, max_depth=50)
    assert result.stats.depth_reached == 4
    assert result.value == 6 and result.action == "C"


def test_deepening_needs_a_limit():
    game = builtin_tree("recitation")
    with pytest.raises(ValueError):
        iterative_deepening(game, game.root)


def test_run_search_timeout_is_raised_inside_a_long_search():
    from pacman.agents.search import SearchTimeout

    game = UniformTree(6, 9)
    with pytest.raises(SearchTimeout):
        run_search(game, game.root, SearchConfig(deadline=0.0, clock=lambda: 1.0))


# --- expectimax pruning ---------------------------------------------------------------------------


def test_expectimax_pruning_stops_a_chance_node_early():
    # Values lie in [0, 10].  After A = 8, the chance node B has seen 1 with probability 1/2;
    # even if its other outcome were 10 its mean is at most 1/2 * 1 + 1/2 * 10 = 5.5 < 8.
    tree = node("R", "max", [
        node("A", "chance", [leaf("a1", 8), leaf("a2", 8)]),
        node("B", "chance", [leaf("b1", 1), leaf("b2", 10)]),
    ])
    game = tree_from_dict(tree)
    plain = expectimax(game, game.root, trace=True)
    pruned = expectimax(game, game.root, bounds=(0, 10), trace=True)
    assert ids(plain.stats.evaluated) == ["a1", "a2", "b1", "b2"]
    assert ids(pruned.stats.evaluated) == ["a1", "a2", "b1"]
    assert pruned.value == plain.value == 8 and pruned.action == plain.action == "A"
    assert pruned.root_values["B"] == 5.5  # an upper bound, as documented
    assert pruned.stats.cutoffs == 1


def test_informed_opponent_model():
    # the Pacman slides: an opponent model gives the chance probabilities of MIN nodes
    game = BinsGame()
    lower = lambda state, actions: [0.8 if a == min(actions) else 0.2 for a in actions]  # noqa: E731
    result = expectimax(game, game.start, opponent_model=lower)
    # A: .8*-50 + .2*50 = -30; B: .8*1 + .2*3 = 1.4; C: .8*-5 + .2*15 = -1
    assert result.action == "B"
    assert result.value == pytest.approx(1.4)


# --- max^n --------------------------------------------------------------------------------------------


def test_maxn_three_players():
    tree = {"id": "r", "kind": "max", "player": 0, "children": [
        {"id": "a", "kind": "max", "player": 1, "children": [{"id": "a1", "value": [1, 2, 3]},
                                                             {"id": "a2", "value": [4, 1, 1]}]},
        {"id": "b", "kind": "max", "player": 2, "children": [{"id": "b1", "value": [2, 5, 0]},
                                                             {"id": "b2", "value": [6, 4, 2]}]},
    ]}
    game = tree_from_dict(tree)
    result = maxn(game, game.root, trace=True)
    # player 1 picks a1 (2 > 1), player 2 picks b2 (2 > 0); player 0 compares 1 and 6
    assert result.root_values == {"a": (1, 2, 3), "b": (6, 4, 2)}
    assert result.value == (6, 4, 2)
    assert result.principal_variation == ("b", "b2")
    assert result.stats.terminal_utilities == 4


def test_maxn_on_zero_sum_trees_equals_minimax():
    from hypothesis import given, settings

    from search_support import tree_dicts

    @settings(max_examples=80, deadline=None)
    @given(tree=tree_dicts(kinds=("max", "min", "chance")))
    def check(tree):
        def pair(n):
            n = dict(n)
            n["value"] = [n["value"], -n["value"]]
            if "children" in n:
                n["children"] = [pair(c) for c in n["children"]]
            return n

        game, paired = tree_from_dict(tree), tree_from_dict(pair(tree))
        expected = expectiminimax(game, game.root)
        got = maxn(paired, paired.root)
        assert got.value[0] == expected.value
        assert got.value[1] == -expected.value
        assert got.action == expected.action

    check()


# --- MCTS ----------------------------------------------------------------------------------------------


def test_mcts_finds_the_minimax_move_of_the_bins_game_and_is_reproducible():
    game = BinsGame()
    first = mcts(game, game.start, rng=random.Random(5), iterations=2000, scale=50)
    second = mcts(game, game.start, rng=random.Random(5), iterations=2000, scale=50)
    assert first.action == "B"
    assert first.root_values == second.root_values
    assert first.stats.nodes_generated == second.stats.nodes_generated


def test_mcts_on_the_coin_variant_and_a_time_budget():
    game = BinsGame(coin=True)
    result = mcts(game, game.start, rng=random.Random(2), iterations=4000, scale=50)
    assert result.action == "C"
    ticks = iter(range(10**9))
    timed = mcts(game, game.start, rng=random.Random(2), time_budget=0.1, clock=lambda: next(ticks) * 0.001)
    assert timed.stats.terminal_utilities == 99  # one clock look per iteration, first at start


# --- hygiene --------------------------------------------------------------------------------------------


def _modules():
    return sorted(PACKAGE.glob("*.py"))


def test_search_package_does_not_import_the_engine():
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            names = []
            if isinstance(n, ast.Import):
                names = [a.name for a in n.names]
            elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
                names = [n.module]
            assert not any(x == "pacman" or x.startswith("pacman.") for x in names), path.name


def test_search_package_has_no_prints_and_no_module_level_randomness():
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                assert n.func.id != "print", path.name
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "random":
                assert n.attr == "Random", f"{path.name}: random.{n.attr}"


def test_bounded_chance_cut_respects_strictness():
    from pacman.agents.search.core import window_value

    # bounds [0, 10], window (-5, 5): after the first outcome the mean is at least
    # 1/2 * 10 + 1/2 * 0 = 5 = beta.  Non-strict pruning stops there (a lower bound 5);
    # strict pruning needs > beta, so it looks at the second outcome and finds 10.
    game = tree_from_dict(node("X", "chance", [leaf("x1", 10), leaf("x2", 10)]))
    loose, loose_counts = window_value(game, game.root, SearchConfig(prune=True, bounds=(0, 10)), -5, 5)
    strict, strict_counts = window_value(game, game.root, SearchConfig(prune=True, strict=True, bounds=(0, 10)), -5, 5)
    assert (loose, loose_counts.cutoffs, loose_counts.generated) == (5, 1, 1)
    assert (strict, strict_counts.cutoffs, strict_counts.generated) == (10, 0, 2)
