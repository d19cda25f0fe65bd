"""The search explorer on a projector: the tree fills the panel, every text is large and
contrasts with what lies behind it in both themes, and no label covers a node or another label
(measured in headless Chromium from the page's own computed boxes, sizes and colours)."""

from __future__ import annotations

import json

import pytest
from browser import CHROMIUM, Browser

from pacman.agents.search.lecture_games import builtin_tree
from pacman.cli import main
from pacman.display.search_page import explore_tree

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")
SIZES = [(1024, 768), (1366, 768), (1920, 1080)]


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("projector")
    made = {}
    for theme in ("dark", "light"):
        page = folder / f"recitation-{theme}.html"
        explore_tree(builtin_tree("recitation"), "alphabeta").write(page, theme=theme)
        made[("recitation", theme)] = page
        page = folder / f"depth-{theme}.html"
        explore_tree(builtin_tree("recitation"), "alphabeta", depth=2).write(page, theme=theme)
        made[("depth", theme)] = page
        page = folder / f"expectimax-{theme}.html"
        explore_tree(builtin_tree("slides_expectimax"), "expectimax").write(page, theme=theme)
        made[("expectimax", theme)] = page
    recorded = folder / "games.jsonl"
    assert main(["play", "-l", "smallClassic", "-p", "alphabeta", "--pacman-opt", "depth=2",
                 "-g", "random", "--display", "none", "--max-moves", "3", "--seed", "3",
                 "--record", str(recorded)]) == 0
    for theme in ("dark", "light"):
        page = folder / f"explain-{theme}.html"
        assert main(["explain", str(recorded), "--move", "2", "--html", str(page), "--theme",
                     theme]) == 0
        made[("explain", theme)] = page
    return made


@pytest.mark.parametrize("width, height", [(1024, 768), (1920, 1080)])
def test_the_recitation_tree_fills_most_of_its_panel(pages, width, height):
    with Browser(pages[("recitation", "dark")].as_uri(), width, height) as browser:
        browser.press("c")
        span = browser.evaluate(
            "(() => { const boxes = [...document.querySelectorAll('#tree g.node .shape')]"
            ".map(e => e.getBoundingClientRect());"
            " const left = Math.min(...boxes.map(b => b.left)), right = Math.max(...boxes.map("
            "b => b.right)); return [right - left, document.getElementById('tree')"
            ".clientWidth]; })()")
    assert span[0] >= 0.7 * span[1], span


TEXTS = """(() => {
  const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const opaque = c => c && c !== "transparent" && !/rgba\\(.*, 0\\)$/.test(c);
  const behind = el => {
    if (el.closest("svg")) {
      const g = el.closest("g.node"), shape = g && el.classList.contains("value") ? g.querySelector(".shape") : null;
      if (shape) { const f = getComputedStyle(shape).fill; if (opaque(f)) return f; }
      return getComputedStyle(document.getElementById("tree")).backgroundColor;
    }
    for (let e = el; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor; if (opaque(b)) return b; }
    return "rgb(255, 255, 255)";
  };
  let node;
  while ((node = walk.nextNode())) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest("script, title, option, [hidden]")) continue;
    const style = getComputedStyle(el), box = el.getBoundingClientRect();
    if (style.visibility === "hidden" || style.display === "none" || !box.width) continue;
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const svg = !!el.closest("svg");
    out.push({ text: node.textContent.trim().slice(0, 40), size: parseFloat(style.fontSize),
               colour: svg ? style.fill : style.color, behind: behind(el), opacity: opacity });
  }
  return out;
})()"""

MARKS = """(() => [...document.querySelectorAll('#tree svg line, #tree svg polygon, #tree svg rect,'
  + ' #tree svg circle')].filter(e => getComputedStyle(e).stroke !== 'none').map(e => ({
    what: e.outerHTML.slice(0, 60), colour: getComputedStyle(e).stroke,
    behind: getComputedStyle(document.getElementById('tree')).backgroundColor,
    opacity: Number(getComputedStyle(e).opacity) * Number(getComputedStyle(e.parentElement).opacity)})))()"""


