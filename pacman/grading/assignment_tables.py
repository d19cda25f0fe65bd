"""Checked reading of an assignment's TOML tables: every key known, every value typed, each
mistake a one-line :class:`~pacman.errors.ConfigurationError` naming the file and the key; and
the keys every kind of test shares (name, points, visibility, limits, the searching role)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Mapping

from pacman.errors import ConfigurationError
from pacman.grading.assignment_model import VISIBILITIES, TestLimits
from pacman.grading.tree_tests import TREE_ALGORITHMS
from pacman.lineup.plugins import suggest


def read_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigurationError(f"{path}: cannot be read ({error})") from None


class Table:
    """A TOML table with checked access: every key must be known; types are checked."""

    def __init__(self, data: Any, where: str, known: tuple[str, ...]) -> None:
        if not isinstance(data, dict):
            raise ConfigurationError(f"{where}: expected a table")
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ConfigurationError(f"{where}: unknown key {unknown[0]!r}{suggest(unknown[0], list(known))}")
        self.data = data
        self.where = where

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
        if key not in self.data:
            if required:
                raise ConfigurationError(f"{self.where}: missing key {key!r}")
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ConfigurationError(f"{self.where}: {key!r} must be {names}, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.get(key, str, default)
        if value not in choices:
            raise ConfigurationError(f"{self.where}: {key!r} must be one of {', '.join(choices)}, "
                                     f"got {value!r}{suggest(value, list(choices))}")
        return value

    def positive(self, key: str, kind: type, default: Any) -> Any:
        value = self.get(key, (int, float) if kind is float else kind, default)
        if value is not None and value <= 0:
            raise ConfigurationError(f"{self.where}: {key!r} must be positive, got {value!r}")
        return value


LIMIT_KEYS = ("move_seconds", "game_seconds", "test_seconds", "memory_mb", "output_chars", "node_budget")
_COMMON_TEST_KEYS = ("type", "name", "points", "visibility", "tags", "agent", "classic_name") + LIMIT_KEYS
TREE_KEYS = _COMMON_TEST_KEYS + ("algorithm", "depth", "trees", "agents", "strict_pruning", "ties",
                                  "compare_evaluated")
RANDOM_KEYS = _COMMON_TEST_KEYS + ("algorithm", "depth", "count", "seed", "agents", "rounds",
                                    "branching", "values", "strict_pruning", "ties",
                                    "compare_evaluated")
GAME_KEYS = _COMMON_TEST_KEYS + ("search", "evaluation", "options", "layout", "ghosts", "games",
                                  "seed", "max_moves", "credit", "leaderboard", "ghost_count",
                                  "rules", "random")
POSITION_KEYS = _COMMON_TEST_KEYS + ("algorithm", "depth", "layout", "ghosts", "ghost_count",
                                      "seed", "max_moves", "game")


def _optional_float(value: float | None) -> float | None:
    return None if value is None else float(value)


def read_limits(table: Table, base: TestLimits) -> TestLimits:
    budget = table.get("node_budget", int, None)
    if budget is not None and budget < 0:
        raise ConfigurationError(f"{table.where}: 'node_budget' must be 0 (none) or more")
    return TestLimits(
        move_seconds=float(table.positive("move_seconds", float, base.move_seconds)),
        game_seconds=_optional_float(table.positive("game_seconds", float, base.game_seconds)),
        test_seconds=float(table.positive("test_seconds", float, base.test_seconds)),
        memory_mb=table.positive("memory_mb", int, base.memory_mb),
        output_chars=table.positive("output_chars", int, base.output_chars),
        node_budget=base.node_budget if budget is None else (budget or None))


def common_fields(t: Table, number: str, limits: TestLimits, roles: Mapping[str, Any], kind: str,
            default_name: str) -> dict[str, Any]:
    role = t.get("agent", str, None)
    if role is not None and role not in roles:
        raise ConfigurationError(f"{t.where}: 'agent' {role!r} is not a role of [roles]{suggest(role, list(roles))}")
    tags = t.get("tags", list, [])
    if not all(isinstance(x, str) for x in tags):
        raise ConfigurationError(f"{t.where}: 'tags' must be a list of strings")
    points = t.get("points", (int, float), 1)
    if points < 0:
        raise ConfigurationError(f"{t.where}: 'points' must be 0 or more")
    return {"number": number, "name": t.get("name", str, default_name), "kind": kind,
            "points": float(points), "visibility": t.choice("visibility", VISIBILITIES, "visible"),
            "tags": tuple(tags), "limits": read_limits(t, limits), "role": role,
            "classic_name": t.get("classic_name", str, None)}


def search_fields(t: Table, common: dict[str, Any], strict: bool, ties: str) -> dict[str, Any]:
    if common["role"] is None:
        raise ConfigurationError(f"{t.where}: missing key 'agent' (the role that searches)")
    default = common["role"] if common["role"] in TREE_ALGORITHMS else None
    algorithm = t.get("algorithm", str, default)
    if algorithm not in TREE_ALGORITHMS:
        raise ConfigurationError(f"{t.where}: 'algorithm' must be one of {', '.join(TREE_ALGORITHMS)}, "
                                 f"got {algorithm!r}")
    depth = t.positive("depth", int, 2)
    return {"algorithm": algorithm, "depth": depth,
            "strict": t.get("strict_pruning", bool, strict),
            "ties": t.choice("ties", ("any", "first"), ties),
            "compare_evaluated": t.get("compare_evaluated", bool, True)}
