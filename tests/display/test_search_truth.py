"""The search explorer says only what is true: root moves named and the chosen one marked,
chance nodes drawn as chance, the horizon drawn as such, a cut node's value shown as the bound it
is, whose move each move of the principal variation is, cuts that pruned nothing not counted,
a quiz that hides unread values, keys that work whatever was clicked, numbers rounded for people.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from browser import CHROMIUM, Browser

from pacman.agents.search.lecture_games import builtin_tree
from pacman.cli import main
from pacman.display.search_page import explore_tree
from pacman.agents.search.trees import load_tree
from tests.cli_support import run_cli

needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")
THRASHING = ["play", "-l", "thrashing_lecture", "-p", "minimax", "--pacman-opt", "depth=3",
             "--pacman-opt", "evaluation=score", "--pacman-opt", "tie_break=first",
             "--max-moves", "4", "--display", "none"]


def embedded(document: str) -> dict:
    found = re.search(r'<script type="application/json" id="search-trace">(.*?)</script>',
                      document, re.S)
    assert found
    return json.loads(found.group(1))


def dataset(browser: Browser) -> dict:
    return json.loads(browser.evaluate(
        'JSON.stringify(document.getElementById("explorer").dataset)'))


def texts(browser: Browser, selector: str) -> list[str]:
    return browser.evaluate(f"[...document.querySelectorAll({json.dumps(selector)})]"
                            ".map(e => e.textContent)")


def value_of(browser: Browser, node_id: str) -> str:
    return browser.evaluate(
        f'(document.querySelector(\'#tree g.node[data-id="{node_id}"] text.value\') || '
        '{textContent: ""}).textContent')


@pytest.fixture(scope="module")
def thrashing(tmp_path_factory):
    folder = tmp_path_factory.mktemp("thrashing")
    assert main([*THRASHING, "--record", str(folder / "games.jsonl")]) == 0
    page = folder / "move1.html"
    assert main(["explain", str(folder / "games.jsonl"), "--move", "1", "--html",
                 str(page)]) == 0
    return page


# --- the trace ---------------------------------------------------------------------------------
def test_the_root_moves_carry_their_names_and_the_chosen_one_is_known(thrashing):
    trace = embedded(thrashing.read_text(encoding="utf-8"))
    root_moves = [node for node in trace["nodes"] if node["parent"] == 0]
    assert sorted(node["label"] for node in root_moves) == sorted(
        ["North", "South", "East", "West", "Stop"])
    chosen = trace["nodes"][trace["chosen"]]
    assert chosen["parent"] == 0 and chosen["label"] == trace["action"]


def test_the_principal_variation_says_whose_move_each_is(thrashing):
    trace = embedded(thrashing.read_text(encoding="utf-8"))
    assert trace["movers"] == ["Pacman"] * len(trace["principal_variation"])  # no ghosts
    from pacman.display.search_decision import movers

    assert movers(3, 5) == ["Pacman", "ghost 1", "ghost 2", "Pacman", "ghost 1"]
    recitation = explore_tree(builtin_tree("recitation"), "alphabeta").trace
    assert list(zip(recitation["movers"], recitation["principal_variation"])) == [
        ("MAX", "C"), ("MIN", "H")]


def test_expectimax_averages_so_its_min_nodes_are_chance_nodes_with_weights():
    trace = explore_tree(builtin_tree("recitation"), "expectimax").trace
    kinds = {node["id"]: node["kind"] for node in trace["nodes"]}
    assert kinds["B"] == kinds["C"] == kinds["D"] == kinds["M"] == "chance"
    assert kinds["A"] == kinds["F"] == "max"
    assert "min" not in kinds.values()
    weights = {node["id"]: node.get("p") for node in trace["nodes"]}
    assert weights["E"] == weights["F"] == "1/2"  # B's two children, averaged evenly


def test_a_value_printed_on_the_command_line_is_rounded_for_people(capsys, tmp_path):
    recorded = tmp_path / "games.jsonl"
    assert main(["play", "-l", "smallClassic", "-p", "expectimax", "--pacman-opt", "depth=2",
                 "--display", "none", "--max-moves", "4", "--seed", "5", "--record",
                 str(recorded)]) == 0
    capsys.readouterr()
    code, out, _ = run_cli(capsys, "explain", recorded, "--move", "3", "--html",
                           tmp_path / "p.html")
    assert code == 0
    value = re.search(r"value: (\S+)", out).group(1)
    exact = embedded((tmp_path / "p.html").read_text(encoding="utf-8"))["value"]
    assert not float(exact).is_integer()  # the case that matters
    assert len(value.lstrip("-").replace(".", "")) <= 4 and float(value) == pytest.approx(
        exact, rel=1e-3)


# --- in Chromium -------------------------------------------------------------------------------
@needs_chromium
def test_explain_names_pacmans_moves_at_the_root_and_marks_the_chosen_one(thrashing):
    trace = embedded(thrashing.read_text(encoding="utf-8"))
    with Browser(thrashing.as_uri(), 1920, 1080) as browser:
        root_children = {str(i) for i, node in enumerate(trace["nodes"]) if node["parent"] == 0}
        labels = browser.evaluate(
            '[...document.querySelectorAll("#tree text.edge")].map(e => [e.dataset.node, '
            'e.textContent])')
        named = {text for node, text in labels if node in root_children}
        assert named == {"North", "South", "East", "West", "Stop"}
        assert "starts at the root (Pacman to move)" in browser.evaluate(
            'document.getElementById("what").textContent')
        browser.press("End")
        chosen = texts(browser, "#tree text.edge.chosen")
        assert chosen == [f"{trace['action']} ✔ chosen"]
        pv = browser.evaluate('document.getElementById("pv").textContent')
        assert pv.startswith("principal variation: Pacman North, Pacman ")


@needs_chromium
def test_a_cut_node_shows_a_bound_that_holds_for_its_minimax_value(tmp_path):
    tree = builtin_tree("recitation")
    exact = minimax_values(tree.root)
    page = tmp_path / "r.html"
    explore_tree(tree, "alphabeta").write(page)
    with Browser(page.as_uri()) as browser:
        browser.press("c")  # F: 3 >= beta 2
        assert value_of(browser, "F") == "≥3"
        browser.press("End")
        shown = {node.id: value_of(browser, node.id) for node in tree.root.walk()}
    assert shown["F"] == "≥3" and shown["M"] == "≤1" and shown["D"] == "≤1"
    for node_id, text in shown.items():
        assert_true_of(text, exact[node_id], node_id)


@needs_chromium
def test_every_value_shown_at_the_end_is_true_of_the_whole_tree(tmp_path):
    """Random trees: each value drawn is the node's minimax value, or a bound that holds."""
    import random

    rng = random.Random(43)
    shown: list[str] = []
    with Browser("about:blank") as browser:
        for number in range(12):
            data = random_tree(rng, 4, [0])
            path = tmp_path / f"t{number}.json"
            path.write_text(json.dumps(data))
            tree = load_tree(str(path))
            exact = minimax_values(tree.root)
            strict = number % 2 == 1
            page = tmp_path / f"t{number}.html"
            explore_tree(tree, "alphabeta", strict=strict).write(page)
            browser.goto(page.as_uri())
            browser.press("End")
            for node in tree.root.walk():
                text = value_of(browser, node.id)
                assert_true_of(text, exact[node.id], node.id)
                shown.append(text)
    assert sum(1 for text in shown if text[:1] in "≤≥" and text) > 5  # bounds drawn, and
    assert sum(1 for text in shown if text and text[0] not in "≤≥") > 20  # exact values


