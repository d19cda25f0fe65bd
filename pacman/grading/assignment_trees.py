"""The tree tests of an assignment: fixed trees (``type = "tree"``: built-in, a JSON file or
JSON text) and seeded random ones (``type = "random_trees"``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from pacman.agents.search.lecture_games import BUILTIN_TREES
from pacman.errors import ConfigurationError
from pacman.grading.assignment_model import Test, TestLimits, TreeCase
from pacman.grading.assignment_tables import RANDOM_KEYS, TREE_KEYS, common_fields, read_file, search_fields, Table
from pacman.grading.tree_tests import LayeredTree, random_tree_dict
from pacman.lineup.plugins import suggest


def _check_tree(case: TreeCase, algorithm: str, where: str) -> TreeCase:
    tree = case.tree
    if algorithm != "expectimax" and tree.has_chance():
        raise ConfigurationError(f"{where}: tree {case.label} has chance nodes; {algorithm} trees may not")
    if tree.has_explicit_probabilities():
        raise ConfigurationError(f"{where}: tree {case.label} gives probabilities; graded ghost "
                                 "layers are uniform (agents cannot see them)")
    return case


def tree_test(data: Any, where: str, number: str, limits: TestLimits, roles: Mapping[str, Any],
               strict: bool, ties: str, base: Path | None) -> Test:
    t = Table(data, where, TREE_KEYS)
    common = common_fields(t, number, limits, roles, "tree", "trees")
    keys = search_fields(t, common, strict, ties)
    agents = t.positive("agents", int, None)
    entries = t.get("trees", list, required=True)
    if not entries:
        raise ConfigurationError(f"{where}: 'trees' is empty")
    cases = []
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, str):
            raise ConfigurationError(f"{where}: tree {i} must be a string (builtin:NAME, a file or JSON)")
        label, tree_data = _tree_data(entry, f"{where}: tree {i}", base)
        cases.append(_check_tree(TreeCase(label, LayeredTree(tree_data, agents, source=f"{where}: {label}")),
                                 keys["algorithm"], where))
    return Test(cases=tuple(cases), **common, **keys)


def _tree_data(entry: str, where: str, base: Path | None) -> tuple[str, dict[str, Any]]:
    text = entry.strip()
    if text.startswith("builtin:"):
        name = text[len("builtin:"):]
        if name not in BUILTIN_TREES:
            raise ConfigurationError(f"{where}: no built-in tree {name!r}{suggest(name, list(BUILTIN_TREES))}")
        return name, BUILTIN_TREES[name]()
    if text.startswith("{"):
        label = "inline tree"
        raw = text
    else:
        path = Path(text) if base is None or Path(text).is_absolute() else base / text
        raw = read_file(path)
        label = path.name
    try:
        tree = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"{where}: invalid JSON at line {error.lineno} column {error.colno}: "
                                 f"{error.msg}") from None
    if label == "inline tree" and isinstance(tree, dict) and isinstance(tree.get("id"), str):
        label = f"tree {tree['id']}"
    return label, tree


def _pair(t: Table, key: str, default: tuple[int, int], low: int) -> tuple[int, int]:
    value = t.get(key, list, list(default))
    if (len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or value[0] > value[1] or value[0] < low):
        raise ConfigurationError(f"{t.where}: {key!r} must be [low, high] whole numbers with {low} <= low <= high")
    return value[0], value[1]


def random_test(data: Any, where: str, number: str, limits: TestLimits, roles: Mapping[str, Any],
                 strict: bool, ties: str, base: Path | None) -> Test:
    t = Table(data, where, RANDOM_KEYS)
    common = common_fields(t, number, limits, roles, "tree", "random trees")
    keys = search_fields(t, common, strict, ties)
    count = t.positive("count", int, 10)
    seed = t.get("seed", int, 0)
    agents = t.positive("agents", int, 2)
    rounds = t.positive("rounds", int, keys["depth"])
    branching = _pair(t, "branching", (1, 3), 1)
    values = _pair(t, "values", (-9, 9), -10**9)
    if branching[1] ** (agents * rounds) > 20000:
        raise ConfigurationError(f"{where}: trees of up to {branching[1]}^{agents * rounds} leaves are too big "
                                 "to grade quickly")
    ghost_kind = "chance" if keys["algorithm"] == "expectimax" else "min"
    cases = tuple(
        TreeCase(f"random tree #{k} (seed {seed + k})",
                 LayeredTree(random_tree_dict(seed + k, agents, rounds, branching, values, ghost_kind=ghost_kind),
                             agents, source=f"{where}: random tree {k}"))
        for k in range(count))
    return Test(cases=cases, **common, **keys)
