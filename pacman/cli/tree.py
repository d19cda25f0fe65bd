"""``tree``: run a search algorithm on a lecture game tree and show what it did.

Usage: ``tree FILE_OR_BUILTIN --algorithm {minimax,alphabeta,expectimax,expectiminimax}
[--depth PLIES] [--strict-pruning] [--json] [--html PAGE [--theme {dark,light}]]``.  Prints
the root value, the chosen action, the principal variation with whose move each is (``MAX C,
MIN H``), the nodes generated in order (root first) and the leaves
evaluated in order (terminal values and static values at the depth cut, the recitation's
"static evaluations").  ``--json`` prints one object with keys ``value``, ``action``,
``generated`` and ``evaluated``.  ``--html`` also writes the search explorer, a page that
steps through the same search (:mod:`pacman.display.search_page`).  Errors are one line on
stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
from pathlib import Path
from typing import Any

from pacman.cli.argtypes import whole_number
from pacman.agents.search.algorithms import ALGORITHMS, algorithm_config
from pacman.agents.search.core import ChanceNodeError, run_search
from pacman.agents.search.lecture_games import BUILTIN_TREES, builtin_tree
from pacman.agents.search.trees import TreeFormatError, TreeGame, load_tree
from pacman.display.search_page import THEMES, explore_tree, tree_movers
from pacman.errors import ConfigurationError


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``tree`` command's arguments to ``parser``."""
    parser.add_argument(
        "tree",
        metavar="FILE_OR_BUILTIN",
        help=f"a JSON tree file, or a built-in tree: {', '.join(BUILTIN_TREES)}",
    )
    parser.add_argument(
        "--algorithm", "-a", choices=ALGORITHMS, metavar="NAME",
        help=f"the search algorithm to run (required): {', '.join(ALGORITHMS)}"
    )
    parser.add_argument(
        "--depth", type=whole_number(0, "a whole number of plies"), metavar="PLIES",
        help="search depth in plies; internal nodes at the cut use their 'value' (default: whole tree)",
    )
    parser.add_argument(
        "--strict-pruning", action="store_true",
        help="alphabeta only: prune on v > beta / v < alpha instead of v >= beta / v <= alpha",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument(
        "--html", metavar="PAGE",
        help="also write a self-contained page that steps through the search node by node",
    )
    parser.add_argument("--theme", choices=THEMES, default="dark",
                        help="the page's colours: dark (screen, default) or light (projector)")


def run(args: argparse.Namespace) -> int:
    """Run the ``tree`` command; returns the exit code (0, or 2 on a user error)."""
    try:
        game = _load(args.tree)  # the tree first: a mistyped name is the first thing to fix
        if args.algorithm is None:
            raise _UsageError(f"tree: give the algorithm, --algorithm/-a NAME: "
                              f"{', '.join(ALGORITHMS)}")
        if args.strict_pruning and args.algorithm != "alphabeta":
            raise _UsageError("--strict-pruning applies to --algorithm alphabeta only")
        game.check_depth(args.depth)
        _check_scalar_values(game)
        if args.html is None:
            cfg = algorithm_config(args.algorithm, depth=args.depth, strict=args.strict_pruning,
                                   trace=True)
            result = run_search(game, game.root, cfg)
        else:
            explored = explore_tree(game, args.algorithm, depth=args.depth,
                                    strict=args.strict_pruning)
            result = explored.result
            explored.write(args.html, theme=args.theme)
    except (TreeFormatError, ChanceNodeError, _UsageError, ConfigurationError) as error:
        from pacman.cli import print_error

        print_error(str(error))
        return 2
    generated = [node.id for node in result.stats.generated or ()]
    evaluated = [node.id for node in result.stats.evaluated or ()]
    if args.json:
        print(json.dumps({
            "value": _json_number(result.value),
            "action": result.action,
            "generated": generated,
            "evaluated": evaluated,
        }))
        return 0
    depth = "whole tree" if args.depth is None else f"{args.depth} plies"
    print(f"tree: {args.tree}  algorithm: {args.algorithm}  depth: {depth}")
    print(f"value: {_text_number(result.value)}")
    print(f"action: {'-' if result.action is None else result.action}")
    movers = tree_movers(game, result.principal_variation)
    print("principal variation: " + (", ".join(
        f"{who} {move}" for who, move in zip(movers, map(str, result.principal_variation)))
        or "-"))
    print(f"generated ({len(generated)}): {' '.join(generated)}")
    print(f"evaluated ({len(evaluated)}): {' '.join(evaluated)}")
    if args.html is not None:
        print(f"page: {args.html}")
    return 0


class _UsageError(Exception):
    pass


def _check_scalar_values(game: TreeGame) -> None:
    """Refuse utility vectors (max^n trees): the algorithms here compare plain numbers."""
    for node in game.root.walk():
        if isinstance(node.value, tuple):
            raise _UsageError(f"node {node.id!r} has a vector value {list(node.value)}; the tree "
                              "command's algorithms need one number per node")


def _load(name: str) -> TreeGame:
    if Path(name).is_file():
        return load_tree(name)
    if name in BUILTIN_TREES:
        return builtin_tree(name)
    close = difflib.get_close_matches(name, list(BUILTIN_TREES), n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else f" ({', '.join(BUILTIN_TREES)})"
    raise _UsageError(f"{name!r} is neither a tree file nor a built-in tree{hint}")


def _json_number(value: Any) -> Any:
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        if value.is_integer():
            return int(value)
    return value


def _text_number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}" if math.isfinite(value) else str(value)
    return str(value)
