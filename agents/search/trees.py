"""Explicit game trees from JSON: the lecture's lettered trees as a game.

File format (one JSON object per node)::

    {"id": "A", "kind": "max", "children": [
        {"id": "B", "kind": "min", "value": 2, "children": [
            {"id": "E", "value": 2}, ...]}, ...]}

* ``id``: unique string naming the node (required);
* ``kind``: ``"max"``, ``"min"`` or ``"chance"``; required on internal nodes,
  absent on leaves;
* ``value``: a leaf's utility, or an internal node's static evaluation used
  when the depth limit stops there (optional on internal nodes).  A list of
  numbers is a utility tuple for max^n;
* ``action``: label of the edge from the parent (default: the child's id);
  unique among siblings;
* ``p``: probability of the child under a chance node, a number or a
  ``"1/3"``-style fraction; either every child of a chance node has one or
  none has (uniform).  They must sum to 1;
* ``player``: for max^n, the index of the player moving at this node
  (default 0 at max nodes, 1 at min nodes);
* ``children``: ordered list of child nodes; the order is the move order.

Leaves are end states, so their values are terminal utilities; the
recitation calls reading them "static evaluation", which is why searches
record both kinds in ``SearchStats.evaluated``.  Depth counts plies.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from .game import Game, NodeKind

_KINDS = {"max": NodeKind.MAX, "min": NodeKind.MIN, "chance": NodeKind.CHANCE}
_KEYS = frozenset({"id", "kind", "value", "action", "p", "player", "children"})
_P_TOLERANCE = 1e-9
#: The deepest tree accepted: lecture trees are a few plies; deeper ones would exhaust the
#: interpreter's stack in the recursive searches.
MAX_TREE_DEPTH = 200


class TreeFormatError(ValueError):
    """A tree file or tree dict is malformed.  The message is one line naming
    the source, the node id (or position) and the problem."""


class TreeNode:
    """One node of an explicit tree; also the game state of :class:`TreeGame`.

    Nodes compare and hash by identity; ``id`` is the table key.
    """

    __slots__ = ("id", "kind", "value", "action", "p", "player", "children", "path", "actions", "probs", "by_action")

    def __init__(
        self,
        id: str,
        kind: NodeKind | None,
        value: Any,
        action: str,
        p: float | None,
        player: int | None,
        children: tuple[TreeNode, ...],
        path: str,
    ) -> None:
        self.id = id
        self.kind = kind
        self.value = value
        self.action = action
        self.p = p
        self.player = player
        self.children = children
        self.path = path
        self.actions = tuple(ch.action for ch in children)
        self.by_action = {ch.action: ch for ch in children}
        n = len(children)
        self.probs = tuple(ch.p if ch.p is not None else 1.0 / n for ch in children)

    def __repr__(self) -> str:
        return f"TreeNode({self.id!r})"

    def walk(self) -> Iterator[TreeNode]:
        """This node and its descendants in depth-first (move) order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


class TreeGame(Game[TreeNode, str]):
    """A game whose states are the nodes of an explicit tree.  Every ply is a
    depth unit; the static evaluation of a node is its ``value``."""

    def __init__(self, root: TreeNode, source: str = "<tree>") -> None:
        self.root = root
        self.source = source
        self._by_id = {node.id: node for node in root.walk()}

    def node(self, node_id: str) -> TreeNode:
        return self._by_id[node_id]

    def kind(self, state: TreeNode) -> NodeKind:
        return state.kind  # type: ignore[return-value]

    def is_end(self, state: TreeNode) -> bool:
        return not state.children

    def utility(self, state: TreeNode) -> Any:
        return state.value

    def actions(self, state: TreeNode) -> Sequence[str]:
        return state.actions

    def successor(self, state: TreeNode, action: str) -> TreeNode:
        return state.by_action[action]

    def probabilities(self, state: TreeNode) -> Sequence[float]:
        return state.probs

    def evaluate(self, state: TreeNode) -> Any:
        if state.value is None:
            raise TreeFormatError(
                f"{self.source}: node {state.id!r} (at {state.path}): internal node reached at the depth cut "
                "has no 'value'"
            )
        return state.value

    def ends_depth_unit(self, state: TreeNode) -> bool:
        return True

    def state_key(self, state: TreeNode) -> str:
        return state.id

    def player(self, state: TreeNode) -> int:
        if state.player is not None:
            return state.player
        return 1 if state.kind is NodeKind.MIN else 0

    def check_depth(self, depth: int | None) -> None:
        """Raise :class:`TreeFormatError` if a search to ``depth`` plies would
        reach an internal node that has no static value."""
        if depth is None:
            return
        stack = [(self.root, 0)]
        while stack:
            node, ply = stack.pop()
            if not node.children:
                continue
            if ply == depth:
                self.evaluate(node)
                continue
            stack.extend((ch, ply + 1) for ch in reversed(node.children))