def luminance(colour: str) -> float:
    values = [float(v) for v in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in values)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    a, b = sorted((luminance(first), luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def visit_states(browser: Browser) -> list[str]:
    """Step through the moments that draw the most: before, the first cut, and the end."""
    return ["Home", "c", "End"]


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("name", ["recitation", "depth", "expectimax", "explain"])
def test_every_text_is_large_and_every_text_and_mark_contrasts(pages, theme, name):
    with Browser(pages[(name, theme)].as_uri(), 1920, 1080) as browser:
        for key in ("Home", "c", "ArrowRight", "End"):
            browser.press(key)
            texts = browser.evaluate(TEXTS)
            marks = browser.evaluate(MARKS)
            assert len(texts) > 20 and len(marks) > 5
            for item in texts:
                assert item["size"] >= 18, item
                assert item["opacity"] == 1, item
                assert contrast(item["colour"], item["behind"]) >= 4.5, item
            for item in marks:
                assert item["opacity"] == 1, item
                assert contrast(item["colour"], item["behind"]) >= 4.5, item


OVERLAPS = """(() => {
  const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const texts = [...document.querySelectorAll('#tree svg text')].filter(t => t.textContent.trim()
      && getComputedStyle(t).visibility !== 'hidden');
  const shapes = [...document.querySelectorAll('#tree g.node > polygon, #tree g.node > rect,'
      + ' #tree g.node > circle')].filter(s => s.getAttribute('fill') !== 'none');
  const inside = (t, s) => { const a = box(t), b = box(s);
      return a[0] >= b[0] - 2 && a[2] <= b[2] + 2 && a[1] >= b[1] - 2 && a[3] <= b[3] + 2; };
  // a node's own value, written inside its shape, is part of the node
  const labels = texts.filter(t => !shapes.some(s => s.parentElement === t.parentElement && inside(t, s)));
  const meet = (a, b) => a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1;
  const found = [];
  labels.forEach((t, i) => {
    for (const s of shapes) if (meet(box(t), box(s))) found.push([t.textContent, 'node ' + s.parentElement.dataset.id]);
    for (const u of labels.slice(i + 1)) if (meet(box(t), box(u))) found.push([t.textContent, u.textContent]);
  });
  return [labels.length, found];
})()"""


@pytest.mark.parametrize("name", ["recitation", "depth", "expectimax", "explain"])
@pytest.mark.parametrize("width, height", SIZES)
def test_no_label_covers_a_node_or_another_label(pages, width, height, name):
    with Browser(pages[(name, "dark")].as_uri(), width, height) as browser:
        steps = int(json.loads(browser.evaluate(
            'JSON.stringify(document.getElementById("explorer").dataset)'))["steps"])
        # every step of a lecture tree; a sample of the Pacman tree's, its cuts among them
        stride = 1 if steps < 60 else max(1, steps // 12)
        seen = 0
        for step in range(0, steps + 1, stride):
            browser.evaluate(f'location.hash = "#step={step}"')
            browser.evaluate("new Promise(r => setTimeout(r, 0))")
            count, found = browser.evaluate(OVERLAPS)
            seen += count
            assert not found, (name, step, found)
        assert seen > 0


def test_the_board_beside_an_explained_move_grows_with_the_window(pages):
    widths = []
    for width, height in ((1024, 768), (1920, 1080)):
        with Browser(pages[("explain", "dark")].as_uri(), width, height) as browser:
            widths.append(browser.evaluate(
                'document.getElementById("board").getBoundingClientRect().width'))
    assert widths[1] >= 450 and widths[1] > 1.4 * widths[0], widths


@pytest.fixture(scope="module")
def thrashing_page(tmp_path_factory):
    """``explain`` of the lecture's thrashing demo (depth 3, 132 nodes, five root moves)."""
    folder = tmp_path_factory.mktemp("thrashing")
    recorded, page = folder / "games.jsonl", folder / "explain.html"
    assert main(["play", "-l", "thrashing_lecture", "-p", "minimax", "--pacman-opt", "depth=3",
                 "--pacman-opt", "evaluation=score", "--pacman-opt", "tie_break=first",
                 "--display", "none", "--max-moves", "2", "--seed", "1",
                 "--record", str(recorded)]) == 0
    assert main(["explain", str(recorded), "--move", "1", "--html", str(page)]) == 0
    return page


INSIDE = """(() => {
  const panel = document.getElementById('tree'), box = panel.getBoundingClientRect();
  const drawn = [...panel.querySelectorAll('svg text, g.node .shape')]
      .filter(e => getComputedStyle(e).visibility !== 'hidden' && e.textContent !== null);
  const out = drawn.map(e => { const b = e.getBoundingClientRect();
      return [e.textContent.trim() || e.closest('g.node').dataset.id, b.left, b.right, b.top, b.bottom]; })
    .filter(b => b[1] < box.left - 1 || b[2] > box.right + 1 || b[3] < box.top - 1 || b[4] > box.bottom + 1);
  return [drawn.length, out, panel.scrollWidth <= panel.clientWidth + 1,
          [...panel.querySelectorAll('svg text')].map(t => t.textContent.trim())];
})()"""


def _fits_at(browser: Browser, steps: list[int]) -> list[str]:
    """Each of ``steps`` drawn wholly inside the tree's panel, nothing to scroll sideways;
    the texts of the last one drawn."""
    texts: list[str] = []
    for step in steps:
        browser.evaluate(f'location.hash = "#step={step}"')
        browser.evaluate("new Promise(r => setTimeout(r, 0))")
        count, outside, no_scroll, texts = browser.evaluate(INSIDE)
        assert count > 5 and not outside and no_scroll, (step, outside)
    return texts


def test_the_thrashing_demo_explained_fits_its_panel_at_its_last_step(thrashing_page):
    with Browser(thrashing_page.as_uri(), 1024, 768) as browser:
        steps = int(browser.evaluate('document.getElementById("explorer").dataset.steps'))
        assert steps > 200
        # deep in the search (the most leaves open), then the end
        texts = _fits_at(browser, [steps // 2, steps])
    # the root's five moves, each labelled, the chosen one marked
    assert {"South", "East", "West", "Stop"} <= set(texts) and "North \u2714 chosen" in texts


@pytest.mark.slow
@pytest.mark.parametrize("width, height", [(1024, 768), (1920, 1080)])
def test_the_thrashing_demo_explained_fits_its_panel_at_every_step(thrashing_page, width, height):
    with Browser(thrashing_page.as_uri(), width, height) as browser:
        steps = int(browser.evaluate('document.getElementById("explorer").dataset.steps'))
        _fits_at(browser, [*range(0, steps, 23), steps])
