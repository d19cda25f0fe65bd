"""Tree files: validation messages, the shipped example file, and the ``tree`` command."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from pacman.agents.search import TreeFormatError, load_tree, minimax, parse_tree_text, tree_from_dict
from pacman.agents.search.lecture_games import BUILTIN_TREES, builtin_tree
from pacman.cli import tree as tree_command

TREES = Path(__file__).resolve().parents[1] / "trees"


def leaf(i, v, **kw):
    return {"id": i, "value": v, **kw}


@pytest.mark.parametrize("data, message", [
    ({"id": "A", "kind": "max", "children": [leaf("B", 1), leaf("B", 2)]}, "node 'B' (at A/B): duplicate id 'B'"),
    ({"id": "A", "kind": "maximum", "children": [leaf("B", 1)]}, "node 'A' (at A): unknown kind 'maximum'"),
    ({"id": "A", "kind": "max", "children": [{"id": "B"}]}, "node 'B' (at A/B): leaf has no 'value'"),
    ({"id": "A", "children": [leaf("B", 1)]}, "node 'A' (at A): internal node has no 'kind'"),
    ({"id": "A", "kind": "chance", "children": [leaf("B", 1, p=0.5), leaf("C", 2, p=0.4)]},
     "node 'A' (at A): children's probabilities sum to 0.9, not 1"),
    ({"id": "A", "kind": "chance", "children": [leaf("B", 1, p=0.5), leaf("C", 2)]},
     "node 'C' (at A/C): either every child of a chance node has 'p' or none has"),
    ({"id": "A", "kind": "max", "children": [leaf("B", 1, p=1)]}, "'p' is only allowed on children of a chance node"),
    ({"id": "A", "kind": "chance", "children": [leaf("B", 1, p="x/2"), leaf("C", 1, p="1/2")]},
     "node 'B' (at A/B): 'p' must be a number or a fraction"),
    ({"id": "A", "kind": "max", "children": [leaf("B", "7")]}, "'value' must be a number"),
    ({"id": "A", "kind": "max", "children": [{"value": 1}]}, "node at A/children[0]: missing or empty 'id'"),
    ({"id": "A", "kind": "max", "children": [leaf("B", 1, colour="red")]}, "unknown key 'colour'"),
    ({"id": "A", "kind": "max", "children": [leaf("B", 1, action="x"), leaf("C", 2, action="x")]},
     "two children share the action label 'x'"),
    ({"id": "A", "kind": "min", "value": 1}, "has kind 'min' but no children"),
    ({"id": "A", "kind": "max", "children": [leaf("B", 1), leaf("C", [1, 2])]},
     "values must all be numbers or all lists"),
    ([1, 2], "node at root: expected a JSON object"),
])
def test_malformed_trees_name_the_node_and_the_problem(data, message):
    with pytest.raises(TreeFormatError) as info:
        tree_from_dict(data, source="t.json")
    text = str(info.value)
    assert text.startswith("t.json: ")
    assert message in text
    assert "\n" not in text


def test_bad_json_reports_line_and_column():
    with pytest.raises(TreeFormatError, match=r"bad\.json: invalid JSON at line 2 column 16"):
        parse_tree_text('{"id": "A",\n "kind": "max" "children": []}', source="bad.json")


def test_missing_file_is_a_tree_format_error(tmp_path):
    with pytest.raises(TreeFormatError, match="cannot read tree file"):
        load_tree(tmp_path / "missing.json")


def test_internal_node_without_value_at_the_depth_cut():
    game = tree_from_dict({"id": "A", "kind": "max", "children": [
        {"id": "B", "kind": "min", "children": [leaf("C", 1)]}]})
    game.check_depth(None)
    game.check_depth(2)
    with pytest.raises(TreeFormatError, match="node 'B' \\(at A/B\\): internal node reached at the depth cut"):
        game.check_depth(1)
    with pytest.raises(TreeFormatError):
        minimax(game, game.root, depth=1)


def test_fractions_actions_and_defaults():
    game = tree_from_dict({"id": "A", "kind": "chance", "children": [
        leaf("B", 3, p="1/4", action="left"), leaf("C", 7, p=0.75, action="right")]})
    assert game.actions(game.root) == ("left", "right")
    assert game.probabilities(game.root) == (0.25, 0.75)
    uniform = tree_from_dict({"id": "A", "kind": "chance", "children": [leaf("B", 3), leaf("C", 6), leaf("D", 9)]})
    assert uniform.actions(uniform.root) == ("B", "C", "D")
    assert uniform.probabilities(uniform.root) == (1 / 3, 1 / 3, 1 / 3)


def test_shipped_recitation_file_equals_the_builtin():
    from_file = load_tree(TREES / "recitation.json")
    builtin = builtin_tree("recitation")
    assert [(n.id, n.kind, n.value, n.action) for n in from_file.root.walk()] == \
           [(n.id, n.kind, n.value, n.action) for n in builtin.root.walk()]


def test_every_builtin_tree_is_valid():
    for name in BUILTIN_TREES:
        game = builtin_tree(name)
        assert game.root.children


# --- the tree command ------------------------------------------------------------------------


def run_cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="tree")
    tree_command.configure(parser)
    code = tree_command.run(parser.parse_args(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_alphabeta_on_the_recitation_tree_json(capsys):
    code, out, err = run_cli(["recitation", "--algorithm", "alphabeta", "--json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == {
        "value": 6,
        "action": "C",
        "generated": list("ABEFKCGMQNHDI"),
        "evaluated": list("EKQNHI"),
    }


def test_cli_text_output_from_a_file(capsys):
    code, out, _ = run_cli([str(TREES / "recitation.json"), "--algorithm", "minimax", "--depth", "2"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert "value: 6" in lines
    assert "action: C" in lines
    assert "generated (10): A B E F C G H D I J" in lines
    assert "evaluated (6): E F G H I J" in lines


def test_cli_strict_pruning_and_expectimax(capsys):
    _, loose, _ = run_cli([str(TREES / "equal_values.json"), "-a", "alphabeta", "--json"], capsys)
    _, strict, _ = run_cli([str(TREES / "equal_values.json"), "-a", "alphabeta", "--strict-pruning", "--json"],
                           capsys)
    assert json.loads(loose)["evaluated"] == ["b1", "b2", "c1"]
    assert json.loads(strict)["evaluated"] == ["b1", "b2", "c1", "c2"]
    _, out, _ = run_cli(["slides_expectimax", "-a", "expectimax", "--json"], capsys)
    assert json.loads(out)["value"] == 10 and json.loads(out)["action"] is None


@pytest.mark.parametrize("argv, message", [
    (["nowhere", "-a", "minimax"], "neither a tree file nor a built-in tree"),
    (["bins_coin", "-a", "minimax"], "chance node"),
    (["slides_minimax", "-a", "minimax", "--depth", "1"], "internal node reached at the depth cut"),
    (["recitation", "-a", "minimax", "--strict-pruning"], "--strict-pruning applies to --algorithm alphabeta"),
])
def test_cli_errors_are_one_line_with_code_2(argv, message, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("pacman-arena: ")
    assert message in err


def test_cli_bad_json_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "A", "kind": "max",\n "children": [}')
    code, _, err = run_cli([str(bad), "-a", "minimax"], capsys)
    assert code == 2
    assert f"{bad}: invalid JSON at line 2 column 15" in err