def random_tree(rng, depth: int, counter: list[int]) -> dict:
    counter[0] += 1
    node: dict = {"id": f"n{counter[0]}"}
    if depth == 0 or (counter[0] > 1 and rng.random() < 0.2):
        node["value"] = rng.randint(-9, 9)
        return node
    node["kind"] = rng.choice(["max", "min"])
    node["children"] = [random_tree(rng, depth - 1, counter) for _ in range(rng.randint(2, 3))]
    return node


def minimax_values(node) -> dict[str, float]:
    values: dict[str, float] = {}

    def value(n) -> float:
        if not n.children:
            v = float(n.value)
        else:
            kids = [value(c) for c in n.children]
            v = max(kids) if n.kind.name == "MAX" else min(kids)
        values[n.id] = v
        return v

    value(node)
    return values


def assert_true_of(text: str, exact: float, node_id: str) -> None:
    """``text`` (``7``, ``≤1``, ``≥3``, a faint unread leaf value, or nothing) holds of
    ``exact``."""
    if not text:
        return
    if text.startswith("≤"):
        assert exact <= float(text[1:]), node_id
    elif text.startswith("≥"):
        assert exact >= float(text[1:]), node_id
    else:
        assert math.isclose(float(text), exact), (node_id, text, exact)


@needs_chromium
def test_expectimax_draws_no_min_node_and_says_no_min(tmp_path):
    page = tmp_path / "e.html"
    explore_tree(builtin_tree("recitation"), "expectimax").write(page)
    with Browser(page.as_uri()) as browser:
        browser.press("ArrowRight")
        browser.press("ArrowRight")  # B visited
        shape = browser.evaluate('document.querySelector(\'#tree g.node[data-id="B"] '
                                 '.shape\').tagName')
        assert shape == "circle"
        words = browser.evaluate("document.body.innerText")
        assert "MIN" not in words and "\u25BC" not in words
        assert "chance: the average of its children" in words


