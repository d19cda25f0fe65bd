"""The search explorer: one self-contained web page that steps through a search, node by node.

The page (``search_page.html`` beside this module) draws the searched tree and replays the
search's own steps (:mod:`pacman.agents.search.steps`): forward and back one step, play, on to the
next cut, jump to step N (``page.html#step=N``), keys and buttons. At each step it shows the
node being visited, every node's value so far, alpha and beta along the current path (for the
pruning algorithms), chance nodes' weighted sums as they grow, and each cut with the comparison
that caused it. Subtrees of a large tree fold (a click opens one) and say how many nodes they
hold. A Pacman decision adds the board with the principal variation drawn on it.

What the page draws is embedded as JSON in ``<script type="application/json"
id="search-trace">`` (see :func:`explored_page`): the generated and evaluated nodes in order (as
``pacman-arena tree --json`` prints them), the value and the action, the nodes and the steps
(see :func:`search_trace`; a lecture tree adds ``depth_limit``, ``null`` for the whole tree).
It needs no server and no network.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pacman.agents.search.algorithms import algorithm_config
from pacman.agents.search.core import run_search
from pacman.agents.search.result import SearchResult
from pacman.agents.search.steps import StepRecorder, fraction, number
from pacman.agents.search.trees import TreeGame
from pacman.errors import ConfigurationError

#: the page's colour schemes: ``dark`` for a screen, ``light`` for a projector
THEMES = ("dark", "light")
_PLACEHOLDER = "__SEARCH_TRACE__"


@dataclass(frozen=True)
class ExploredSearch:
    """A search and the trace its page is drawn from; in Jupyter it shows as that page.

    ``trace`` is the JSON-ready object embedded in the page (see the module docstring).
    """

    result: SearchResult
    trace: dict[str, Any] = field(repr=False)

    def page(self, theme: str = "dark") -> str:
        """The whole page: one HTML document with the trace and the explorer."""
        return explored_page(self.trace, theme=theme)

    def write(self, path: str | Path, theme: str = "dark") -> int:
        """Write the page to ``path``; returns its size in bytes. Raises
        :class:`~pacman.errors.ConfigurationError` if the file cannot be written."""
        page = self.page(theme).encode("utf-8")
        try:
            Path(path).write_bytes(page)
        except OSError as error:
            raise ConfigurationError(f"{path}: cannot write ({error.strerror or error})") from None
        except ValueError as error:  # a path no file can have (a NUL byte)
            raise ConfigurationError(f"{path!r}: cannot write ({error})") from None
        return len(page)

    def _repr_html_(self) -> str:
        """The page in an ``iframe``, for Jupyter (its script cannot touch the notebook)."""
        tall = 760 if self.trace.get("board") else 620
        return (f'<iframe srcdoc="{html.escape(self.page(), quote=True)}" width="100%" '
                f'height="{tall}" style="border:0;min-width:960px" sandbox="allow-scripts" '
                f'title="{html.escape(self.trace["title"])}"></iframe>')


def explored_page(trace: dict[str, Any], *, theme: str = "dark") -> str:
    """The explorer page of ``trace`` in ``theme`` (one of :data:`THEMES`)."""
    if theme not in THEMES:
        raise ConfigurationError(f"unknown theme {theme!r} (known: {', '.join(THEMES)})")
    template = resources.files("pacman.display").joinpath("search_page.html").read_text("utf-8")
    # No "<" inside the script element: "</script" would end it early. JSON spells it \u003c.
    payload = json.dumps(trace, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")
    page = template.replace("__TITLE__", html.escape(trace["title"]))
    return page.replace("__THEME__", theme).replace(_PLACEHOLDER, payload)


def explore_tree(game: TreeGame, algorithm: str, *, depth: int | None = None,
                 strict: bool = False, title: str | None = None) -> ExploredSearch:
    """Search the explicit tree ``game`` as ``pacman-arena tree`` does and record every step.

    The page draws the whole tree from the start (a lecture's board: leaf values printed,
    in grey italics until read, hidden in quiz mode) and shows the subtrees a cut leaves
    unsearched as pruned and the nodes below ``depth`` as beyond the horizon.
    """
    recorder = StepRecorder(lambda node: node.id)
    cfg = algorithm_config(algorithm, depth=depth, strict=strict, trace=True, watcher=recorder)
    result = run_search(game, game.root, cfg)
    everything = list(game.root.walk())
    where = {node.id: i for i, node in enumerate(everything)}
    parents = {child.id: where[node.id] for node in everything for child in node.children}
    nodes = []
    for node in everything:
        entry: dict[str, Any] = {
            "id": node.id, "parent": parents.get(node.id, -1),
            "action": node.action, "kind": _kind_name(node),
            "static": number(node.value) if not node.children else None,
        }
        if node.p is not None:
            entry["p"] = fraction(node.p)
        nodes.append(entry)
    recorded = recorder.nodes
    searched_as = {entry["id"]: entry for entry in recorded}
    for entry in nodes:  # the kind the search gave a node (expectimax averages at MIN nodes)
        seen = searched_as.get(entry["id"])
        if seen is not None and seen["kind"] != "leaf":
            entry["kind"] = seen["kind"]
        elif entry["kind"] == "min" and cfg.min_as_chance:
            entry["kind"] = "chance"
        if seen is not None and "p" in seen and "p" not in entry:
            entry["p"] = seen["p"]
    steps = [_renumbered(step, lambda i: where[recorded[i]["id"]]) for step in recorder.steps]
    depth_text = "whole tree" if depth is None else f"depth {depth}"
    trace = search_trace(
        result, algorithm, nodes, steps,
        generated=[node.id for node in result.stats.generated or ()],
        evaluated=[node.id for node in result.stats.evaluated or ()],
        title=title or f"{algorithm} on {game.source}, {depth_text}"
                       + (", strict pruning" if strict else ""),
        prune=cfg.prune, movers=tree_movers(game, result.principal_variation))
    trace["depth_limit"] = depth
    return ExploredSearch(result, trace)


def search_trace(result: SearchResult, algorithm: str, nodes: list[dict[str, Any]],
                 steps: list[dict[str, Any]], *, generated: list[str], evaluated: list[str],
                 title: str, prune: bool, board: dict[str, Any] | None = None,
                 note: str = "", show_ids: bool = True,
                 movers: list[str] | None = None,
                 chosen_edge: str | None = None) -> dict[str, Any]:
    """The object a page is drawn from (see the module docstring); ``show_ids``: write each
    node's id beside it (a lecture tree's letters; a Pacman tree's edges say enough);
    ``movers``: who makes each move of the principal variation (``Pacman``, ``ghost 1``;
    ``MAX``, ``MIN``, ``chance``); ``chosen_edge``: the name of the chosen move's edge
    when it is not the action itself (a Pacman tree's ``E`` for ``East``).

    ``counts["cutoffs"]`` counts the cuts that pruned something; ``counts["empty_cuts"]`` the
    cut tests that stopped a node after its last move, when nothing was left to prune (the
    search counts both as cutoffs). ``chosen`` is the index of the root's child the search
    chooses (``None`` without one)."""
    stats = result.stats
    cuts = [step for step in steps if step["type"] == "cut"]
    pruning = sum(1 for step in cuts if step.get("pruned"))
    action = None if result.action is None else str(result.action)
    pv = [str(a) for a in result.principal_variation]
    return {
        "title": title, "algorithm": algorithm, "prune": bool(prune),
        "value": number(result.value), "action": action,
        "chosen": _chosen(nodes, action if chosen_edge is None else chosen_edge),
        "principal_variation": pv,
        "movers": list(movers or [])[:len(pv)],
        "generated": generated, "evaluated": evaluated,
        "counts": {"generated": stats.nodes_generated, "evaluated": stats.leaf_evaluations,
                   "cutoffs": pruning, "empty_cuts": len(cuts) - pruning},
        "nodes": nodes, "steps": steps, "board": board, "note": note, "show_ids": show_ids,
    }


def _chosen(nodes: list[dict[str, Any]], edge: str | None) -> int | None:
    """The index of the root's child along the edge named ``edge``."""
    if edge is None:
        return None
    return next((i for i, node in enumerate(nodes)
                 if node["parent"] == 0 and node["action"] == edge), None)


def tree_movers(game: TreeGame, principal_variation: Any) -> list[str]:
    """Who moves at each step of a lecture tree's principal variation: the kind of the node
    the move leaves."""
    movers = []
    node: Any = game.root
    for action in principal_variation:
        movers.append({"max": "MAX", "min": "MIN"}.get(_kind_name(node), "chance"))
        node = next((c for c in node.children if c.action == action or c.id == action), None)
        if node is None:
            break
    return movers


def _renumbered(step: dict[str, Any], index: Any) -> dict[str, Any]:
    step = dict(step, node=index(step["node"]))
    if "child" in step:
        step["child"] = index(step["child"])
    return step


def _kind_name(node: Any) -> str:
    return "leaf" if not node.children else node.kind.name.lower()