def load_tree(path: str | Path) -> TreeGame:
    """Read and validate a JSON tree file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TreeFormatError(f"{path}: cannot read tree file: {exc.strerror or exc}") from None
    return parse_tree_text(text, source=str(path))


def parse_tree_text(text: str, source: str = "<tree>") -> TreeGame:
    """Parse and validate JSON tree text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TreeFormatError(f"{source}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise TreeFormatError(f"{source}: nested too deeply (trees may be at most "
                              f"{MAX_TREE_DEPTH} plies deep)") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise TreeFormatError(f"{source}: invalid JSON: {exc}") from None
    return tree_from_dict(data, source=source)


def tree_from_dict(data: Mapping[str, Any], source: str = "<tree>") -> TreeGame:
    """Validate a tree given as nested dicts and build its :class:`TreeGame`."""
    seen: dict[str, str] = {}
    shape: list[Any] = []  # [scalar?, tuple length] shared by all values
    root = _build_node(data, None, "", None, source, seen, shape, position="root")
    return TreeGame(root, source)


def _fail(source: str, where: str, message: str) -> TreeFormatError:
    return TreeFormatError(f"{source}: {where}: {message}")


def _build_node(
    data: Any,
    parent_kind: NodeKind | None,
    parent_path: str,
    p_given: bool | None,
    source: str,
    seen: dict[str, str],
    shape: list[Any],
    position: str,
    depth: int = 0,
) -> TreeNode:
    """The node ``data`` and its subtree, checked field by field in a fixed order (the first
    problem found is the one reported)."""
    node_id, path, where = _identify(data, parent_path, source, seen, position, depth)
    children_data = data.get("children", [])
    if not isinstance(children_data, list):
        raise _fail(source, where, "'children' must be a list")
    kind = _node_kind(data.get("kind"), bool(children_data), source, where)
    value = _parse_value(data.get("value"), source, where, shape)
    if kind is None and value is None:
        raise _fail(source, where, "leaf has no 'value'")
    action = data.get("action", node_id)
    if not isinstance(action, str) or not action:
        raise _fail(source, where, "'action' must be a non-empty string")
    p = None
    if "p" in data:
        if parent_kind is not NodeKind.CHANCE:
            raise _fail(source, where, "'p' is only allowed on children of a chance node")
        p = _parse_probability(data["p"], source, where)
    if p_given is not None and (p is not None) != p_given:
        raise _fail(source, where, "either every child of a chance node has 'p' or none has")
    player = data.get("player")
    if player is not None and (isinstance(player, bool) or not isinstance(player, int) or player < 0):
        raise _fail(source, where, "'player' must be a non-negative integer")
    children = _build_children(children_data, kind, path, source, seen, shape, where, depth)
    return TreeNode(node_id, kind, value, action, p, player, tuple(children), path)


def _identify(data: Any, parent_path: str, source: str, seen: dict[str, str], position: str,
              depth: int) -> tuple[str, str, str]:
    """``(id, path, where)`` of a node, after checking its depth, its type, its id and its keys;
    records the id as seen."""
    where = f"node at {position}"
    if depth > MAX_TREE_DEPTH:
        raise _fail(source, where, f"the tree is deeper than {MAX_TREE_DEPTH} plies")
    if not isinstance(data, Mapping):
        raise _fail(source, where, f"expected a JSON object, got {type(data).__name__}")
    node_id = data.get("id")
    if not isinstance(node_id, str) or not node_id:
        raise _fail(source, where, "missing or empty 'id' (must be a non-empty string)")
    path = f"{parent_path}/{node_id}" if parent_path else node_id
    where = f"node {node_id!r} (at {path})"
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise _fail(source, where, f"unknown key {unknown[0]!r}; allowed keys: {', '.join(sorted(_KEYS))}")
    if node_id in seen:
        raise _fail(source, where, f"duplicate id {node_id!r} (first at {seen[node_id]})")
    seen[node_id] = path
    return node_id, path, where


def _node_kind(kind_name: Any, internal: bool, source: str, where: str) -> NodeKind | None:
    """The kind of an internal node (required), ``None`` for a leaf (which must not name one)."""
    if not internal:
        if kind_name is not None:
            raise _fail(source, where, f"has kind {kind_name!r} but no children (leaves omit 'kind')")
        return None
    if kind_name is None:
        raise _fail(source, where, "internal node has no 'kind' (max, min or chance)")
    if kind_name not in _KINDS:
        raise _fail(source, where, f"unknown kind {kind_name!r}; expected max, min or chance")
    return _KINDS[kind_name]


def _build_children(children_data: list[Any], kind: NodeKind | None, path: str, source: str,
                    seen: dict[str, str], shape: list[Any], where: str, depth: int) -> list[TreeNode]:
    """The children of the node at ``path``: distinct action labels, and under a chance node
    probabilities on all or none of them, summing to 1."""
    if not children_data:
        return []
    first_has_p = isinstance(children_data[0], Mapping) and "p" in children_data[0]
    child_p_given = first_has_p if kind is NodeKind.CHANCE else None
    labels: set[str] = set()
    children = []
    for i, child_data in enumerate(children_data):
        child = _build_node(
            child_data, kind, path, child_p_given, source, seen, shape,
            position=f"{path}/children[{i}]", depth=depth + 1,
        )
        if child.action in labels:
            raise _fail(source, where, f"two children share the action label {child.action!r}")
        labels.add(child.action)
        children.append(child)
    if kind is NodeKind.CHANCE and child_p_given:
        total = math.fsum(ch.p for ch in children)  # type: ignore[misc]
        if abs(total - 1.0) > _P_TOLERANCE:
            raise _fail(source, where, f"children's probabilities sum to {total:g}, not 1")
    return children


def _parse_value(raw: Any, source: str, where: str, shape: list[Any]) -> Any:
    if raw is None:
        return None
    if _is_number(raw):
        this = None
        value: Any = raw
    elif isinstance(raw, list) and raw and all(_is_number(x) for x in raw):
        this = len(raw)
        value = tuple(raw)
    else:
        raise _fail(source, where, f"'value' must be a number or a non-empty list of numbers, got {_short(raw)}")
    if not shape:
        shape.append(this)
    elif shape[0] != this:
        raise _fail(source, where, "values must all be numbers or all lists of the same length")
    for number in (value,) if this is None else value:
        if isinstance(number, int) and not -_MAX_FLOAT <= number <= _MAX_FLOAT:
            raise _fail(source, where, f"'value' {_short(number)} is too large (at most about 1e308)")
        if isinstance(number, float) and math.isnan(number):
            raise _fail(source, where, "'value' is NaN")
    return value


_MAX_FLOAT = int(sys.float_info.max)


def _short(raw: Any) -> str:
    """``repr(raw)``, cut to a readable length for messages."""
    text = repr(raw) if not isinstance(raw, int) or abs(raw) < 10**60 else f"a {len(str(abs(raw)))}-digit number"
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_probability(raw: Any, source: str, where: str) -> float:
    try:
        if isinstance(raw, str):
            p = float(Fraction(raw.strip()))
        elif _is_number(raw):
            p = float(raw)
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError, OverflowError):
        raise _fail(source, where, f"'p' must be a number or a fraction like \"1/3\", got {_short(raw)}") from None
    if not 0.0 <= p <= 1.0:
        raise _fail(source, where, f"'p' must lie in [0, 1], got {_short(raw)}")
    return p


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)
