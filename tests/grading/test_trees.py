"""Tree tests: the instrumented states, the reference comparison and the wrong variants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.agents.search.lecture_games import recitation_tree
from pacman.errors import ConfigurationError, IllegalActionError
from pacman.grading.tree_state import ClassicTreeState, TreeRecorder, TreeState
from pacman.grading.tree_tests import (LayeredTree, Observation, judge, random_tree_dict,
                                       reference_search)
from pacman.grading.variants import BUGS, applicable_bugs, diagnose, variant_observation


def test_recitation_alphabeta_evaluates_exactly_the_lecture_nodes():
    tree = LayeredTree(recitation_tree())
    expected = reference_search(tree, "alphabeta", depth=2)
    assert expected.reference.evaluated == ("E", "K", "Q", "N", "H", "I")
    seen = variant_observation(tree, "alphabeta", 2, False, ())
    assert seen.evaluated == expected.reference.evaluated
    assert seen.action == "C" and judge(expected, seen).passed


def test_layers_follow_the_agents_and_bad_kinds_are_reported():
    assert LayeredTree(recitation_tree()).num_agents == 2
    assert LayeredTree(random_tree_dict(3, 3, 2), 3).num_agents == 3
    with pytest.raises(ConfigurationError, match="node 'F' at ply 2 is max but belongs to ghost 2"):
        LayeredTree(recitation_tree(), 3)


def test_instrumented_states_record_generation_and_evaluation_in_both_apis():
    tree = LayeredTree(recitation_tree())
    rec = TreeRecorder(tree.num_agents, tree.plies)
    native = TreeState(tree.root, rec)
    b = native.successor("B", 0)
    assert b.turn == 1 and not b.is_terminal and native.num_agents == 2
    e = b.successor("E")
    assert e.is_terminal and e.is_win and e.legal_actions() == ()
    assert rec.evaluate(e) == 2
    classic = ClassicTreeState(tree.root, rec)
    assert classic.getLegalActions(0) == ["B", "C", "D"] and classic.getNumAgents() == 2
    d = classic.generateSuccessor(0, "D")
    assert d.getScore() == 1 and not d.isWin() and not d.isLose()
    assert rec.generated == ["B", "E", "D"] and rec.evaluated == ["E"]
    assert rec.terminal_expansions == ["E"]
    with pytest.raises(IllegalActionError):
        native.successor("Z")
    with pytest.raises(AttributeError):
        native._node = None


def test_judge_names_missing_and_extra_nodes_and_accepts_tied_actions():
    tie = {"id": "R", "kind": "max", "children": [
        {"id": "A", "kind": "min", "children": [{"id": "A1", "value": 3}]},
        {"id": "B", "kind": "min", "children": [{"id": "B1", "value": 3}]}]}
    tree = LayeredTree(tie)
    expected = reference_search(tree, "minimax", 1)
    assert expected.best_actions == {"A", "B"}
    good = Observation("B", ("A", "A1", "B", "B1"), ("A1", "B1"))
    assert judge(expected, good).passed
    assert not judge(expected, good, ties="first").passed
    bad = Observation("A", ("A", "A1", "B"), ("A1", "R"))
    verdict = judge(expected, bad)
    assert verdict.differences == ("generated nodes: missing: B1",
                                   "evaluated nodes: should not have been: R; missing: B1")
    assert judge(expected, Observation("A", (), (), value=4)).differences[0] == "value: expected 3, got 4"


trees = st.builds(lambda seed, agents, rounds, ghost: (random_tree_dict(seed, agents, rounds, ghost_kind=ghost), agents),
                  st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 2), st.sampled_from(["min", "chance"]))


@settings(max_examples=60, deadline=None)
@given(trees, st.sampled_from(["minimax", "alphabeta", "expectimax"]), st.integers(1, 3), st.booleans())
def test_bug_free_variant_behaves_exactly_like_the_reference(data, algorithm, depth, strict):
    spec, agents = data
    if algorithm != "expectimax" and "chance" in str(spec):
        spec = random_tree_dict(7, agents, 2)
    tree = LayeredTree(spec, agents)
    expected = reference_search(tree, algorithm, depth, strict)
    seen = variant_observation(tree, algorithm, depth, strict, ())
    assert judge(expected, seen).passed
    assert set(seen.generated) == set(expected.reference.generated)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["minimax", "alphabeta", "expectimax"]), st.booleans())
def test_every_variant_that_differs_is_diagnosed_as_itself(seed, algorithm, strict):
    tree = LayeredTree(random_tree_dict(seed, 3, 2, ghost_kind="chance" if algorithm == "expectimax" else "min"), 3)
    correct = variant_observation(tree, algorithm, 2, strict, ())
    for bug in applicable_bugs(algorithm, strict):
        seen = variant_observation(tree, algorithm, 2, strict, (bug,))
        if seen.same_behaviour(correct):
            continue
        assert bug in diagnose(tree, algorithm, 2, strict, seen, correct)


def test_every_bug_has_an_explanation_and_the_lists_are_consistent():
    listed = {b for a in ("minimax", "alphabeta", "expectimax") for s in (False, True)
              for b in applicable_bugs(a, s)}
    assert listed == set(BUGS)


def test_random_trees_are_fixed_by_their_seed():
    assert random_tree_dict(5, 3, 2) == random_tree_dict(5, 3, 2)
    assert random_tree_dict(5, 3, 2) != random_tree_dict(6, 3, 2)
