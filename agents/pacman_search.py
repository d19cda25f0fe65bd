"""The core search specialised for Pacman: the same nodes, values and counts, less per node.

:class:`PacmanSearch` is what :func:`agents.search.core.run_search` uses for a
:class:`~agents.pacman_game.PacmanGame` (its ``search_type``). It replaces the game's protocol
methods by what they compute, read straight from the state tuple and the layout's move tables:
the end test and the utility are item lookups, the successor is the engine's own function, the
evaluation is the bare function inside its :class:`~agents.evaluation.Evaluation` wrapper, and
:meth:`PacmanSearch.value` reads the kind, the legal actions and the end of a round without
calling the game. Everything else (pruning, tables, ordering, chance nodes, traces, deadlines)
is the generic :class:`~agents.search.node_search.Search`, so the two agree node for node.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from agents.evaluation import Evaluation
from agents.search.game import NodeKind
from agents.search.node_search import Search
from pacman.rules import successor as engine_successor

_MAX, _MIN = NodeKind.MAX, NodeKind.MIN


class PacmanSearch(Search):
    """A :class:`Search` over a Pacman game; see the module docstring."""

    __slots__ = ("ghost_kind",)

    def __init__(self, game: Any, cfg: Any, counters: Any, traces: Any) -> None:
        super().__init__(game, cfg, counters, traces)
        self.ghost_kind = game.kind_of_ghosts
        self.is_end = itemgetter(8)  # type: ignore[assignment]  # the outcome: None while the game goes on
        self.utility = itemgetter(6)  # type: ignore[assignment]  # the score
        self.successor = engine_successor
        if cfg.evaluate is None:
            evaluation = game.evaluation
            self.evaluate = evaluation.function if isinstance(evaluation, Evaluation) else evaluation

    def value(self, state: Any, depth: Any, alpha: float, beta: float) -> float:
        """:meth:`Search.value` with the game's protocol read from the state."""
        if state[8] is not None:
            self.last_pv = ()
            if self.plain_leaves:
                self.counters.terminal_utilities += 1
                return state[6]
            return self.leaf(state, self.utility, True)
        if depth == 0:
            self.last_pv = ()
            counters = self.counters
            counters.depth_cuts += 1
            if self.plain_leaves:
                counters.static_evaluations += 1
                return self.evaluate(state)
            return self.leaf(state, self.evaluate, False)
        table_key = None
        entries = self.entries
        if entries is not None:
            table_key = (state, depth)  # PacmanGame.state_key is the state itself
            entry = entries.get(table_key)
            if entry is not None:
                found = self.probe(entry, alpha, beta)
                if found is not None:
                    return found
        turn = state[7]
        positions = state[1]
        if turn == len(positions) - 1:
            depth -= 1
        if turn == 0:
            actions = state[0].pacman_actions[positions[0]]
            return self.extreme_value(state, _MAX, actions, depth, alpha, beta, table_key, 1)
        actions = state[0]._ghost_actions[positions[turn]][state[2][turn]]
        kind = self.ghost_kind
        if kind is _MIN and not self.min_as_chance:
            return self.extreme_value(state, _MIN, actions, depth, alpha, beta, table_key, -1)
        return self.chance_value(state, kind, actions, depth, alpha, beta, table_key)
