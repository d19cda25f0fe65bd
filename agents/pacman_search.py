"""The core search specialised for Pacman: the same nodes, values and counts, less per node.

:class:`PacmanSearch` is what :func:`pacman.agents.search.core.run_search` uses for a
:class:`~pacman.agents.pacman_game.PacmanGame` (its ``search_type``). It replaces the game's protocol
methods by what they compute, read straight from the state tuple and the layout's move tables:
the end test and the utility are item lookups, the successor is the engine's own function, the
evaluation is the bare function inside its :class:`~pacman.agents.evaluation.Evaluation` wrapper.
:meth:`PacmanSearch.fast_value` is the one Pacman loop: it reads the kind, the legal actions
and the end of a round without calling the game, and does the table's work (the entry, the
previous iteration's best move first, cached leaves, the entry stored) only when the search
has a table. It searches every configuration whose children need no reordering but the
table's and whose leaves no one watches or traces (``fast_path``): plain minimax and alpha-beta
and the deepening agent's search, 1.13-1.15 times the nodes of the generic loop in a 40 ms
budget (``python bench/bench_deepening_loop.py``). The others (evaluation or history ordering, a trace
of valued leaves, a watcher) run the generic :meth:`~pacman.agents.search.node_search.Search.node_value`
over the same reading of a node (``expand``), so the two agree node for node.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from pacman.agents.evaluation import Evaluation
from pacman.agents.ghost_focus import HORIZON, focused_actions, horizon_radius
from pacman.agents.search.game import NodeKind
from pacman.agents.search.node_search import Search
from pacman.agents.search.nodes import UNSET, INF
from pacman.agents.search.table import bound_flag
from pacman.engine.rules import legal_actions as engine_legal_actions
from pacman.engine.rules import successor as engine_successor

_MAX, _MIN = NodeKind.MAX, NodeKind.MIN


def searched_moves(state: Any, turn: int, rounds_left: int, focus: Any, by_horizon: bool) -> Sequence[str]:
    """The moves searched for the agent ``turn`` in ``state`` with ``rounds_left`` rounds (this
    one included) left: :meth:`PacmanGame.actions`, with the radius of the horizon focus
    (``by_horizon``) from ``rounds_left``, else the fixed radius ``focus`` (0: every move)."""
    positions = state[1]
    if turn == 0:
        return state[0].pacman_actions[positions[0]]
    actions = state[0]._ghost_actions[positions[turn]][state[2][turn]]
    if state.half_speed_scared:  # the classic scared speed: the engine's own legal actions
        actions = engine_legal_actions(state, turn)
    if len(actions) > 1 and focus:
        radius = horizon_radius(rounds_left) if by_horizon else focus
        actions = focused_actions(state, turn, actions, radius)
    return actions


def _expander(ghost_kind: NodeKind, focus: Any,
              by_horizon: bool) -> Callable[[Any, Any], tuple[NodeKind, Sequence[str], Any]]:
    """``expand(state, depth) -> (kind, actions, depth below)`` of a Pacman node for the generic
    loop: a closure, so that the search holds no reference to itself."""
    def expand(state: Any, depth: Any) -> tuple[NodeKind, Sequence[str], Any]:
        turn = state[7]
        actions = searched_moves(state, turn, depth, focus, by_horizon)
        if turn == len(state[1]) - 1:
            depth -= 1
        return (_MAX if turn == 0 else ghost_kind), actions, depth
    return expand


class PacmanSearch(Search):
    """A :class:`Search` over a Pacman game; see the module docstring."""

    __slots__ = ("ghost_kind", "focus", "by_horizon", "chance_ghosts", "fast_path", "fast_tools")

    def __init__(self, game: Any, cfg: Any, counters: Any, traces: Any) -> None:
        super().__init__(game, cfg, counters, traces)
        self.ghost_kind = game.kind_of_ghosts
        #: the focus radius, or with ``by_horizon`` any true value (the radius then follows
        #: the rounds left at each ghost node)
        self.by_horizon = game.focus == HORIZON
        self.focus = game.focus
        #: ghost nodes are chance nodes (a chance ghost model, or MIN searched as chance)
        self.chance_ghosts = self.ghost_kind is not _MIN or self.min_as_chance
        self.is_end = itemgetter(8)  # type: ignore[assignment]  # the outcome: None while the game goes on
        self.utility = itemgetter(6)  # type: ignore[assignment]  # the score
        self.successor = engine_successor
        if cfg.evaluate is None:
            evaluation = game.evaluation
            self.evaluate = evaluation.function if isinstance(evaluation, Evaluation) else evaluation
        self.expand = _expander(self.ghost_kind, self.focus, self.by_horizon)
        #: :meth:`fast_value` searches the inner nodes: no ordering but the table's best moves,
        #: no trace of valued leaves, no watcher (switch off to run the generic loop instead)
        self.fast_path = (self.orderer is None and self.evaluated_trace is None
                          and self.watcher is None)
        self.bind()

    def bind(self) -> None:
        """:meth:`NodeTools.bind`, and ``fast_tools``: what the loop of :meth:`fast_value` reads,
        in one tuple (``counters, evaluate, hook, prune, strict, best_moves, hash_moves,
        eval_cache``)."""
        super().bind()
        self.fast_tools = (self.counters, self.evaluate, self.hook, self.prune, self.strict,
                           self.best_moves, self.hash_moves, self.eval_cache)

    def value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`Search.value` with the game's protocol read from the state: a leaf, else the
        node by :meth:`fast_value` or, off the fast path, by the generic loop."""
        if state[8] is not None or depth == 0:
            return self.leaf_value(state, depth)
        if self.fast_path:
            return self.fast_value(state, depth, alpha, beta)
        return self.node_value(state, depth, alpha, beta)

    def fast_value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`Search.node_value` for a search on the fast path (see the module docstring),
        with the table's work done only when there is a table. Node for node, count for count
        the generic loop's; its table entries, best moves and cached leaves are the same too."""
        entries = self.entries
        table_key = None
        if entries is not None:
            table_key = (state, depth)  # PacmanGame.state_key is the state itself
            entry = entries.get(table_key)
            if entry is not None and self.settles(entry, alpha, beta):
                return entry[1]
        turn = state[7]
        actions = searched_moves(state, turn, depth, self.focus, self.by_horizon)
        if turn == len(state[1]) - 1:
            depth -= 1
        if turn == 0:
            sign = 1
        else:
            sign = -1
            if self.chance_ghosts:
                return self.chance_value(state, self.ghost_kind, actions, depth, alpha, beta,
                                         table_key)
        counters, evaluate, hook, prune, strict, best_moves, hash_moves, cache = self.fast_tools
        if hash_moves:  # the previous iteration's best move first
            move = best_moves.get(state, UNSET)  # type: ignore[union-attr]
            if move is not UNSET and actions[0] != move and move in actions:
                actions = [move] + [a for a in actions if a != move]
        successor = engine_successor
        entry_alpha, entry_beta = alpha, beta
        own, limit = (alpha, beta) if sign > 0 else (-beta, -alpha)
        best, best_action, best_pv = -INF, actions[0], ()
        for action in actions:
            child = successor(state, action)
            counters.generated += 1
            if hook is not None:
                hook(child)
            # Leaves are valued here as leaf_value() would value them, a call less each.
            if child[8] is not None:
                self.last_pv = ()
                if cache is None:
                    leaf = child[6]
                    counters.terminal_utilities += 1
                elif (leaf := cache.get(child)) is not None:
                    counters.cache_hits += 1
                else:
                    leaf = cache[child] = child[6]
                    counters.terminal_utilities += 1
                signed = sign * leaf
            elif depth == 0:
                self.last_pv = ()
                counters.depth_cuts += 1
                if cache is None:
                    leaf = evaluate(child)
                    counters.static_evaluations += 1
                elif (leaf := cache.get(child)) is not None:
                    counters.cache_hits += 1
                else:
                    leaf = cache[child] = evaluate(child)
                    counters.static_evaluations += 1
                signed = sign * leaf
            else:
                signed = sign * self.fast_value(child, depth, alpha, beta)
            if signed > best:
                best, best_action, best_pv = signed, action, self.last_pv
                if prune:
                    if best >= limit and (best > limit or not strict):
                        counters.cutoffs += 1
                        break
                    if best > own:
                        own = best
                        alpha, beta = (best, beta) if sign > 0 else (alpha, -best)
        result = sign * best
        if table_key is not None:  # the value and its bound flag for the window searched
            flag = bound_flag(result, entry_alpha, entry_beta, prune, strict)
            entries[table_key] = (flag, result, best_action)  # type: ignore[index]
            best_moves[state] = best_action  # type: ignore[index]
        self.last_pv = (best_action,) + best_pv
        return result
