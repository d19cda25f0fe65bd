"""The search explorer page: its embedded trace is the search's own (``tree --json``'s lists,
value and action), ``explain`` shows a recorded Pacman's search, and the page steps through the
search in a real headless browser (Chromium, when installed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser import CHROMIUM, Browser

from pacman.agents.search.lecture_games import BUILTIN_TREES, builtin_tree
from pacman.agents.search_agents import AlphaBetaAgent
from pacman.cli import main
from pacman.display.search_page import explore_tree
from pacman.engine.game import load_results, replay_states
from tests.cli_support import run_cli

TREES = Path(__file__).resolve().parents[1] / "trees"
ALGORITHMS = ("minimax", "alphabeta", "expectimax", "expectiminimax")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")




def embedded(document: str) -> dict:
    found = re.search(r'<script type="application/json" id="search-trace">(.*?)</script>',
                      document, re.S)
    assert found, "the page holds no search trace"
    return json.loads(found.group(1))


def replayed_lists(trace: dict) -> tuple[list[str], list[str]]:
    """The generated and evaluated nodes as the page's steps show them, in order."""
    ids = [node["id"] for node in trace["nodes"]]
    shown = [ids[s["node"]] for s in trace["steps"] if s["type"] in ("visit", "leaf")]
    leaves = [ids[s["node"]] for s in trace["steps"] if s["type"] == "leaf"]
    return shown, leaves


@pytest.mark.parametrize("tree", sorted(BUILTIN_TREES))
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_page_of_every_builtin_tree_holds_the_trace_tree_json_prints(capsys, tmp_path, tree,
                                                                         algorithm):
    code, out, err = run_cli(capsys, "tree", tree, "-a", algorithm, "--json")
    page = tmp_path / "page.html"
    html_code, html_out, html_err = run_cli(capsys, "tree", tree, "-a", algorithm, "--html", page)
    assert html_code == code
    if code != 0:  # minimax and alpha-beta refuse chance nodes: no page, the same one line
        assert html_err == err and err.count("\n") == 1 and not page.exists()
        return
    printed = json.loads(out)
    trace = embedded(page.read_text(encoding="utf-8"))
    for key in ("generated", "evaluated", "value", "action"):
        assert trace[key] == printed[key], key
    # the steps tell the same search: the nodes they visit and value, in the same order
    assert replayed_lists(trace) == (printed["generated"], printed["evaluated"])
    assert trace["counts"]["generated"] == len(printed["generated"])
    last = trace["steps"][-1]
    assert (last["type"], last["node"], last["value"]) == ("done", 0, printed["value"])
    for step in trace["steps"]:  # every step carries the value, alpha and beta
        assert {"type", "node", "value", "alpha", "beta"} <= step.keys()


@pytest.mark.parametrize("options", [["--depth", "2"], ["--strict-pruning"],
                                     ["--depth", "1", "--strict-pruning"]])
def test_depth_and_strict_pruning_work_as_in_the_tree_command(capsys, tmp_path, options):
    tree = TREES / "recitation.json"
    code, out, _ = run_cli(capsys, "tree", tree, "-a", "alphabeta", "--json", *options)
    assert code == 0
    page = tmp_path / "page.html"
    assert run_cli(capsys, "tree", tree, "-a", "alphabeta", "--html", page, *options)[0] == 0
    trace, printed = embedded(page.read_text(encoding="utf-8")), json.loads(out)
    assert (trace["generated"], trace["evaluated"], trace["value"], trace["action"]) == \
        (printed["generated"], printed["evaluated"], printed["value"], printed["action"])
    assert replayed_lists(trace) == (printed["generated"], printed["evaluated"])


def test_a_cut_names_its_comparison_and_the_pruned_branch():
    trace = explore_tree(builtin_tree("recitation"), "alphabeta").trace
    ids = [node["id"] for node in trace["nodes"]]
    cuts = [(ids[s["node"]], s["test"], s["pruned"]) for s in trace["steps"] if s["type"] == "cut"]
    assert cuts[0] == ("F", "3 >= beta 2", ["L"])
    assert len(cuts) == trace["counts"]["cutoffs"] == 3


def test_chance_nodes_show_their_weighted_sums():
    trace = explore_tree(builtin_tree("slides_expectimax"), "expectimax").trace
    sums = [s["sum"] for s in trace["steps"] if s["type"] == "chance"]
    assert sums == ["1/2×8 = 4", "1/2×8 + 1/3×24 = 12", "1/2×8 + 1/3×24 + 1/6×(-12) = 10"]
    assert [n["p"] for n in trace["nodes"] if "p" in n] == ["1/2", "1/3", "1/6"]