@needs_chromium
def test_nodes_beyond_the_depth_limit_are_drawn_as_the_horizon(tmp_path):
    page = tmp_path / "d.html"
    explore_tree(builtin_tree("recitation"), "alphabeta", depth=2).write(page)
    with Browser(page.as_uri()) as browser:
        beyond = browser.evaluate('[...document.querySelectorAll("#tree g.node.beyond")]'
                                  '.map(g => g.dataset.id)')
        assert set(beyond) >= {"K", "L", "M", "N", "O", "P"}
        assert not set(beyond) & {"A", "B", "E", "F", "G", "H"}
        for node_id in beyond:  # no value printed where the search never looks
            assert value_of(browser, node_id) == ""
        assert browser.evaluate('document.querySelectorAll("#tree line.horizon").length') == 1
        assert "depth limit" in " ".join(texts(browser, "#tree text.label"))


@needs_chromium
def test_cuts_that_pruned_nothing_are_shown_but_not_counted(tmp_path):
    recorded = tmp_path / "games.jsonl"
    assert main(["play", "-l", "smallClassic", "-p", "alphabeta", "--pacman-opt", "depth=3",
                 "-g", "random", "--display", "none", "--max-moves", "3", "--seed", "3",
                 "--record", str(recorded)]) == 0
    page = tmp_path / "m.html"
    assert main(["explain", str(recorded), "--move", "2", "--html", str(page)]) == 0
    trace = embedded(page.read_text(encoding="utf-8"))
    steps = trace["steps"]
    cuts = [k for k, s in enumerate(steps) if s["type"] == "cut"]
    empty = [k for k in cuts if not steps[k]["pruned"]]
    assert empty and len(empty) < len(cuts)
    with Browser(page.as_uri() + f"#step={empty[0] + 1}") as browser:
        what = browser.evaluate('document.getElementById("what").textContent')
        assert "nothing is left to prune (not counted as a cut)" in what
        before = [k for k in cuts if k < empty[0] and steps[k]["pruned"]]
        assert dataset(browser)["cutsSoFar"] == str(len(before))
        browser.press("End")
        assert dataset(browser)["cutsSoFar"] == str(len(cuts) - len(empty))
        summary = browser.evaluate('document.getElementById("summary").textContent')
        assert f"{len(cuts) - len(empty)} cuts (and {len(empty)} cut test" in summary
        browser.press("Home")
        browser.press("c")  # on to the first cut that pruned something
        first = next(k for k in cuts if steps[k]["pruned"])
        assert dataset(browser)["step"] == str(first + 1)


