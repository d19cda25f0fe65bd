"""The steps a search reports to a watcher (pacman.agents.search.steps): the same search, node for node,
told in order, with the windows and cuts of the search itself."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.agents.search.algorithms import search
from pacman.agents.search.lecture_games import builtin_tree
from pacman.agents.search.steps import StepRecorder
from pacman.agents.search.synthetic import UniformTree


def recorded(name: str, algorithm: str, **options):
    game = builtin_tree(name)
    recorder = StepRecorder(lambda node: node.id)
    result = search(algorithm, game, game.root, trace=True, watcher=recorder, **options)
    return result, recorder


def named(recorder, kinds):
    return [(step["type"], recorder.nodes[step["node"]]["id"]) for step in recorder.steps
            if step["type"] in kinds]


def test_the_recitation_under_alphabeta_cuts_where_the_recitation_says():
    result, recorder = recorded("recitation", "alphabeta")
    cuts = [(recorder.nodes[s["node"]]["id"], s["test"], s["pruned"])
            for s in recorder.steps if s["type"] == "cut"]
    assert cuts == [("F", "3 >= beta 2", ["L"]), ("M", "1 <= alpha 2", ["R"]),
                    ("D", "1 <= alpha 6", ["J"])]
    leaves = [recorder.nodes[s["node"]]["id"] for s in recorder.steps if s["type"] == "leaf"]
    assert leaves == [node.id for node in result.stats.evaluated] == list("EKQNHI")
    last = recorder.steps[-1]
    assert (last["type"], last["node"], last["value"]) == ("done", 0, 6)


def test_alpha_and_beta_are_the_windows_the_search_passed_down():
    _, recorder = recorded("recitation", "alphabeta")
    visits = {recorder.nodes[s["node"]]["id"]: (s["alpha"], s["beta"])
              for s in recorder.steps if s["type"] == "visit"}
    assert visits["F"] == ("-inf", 2)  # B's beta after E = 2
    assert visits["C"] == (2, "inf")   # A's alpha after B = 2
    assert visits["D"] == (6, "inf")


def test_a_chance_node_shows_its_weighted_sum_as_it_grows():
    result, recorder = recorded("slides_expectimax", "expectimax")
    sums = [s["sum"] for s in recorder.steps if s["type"] == "chance"]
    assert result.value == 10
    assert sums[-1].endswith("= 10")
    assert sums[0].startswith("1/2×8")
    assert len(sums) == 3 and sums[1].startswith(sums[0].split(" = ")[0] + " + 1/3×24")


def test_minimax_has_no_cut_and_values_every_leaf():
    result, recorder = recorded("recitation", "minimax")
    assert not [s for s in recorder.steps if s["type"] == "cut"]
    assert len([s for s in recorder.steps if s["type"] == "leaf"]) == result.stats.leaf_evaluations


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), b=st.integers(2, 4), height=st.integers(1, 4),
       algorithm=st.sampled_from(["minimax", "alphabeta", "expectimax", "expectiminimax"]),
       order=st.sampled_from(["none", "evaluation", "reversed"]))
def test_a_watched_search_is_the_same_search_told_in_order(seed, b, height, algorithm, order):
    game = UniformTree(b, height, seed=seed,
                       chance_every=3 if algorithm == "expectiminimax" else None)
    root = game.root
    plain = search(algorithm, game, root, trace=True, order=order)
    recorder = StepRecorder()
    watched = search(algorithm, game, root, trace=True, order=order, watcher=recorder)
    assert (watched.value, watched.action, watched.stats.nodes_generated) == \
        (plain.value, plain.action, plain.stats.nodes_generated)
    assert watched.stats.generated == plain.stats.generated
    assert len(recorder.nodes) == plain.stats.nodes_generated
    assert [s["type"] for s in recorder.steps].count("leaf") == plain.stats.leaf_evaluations
    cuts = [s for s in recorder.steps if s["type"] == "cut"]
    assert len(cuts) == plain.stats.cutoffs
    # every node entered is left, in nested order, and the root's value is the result's
    stack = []
    for step in recorder.steps:
        if step["type"] == "visit":
            stack.append(step["node"])
        elif step["type"] == "done":
            assert stack.pop() == step["node"]
    assert not stack
    assert recorder.steps[-1]["value"] == plain.value or height == 0