def test_the_page_is_self_contained_and_shows_in_a_notebook():
    explored = explore_tree(builtin_tree("recitation"), "alphabeta")
    document = explored.page()
    assert not re.search(r"https?:|//[a-z]", document, re.I)
    assert not re.search(r"<(link|img|iframe)\b|\bsrc\s*=|@import|url\(", document, re.I)
    assert document.count("<script") == 2
    assert 'class="light"' in explored.page("light")
    frame = explored._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "search-trace" in frame


def test_bad_output_and_theme_are_one_line_and_exit_2(capsys, tmp_path):
    code, _, err = run_cli(capsys, "tree", "recitation", "-a", "minimax", "--html",
                           tmp_path / "missing" / "page.html")
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err
    code, _, err = run_cli(capsys, "tree", "recitation", "-a", "minimax", "--html",
                           tmp_path / "p.html", "--theme", "pink")
    assert code == 2 and "Traceback" not in err


# --- explain: a recorded Pacman's decision --------------------------------------------------
@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    path = tmp_path_factory.mktemp("explain") / "games.jsonl"
    code = main(["play", "-l", "smallClassic", "-p", "alphabeta", "--pacman-opt", "depth=3",
                 "--display", "none", "--max-moves", "8", "--seed", "3", "--games", "2",
                 "--record", str(path)])
    assert code == 0
    return path


def test_explain_shows_the_search_the_agent_ran(capsys, tmp_path, recording):
    page = tmp_path / "move.html"
    code, out, err = run_cli(capsys, "explain", recording, "--move", "4", "--game", "2",
                             "--html", page)
    assert code == 0, err
    trace = embedded(page.read_text(encoding="utf-8"))
    game = load_results(str(recording))[1]
    number, state = [(i, s) for i, s in enumerate(replay_states(game)) if s.turn == 0][3]
    played = game.actions[number]
    agent = AlphaBetaAgent(depth=3)
    own = agent.search(state)
    assert trace["action"] == own.action == played
    assert trace["value"] == pytest.approx(own.value)
    assert trace["counts"]["generated"] == own.stats.nodes_generated == len(trace["generated"])
    # the search counts every cut test; the page counts those that pruned something
    counts = trace["counts"]
    assert counts["cutoffs"] + counts["empty_cuts"] == own.stats.cutoffs
    cuts = [s for s in trace["steps"] if s["type"] == "cut"]
    assert counts["cutoffs"] == sum(1 for s in cuts if s["pruned"]) > 0
    assert counts["empty_cuts"] == sum(1 for s in cuts if not s["pruned"]) > 0
    assert f"cuts: {counts['cutoffs']} (and {counts['empty_cuts']} cut tests" in out
    assert trace["principal_variation"] == list(own.principal_variation)
    board = trace["board"]
    assert board["positions"] == list(state.positions)
    assert board["paths"][0][0] == state.pacman_cell and len(board["paths"][0]) > 1
    assert f"action: {played}" in out


@pytest.mark.parametrize("argv, message", [
    (["--move", "99"], "not 99"),
    (["--move", "1", "--game", "3"], "holds 2 games; there is no game 3"),
])
def test_explain_refuses_what_is_not_there(capsys, tmp_path, recording, argv, message):
    code, _, err = run_cli(capsys, "explain", recording, "--html", tmp_path / "p.html", *argv)
    assert code == 2 and message in err and err.count("\n") == 1


def test_explain_imports_nothing_a_recording_names(capsys, tmp_path, recording):
    line = json.loads(recording.read_text().splitlines()[0])
    line["agents"][0]["options"]["evaluation"] = "os:getcwd"
    forged = tmp_path / "forged.jsonl"
    forged.write_text(json.dumps(line) + "\n")
    code, _, err = run_cli(capsys, "explain", forged, "--move", "1", "--html", tmp_path / "p.html")
    assert code == 2 and "not a built-in one" in err
    line["agents"][0] = {"name": "greedy", "options": {}}
    forged.write_text(json.dumps(line) + "\n")
    code, _, err = run_cli(capsys, "explain", forged, "--move", "1", "--html", tmp_path / "p.html")
    assert code == 2 and "explain shows the searches of minimax" in err


