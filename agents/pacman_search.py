"""The core search specialised for Pacman: the same nodes, values and counts, less per node.

:class:`PacmanSearch` is what :func:`pacman.agents.search.core.run_search` uses for a
:class:`~pacman.agents.pacman_game.PacmanGame` (its ``search_type``). It replaces the game's protocol
methods by what they compute, read straight from the state tuple and the layout's move tables:
the end test and the utility are item lookups, the successor is the engine's own function, the
evaluation is the bare function inside its :class:`~pacman.agents.evaluation.Evaluation` wrapper, and
:meth:`PacmanSearch.value` reads the kind, the legal actions and the end of a round without
calling the game, and runs the MAX/MIN loop itself when the children need no reordering;
:meth:`PacmanSearch.tabled_value` does the same for the deepening agent's configuration (a
table, the previous iteration's best move first, cached leaves): 1.2-1.3 times the nodes in a
40 ms budget (``python bench/bench_deepening_loop.py``). Everything else (other tables and
orderings, chance nodes, leaves with a trace) is the generic
:class:`~pacman.agents.search.node_search.Search`, so the two agree node for node.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from pacman.agents.evaluation import Evaluation
from pacman.agents.ghost_focus import HORIZON, focused_actions, horizon_radius
from pacman.agents.search.game import NodeKind
from pacman.agents.search.node_search import Search
from pacman.agents.search.nodes import _UNSET, INF
from pacman.agents.search.table import bound_flag
from pacman.rules import legal_actions as engine_legal_actions
from pacman.rules import successor as engine_successor

_MAX, _MIN = NodeKind.MAX, NodeKind.MIN


class PacmanSearch(Search):
    """A :class:`Search` over a Pacman game; see the module docstring."""

    __slots__ = ("ghost_kind", "focus", "by_horizon", "tabled")

    def __init__(self, game: Any, cfg: Any, counters: Any, traces: Any) -> None:
        super().__init__(game, cfg, counters, traces)
        self.ghost_kind = game.kind_of_ghosts
        #: the focus radius, or with ``by_horizon`` any true value (the radius then follows
        #: the rounds left at each ghost node)
        self.by_horizon = game.focus == HORIZON
        self.focus = game.focus
        self.is_end = itemgetter(8)  # type: ignore[assignment]  # the outcome: None while the game goes on
        self.utility = itemgetter(6)  # type: ignore[assignment]  # the score
        self.successor = engine_successor
        if cfg.evaluate is None:
            evaluation = game.evaluation
            self.evaluate = evaluation.function if isinstance(evaluation, Evaluation) else evaluation
        #: a table with the previous iteration's best moves, cached leaves and nothing else
        #: (no ordering, no trace, adversarial ghosts): :meth:`tabled_value` searches its nodes
        self.tabled = (self.entries is not None and self.hash_moves and self.orderer is None
                       and self.evaluated_trace is None and self.ghost_kind is _MIN
                       and not self.min_as_chance)
        self.bind()

    def moves(self, state: Any, turn: int, rounds_left: int) -> Sequence[str]:
        """The moves searched for the agent ``turn`` in ``state`` with ``rounds_left`` rounds
        (this one included) left: :meth:`PacmanGame.actions`, with the horizon focus's radius
        from ``rounds_left``."""
        positions = state[1]
        if turn == 0:
            return state[0].pacman_actions[positions[0]]
        actions = state[0]._ghost_actions[positions[turn]][state[2][turn]]
        if state.half_speed_scared:  # the classic scared speed: the engine's own legal actions
            actions = engine_legal_actions(state, turn)
        if len(actions) > 1 and self.focus:
            radius = horizon_radius(rounds_left) if self.by_horizon else self.focus
            actions = focused_actions(state, turn, actions, radius)
        return actions

    def value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`Search.value` with the game's protocol read from the state: for a search with
        no table, no reordering and bare leaves (others take the generic path, node for node the
        same), the MAX/MIN loop of :meth:`Search.extreme_value` runs here (a call less per node,
        where most nodes have one or two children)."""
        if state[8] is not None or depth == 0:
            return self.leaf_value(state, depth)
        if not self.plain_nodes:
            if self.tabled:
                return self.tabled_value(state, depth, alpha, beta)
            return self.node_value(state, depth, alpha, beta)
        turn, positions = state[7], state[1]
        rounds_left = depth
        if turn == len(positions) - 1:
            depth -= 1
        actions = self.moves(state, turn, rounds_left)
        if turn == 0:
            sign = 1
        else:
            sign = -1
            if self.ghost_kind is not _MIN or self.min_as_chance:
                return self.chance_value(state, self.ghost_kind, actions, depth, alpha, beta)
        counters, successor, evaluate, hook = self.counters, engine_successor, self.evaluate, self.hook
        own, limit = (alpha, beta) if sign > 0 else (-beta, -alpha)
        best, best_action, best_pv = -INF, actions[0], ()
        for action in actions:
            child = successor(state, action)
            counters.generated += 1
            if hook is not None:
                hook(child)
            if child[8] is not None:  # leaves valued here as leaf_value() would, a call less each
                self.last_pv = ()
                counters.terminal_utilities += 1
                signed = sign * child[6]
            elif depth == 0:
                self.last_pv = ()
                counters.depth_cuts += 1
                counters.static_evaluations += 1
                signed = sign * evaluate(child)
            else:
                signed = sign * self.value(child, depth, alpha, beta)
            if signed > best:
                best, best_action, best_pv = signed, action, self.last_pv
                if self.prune and best >= limit and (best > limit or not self.strict):
                    counters.cutoffs += 1
                    break
                if best > own and self.prune:
                    own = best
                    alpha, beta = (best, beta) if sign > 0 else (alpha, -best)
        self.last_pv = (best_action,) + best_pv
        return sign * best

    def node_value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`Search.node_value` with the game's protocol read from the state (its table key
        is the state itself: ``PacmanGame.state_key``), for a search with a table, reordering or
        leaves that are cached or traced; the MAX/MIN loop is :meth:`Search.extreme_value`."""
        table_key = None
        entries = self.entries
        if entries is not None:
            table_key = (state, depth)
            entry = entries.get(table_key)
            if entry is not None and self.settles(entry, alpha, beta):
                return entry[1]
        turn, positions = state[7], state[1]
        rounds_left = depth
        if turn == len(positions) - 1:
            depth -= 1
        actions = self.moves(state, turn, rounds_left)
        if turn == 0:
            return self.extreme_value(state, _MAX, actions, depth, alpha, beta, table_key, 1)
        if self.ghost_kind is not _MIN or self.min_as_chance:
            return self.chance_value(state, self.ghost_kind, actions, depth, alpha, beta, table_key)
        return self.extreme_value(state, _MIN, actions, depth, alpha, beta, table_key, -1)

    def tabled_value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`node_value` and :meth:`Search.extreme_value` in one function for the deepening
        search's configuration (``tabled``): the table entry, the previous iteration's best move
        first, leaves from the evaluation cache, the entry stored. Node for node, count for count
        the generic path's."""
        entries, best_moves, cache, counters = self.entries, self.best_moves, self.eval_cache, \
            self.counters
        table_key = (state, depth)  # PacmanGame.state_key is the state itself
        entry = entries.get(table_key)  # type: ignore[union-attr]
        if entry is not None and self.settles(entry, alpha, beta):
            return entry[1]
        strict = self.strict
        alpha_in, beta_in = alpha, beta
        turn, positions = state[7], state[1]
        rounds_left = depth
        if turn == len(positions) - 1:
            depth -= 1
        actions, sign = self.moves(state, turn, rounds_left), 1 if turn == 0 else -1
        move = best_moves.get(state, _UNSET)  # type: ignore[union-attr]
        if move is not _UNSET and actions[0] != move and move in actions:
            actions = [move] + [a for a in actions if a != move]
        successor, evaluate, hook, prune = engine_successor, self.evaluate, self.hook, self.prune
        own, limit = (alpha, beta) if sign > 0 else (-beta, -alpha)
        best, best_action, best_pv = -INF, actions[0], ()
        for action in actions:
            child = successor(state, action)
            counters.generated += 1
            if hook is not None:
                hook(child)
            if child[8] is not None or depth == 0:
                self.last_pv = ()
                leaf = cache.get(child)  # type: ignore[union-attr]
                if leaf is not None:
                    counters.cache_hits += 1
                elif child[8] is not None:
                    leaf = cache[child] = child[6]  # type: ignore[index]
                    counters.terminal_utilities += 1
                else:
                    leaf = cache[child] = evaluate(child)  # type: ignore[index]
                    counters.static_evaluations += 1
                if child[8] is None:
                    counters.depth_cuts += 1
                signed = sign * leaf
            else:
                signed = sign * self.tabled_value(child, depth, alpha, beta)
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
        flag = bound_flag(result, alpha_in, beta_in, prune, strict)
        entries[table_key] = (flag, result, best_action)  # type: ignore[index]
        best_moves[state] = best_action  # type: ignore[index]
        self.last_pv = (best_action,) + best_pv
        return result