@needs_chromium
def test_the_quiz_hides_leaf_values_until_they_are_read(tmp_path):
    page = tmp_path / "r.html"
    explore_tree(builtin_tree("recitation"), "alphabeta").write(page)
    with Browser(page.as_uri()) as browser:
        assert value_of(browser, "Q") == "1"  # a lecture board: values printed, unread
        press_q(browser)
        assert browser.evaluate('document.getElementById("quiz").checked') is True
        assert value_of(browser, "Q") == "?" and value_of(browser, "E") == "?"
        browser.press("ArrowRight")
        browser.press("ArrowRight")
        browser.press("ArrowRight")  # E read
        assert value_of(browser, "E") == "2" and value_of(browser, "K") == "?"


@needs_chromium
def test_the_keys_work_after_a_click_on_the_slider_or_a_button(tmp_path):
    page = tmp_path / "r.html"
    explore_tree(builtin_tree("recitation"), "alphabeta").write(page)
    with Browser(page.as_uri()) as browser:
        click(browser, "#slider", 0.02)
        assert browser.evaluate("document.activeElement.id") == "slider"
        start = int(dataset(browser)["step"])
        browser.press("c")
        assert dataset(browser)["step"] == "8" != str(start)
        browser.press("ArrowRight")
        assert dataset(browser)["step"] == "9"
        click(browser, "#forward", 0.5)
        assert dataset(browser)["step"] == "10"
        browser.press(" ")  # plays
        assert browser.evaluate('document.getElementById("play").textContent') == "\u23F8"
        browser.press(" ")
        assert browser.evaluate('document.getElementById("play").textContent') == "\u25B6"


def press_q(browser: Browser) -> None:
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", {"type": kind, "key": "q", "text": "q",
                                                "windowsVirtualKeyCode": 81,
                                                "nativeVirtualKeyCode": 81})


def click(browser: Browser, selector: str, across: float) -> None:
    """A real mouse click at ``across`` of the element's width."""
    box = browser.evaluate(f"(() => {{ const b = document.querySelector({json.dumps(selector)})"
                           ".getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; })()")
    x, y = box[0] + box[2] * across, box[1] + box[3] / 2
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                  "button": "left", "clickCount": 1})


@needs_chromium
def test_numbers_on_the_page_are_rounded_for_people(tmp_path):
    recorded = tmp_path / "games.jsonl"
    assert main(["play", "-l", "smallClassic", "-p", "expectimax", "--pacman-opt", "depth=2",
                 "--display", "none", "--max-moves", "4", "--seed", "5", "--record",
                 str(recorded)]) == 0
    page = tmp_path / "p.html"
    assert main(["explain", str(recorded), "--move", "3", "--html", str(page)]) == 0
    read = ("document.body.innerText + ' ' + document.getElementById('tree').textContent")
    with Browser(page.as_uri()) as browser:
        words = browser.evaluate(read)
        assert "starts at the root" in words and "root root" not in words
        for key in ("End", "ArrowLeft", "ArrowLeft"):
            browser.press(key)
        words += browser.evaluate(read)
    assert not re.search(r"\d\.\d{5,}", words), re.search(r"\S*\d\.\d{5,}\S*", words)


def test_the_command_lines_say_whose_move_each_move_of_the_variation_is(capsys, thrashing):
    code, out, _ = run_cli(capsys, "tree", "recitation", "-a", "alphabeta")
    assert code == 0 and "principal variation: MAX C, MIN H\n" in out
    recording = thrashing.parent / "games.jsonl"
    code, out, _ = run_cli(capsys, "explain", recording, "--move", "1", "--html",
                           thrashing.parent / "again.html")
    assert code == 0 and "principal variation: Pacman North, Pacman South" in out