# --- in a real browser ------------------------------------------------------------------------
def page_state(browser: Browser) -> dict:
    """The explorer's ``data-`` attributes: step, steps, current node, cuts drawn, nodes drawn."""
    return json.loads(browser.evaluate('JSON.stringify(document.getElementById("explorer").dataset)'))


@needs_chromium
def test_stepping_to_the_first_cut_and_back_in_chromium(tmp_path):
    page = tmp_path / "recitation.html"
    explore_tree(builtin_tree("recitation"), "alphabeta").write(page)
    with Browser(page.as_uri()) as browser:
        assert page_state(browser)["step"] == "0"
        # readable at 1024x768: the page needs no sideways scrolling
        assert browser.evaluate("document.documentElement.scrollWidth") <= 1024
        browser.press("c")  # on to the next cut: F, 3 >= beta 2
        shown = page_state(browser)
        assert (shown["step"], shown["current"], shown["cuts"]) == ("8", "F", "1")
        svg = browser.evaluate('document.getElementById("tree").innerHTML')
        assert "cut: 3 ≥ β 2" in svg and 'class="cutmark"' in svg
        assert "α -∞  β 2" in svg  # F's window, on the current path
        assert "Cut at F" in browser.evaluate('document.getElementById("what").textContent')
        browser.press("ArrowLeft")
        shown = page_state(browser)
        assert (shown["step"], shown["cuts"]) == ("7", "0")
        assert browser.evaluate("location.hash") == "#step=7"
        assert "cutmark" not in browser.evaluate('document.getElementById("tree").innerHTML')
        browser.press("ArrowRight")
        assert page_state(browser)["cuts"] == "1"
        browser.press("End")
        assert page_state(browser)["step"] == page_state(browser)["steps"] == "35"
        browser.evaluate('document.querySelector(\'#tree g.node[data-id="D"]\')'
                         '.dispatchEvent(new MouseEvent("dblclick", {bubbles: true}))')
        shown = page_state(browser)  # the step that visits D: after 28 steps
        assert (shown["step"], shown["current"]) == ("29", "D")
        browser.screenshot(str(tmp_path / "end.png"))
        assert (tmp_path / "end.png").stat().st_size > 10_000


@needs_chromium
def test_a_link_to_step_n_opens_there(tmp_path):
    page = tmp_path / "expectimax.html"
    explore_tree(builtin_tree("slides_expectimax"), "expectimax").write(page)
    with Browser(page.as_uri() + "#step=5") as browser:
        shown = page_state(browser)
        root = builtin_tree("slides_expectimax").root.id
        assert (shown["step"], shown["current"]) == ("5", root)
        svg = browser.evaluate('document.getElementById("tree").innerHTML')
        assert "1/2×8 + 1/3×24 = 12" in svg
        browser.evaluate('location.hash = "#step=2"')
        browser.evaluate("new Promise(r => setTimeout(r, 50))")
        assert page_state(browser)["step"] == "2"


@needs_chromium
def test_a_large_pacman_tree_folds_and_opens_on_a_click(tmp_path, recording):
    page = tmp_path / "move.html"
    assert main(["explain", str(recording), "--move", "2", "--html", str(page)]) == 0
    total = len(embedded(page.read_text(encoding="utf-8"))["nodes"])
    with Browser(page.as_uri()) as browser:
        drawn = int(page_state(browser)["drawn"])
        assert 1 < drawn < total  # folded: only the top of the tree is drawn
        assert "nodes: click to open" in browser.evaluate('document.getElementById("tree").innerHTML')
        browser.evaluate('document.querySelector("#tree text.fold")'
                         '.dispatchEvent(new MouseEvent("click", {bubbles: true}))')
        assert int(page_state(browser)["drawn"]) > drawn
        assert browser.evaluate('document.getElementById("boardbox").hidden') is False


# --- any tree the tree command reads ----------------------------------------------------------
def random_tree(draw, depth: int, counter: list[int], chance: bool) -> dict:
    from hypothesis import strategies as st

    counter[0] += 1
    node: dict = {"id": f"n{counter[0]}"}
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        node["value"] = draw(st.integers(-20, 20))
        return node
    kinds = ["max", "min", "chance"] if chance else ["max", "min"]
    node["kind"] = draw(st.sampled_from(kinds))
    node["value"] = draw(st.integers(-20, 20))  # static value, for --depth cuts
    node["children"] = [random_tree(draw, depth - 1, counter, chance)
                        for _ in range(draw(st.integers(1, 3)))]
    return node


def test_any_tree_file_gives_a_page_that_agrees_with_tree_json(tmp_path_factory):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    folder = tmp_path_factory.mktemp("trees")

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data(), algorithm=st.sampled_from(ALGORITHMS),
           depth=st.one_of(st.none(), st.integers(0, 3)), strict=st.booleans())
    def check(data, algorithm, depth, strict):
        strict = strict and algorithm == "alphabeta"
        tree = random_tree(data.draw, 4, [0], chance=algorithm in ("expectimax", "expectiminimax"))
        path = folder / "tree.json"
        path.write_text(json.dumps(tree))
        options = ([] if depth is None else ["--depth", str(depth)]) + (
            ["--strict-pruning"] if strict else [])
        out, page = io_run(["tree", str(path), "-a", algorithm, "--json", *options])
        _, document = io_run(["tree", str(path), "-a", algorithm, "--html",
                              str(folder / "t.html"), *options], folder / "t.html")
        printed, trace = json.loads(out), embedded(document)
        assert (trace["generated"], trace["evaluated"], trace["value"], trace["action"]) == \
            (printed["generated"], printed["evaluated"], printed["value"], printed["action"])
        assert replayed_lists(trace) == (printed["generated"], printed["evaluated"])
        opened = [s["node"] for s in trace["steps"] if s["type"] == "visit"]
        closed = [s["node"] for s in trace["steps"] if s["type"] == "done"]
        assert sorted(opened) == sorted(closed)

    check()


def io_run(argv: list[str], page: Path | None = None) -> tuple[str, str]:
    """stdout of the command line (which must succeed), and the page it wrote if any."""
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(argv) == 0
    return buffer.getvalue(), page.read_text(encoding="utf-8") if page else ""


@needs_chromium
def test_every_builtin_tree_plays_to_its_end_in_chromium(tmp_path):
    cases = [(name, "expectiminimax") for name in sorted(BUILTIN_TREES)] + [
        ("recitation", "alphabeta"), ("slides_minimax", "minimax")]
    with Browser("about:blank") as browser:
        for number, (tree, algorithm) in enumerate(cases):
            page = tmp_path / f"page{number}.html"
            explored = explore_tree(builtin_tree(tree), algorithm)
            explored.write(page, theme="light")
            browser.goto(page.as_uri())
            browser.press("End")
            shown = page_state(browser)
            assert shown["step"] == shown["steps"] == str(len(explored.trace["steps"])), tree
            assert shown["current"] == explored.trace["nodes"][0]["id"]
            assert int(shown["drawn"]) == len(explored.trace["nodes"])
            summary = browser.evaluate('document.getElementById("summary").textContent')
            assert f"{explored.trace['counts']['generated']} nodes generated" in summary


@pytest.mark.parametrize("pacman, options", [("expectimax", ["--pacman-opt", "depth=2"]),
                                             ("alphabeta", [])])
def test_explain_rebuilds_expectimax_and_a_budgeted_search(capsys, tmp_path, pacman, options):
    """Expectimax's chance nodes show their sums; an agent with no depth plays with a node
    budget, and the page shows its deepest finished round, saying so."""
    recorded = tmp_path / "games.jsonl"
    assert main(["play", "-l", "smallClassic", "-p", pacman, *options, "--display", "none",
                 "--max-moves", "4", "--seed", "5", "--record", str(recorded)]) == 0
    capsys.readouterr()
    page = tmp_path / "move.html"
    code, out, err = run_cli(capsys, "explain", recorded, "--move", "3", "--html", page,
                             "--theme", "light")
    assert code == 0, err
    document = page.read_text(encoding="utf-8")
    trace = embedded(document)
    assert '<body class="light">' in document
    game = load_results(str(recorded))[0]
    number, state = [(i, s) for i, s in enumerate(replay_states(game)) if s.turn == 0][2]
    assert trace["action"] == game.actions[number]
    if pacman == "expectimax":
        assert any(s["type"] == "chance" and "×" in s["sum"] for s in trace["steps"])
        assert trace["note"] == ""
    else:
        from pacman.lineup.build import agent_spec

        agent = agent_spec("alphabeta", "pacman", {}).build(0, None)
        reached = agent.search(state).stats.depth_reached
        assert f"node budget of {agent.node_budget}" in trace["note"]
        assert f"depth {reached}" in trace["note"] and "note:" in out
        plain = AlphaBetaAgent(depth=reached).search(state)
        assert trace["counts"]["generated"] == plain.stats.nodes_generated
        assert trace["value"] == pytest.approx(plain.value)
