"""Pacman's adapter of the search: the game's functions replaced by what they compute.

:class:`PacmanSearch` is what :func:`pacman.agents.search.core.run_search` uses for a
:class:`~pacman.agents.pacman_game.PacmanGame` (its ``search_type``). It replaces the game's protocol
methods by what they compute, read straight from the state tuple and the layout's move tables:
the end test and the utility are item lookups, the successor is the engine's own function, the
evaluation is the bare function inside its :class:`~pacman.agents.evaluation.Evaluation` wrapper,
a state is its own table key, and a node is read in one call (:func:`node_reader`: its kind,
its moves with the ghosts' focus, the depth below it). The loop is the one fast loop of every
game, :meth:`~pacman.agents.search.node_search.Search.node_value`; the tests search Pacman
through this adapter and through the game's protocol methods and find them alike node for node.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from pacman.agents.evaluation import Evaluation
from pacman.agents.ghost_focus import HORIZON, focused_actions, horizon_radius
from pacman.agents.search.game import NodeKind
from pacman.agents.search.node_search import Search
from pacman.engine.rules import legal_actions as engine_legal_actions
from pacman.engine.rules import successor as engine_successor

_MAX, _MIN = NodeKind.MAX, NodeKind.MIN


def node_reader(ghost_kind: NodeKind, focus: Any,
                by_horizon: bool) -> Callable[[Any, Any], tuple[NodeKind, Sequence[str], Any]]:
    """``expand(state, depth) -> (kind, actions, depth below)`` of a Pacman node, in one call:
    Pacman is MAX and a ghost ``ghost_kind``; the moves are :meth:`PacmanGame.actions`, a ghost's
    focused with the radius ``focus`` (0: every move) or, ``by_horizon``, with the radius of the
    rounds left (``depth``, this one included); the last agent of a round ends a depth unit.
    A closure, so that the search holds no reference to itself."""
    def expand(state: Any, depth: Any) -> tuple[NodeKind, Sequence[str], Any]:
        turn = state[7]
        positions = state[1]
        if turn == 0:
            return _MAX, state[0].pacman_actions[positions[0]], depth - 1 if len(positions) == 1 else depth
        actions = state[0]._ghost_actions[positions[turn]][state[2][turn]]
        if state.half_speed_scared:  # the classic scared speed: the engine's own legal actions
            actions = engine_legal_actions(state, turn)
        if len(actions) > 1 and focus:
            actions = focused_actions(state, turn, actions,
                                      horizon_radius(depth) if by_horizon else focus)
        return ghost_kind, actions, depth - 1 if turn == len(positions) - 1 else depth
    return expand


class PacmanSearch(Search):
    """A :class:`Search` over a Pacman game: the game's functions replaced by what they compute
    (see the module docstring); the loop is :class:`Search`'s own."""

    __slots__ = ()

    def __init__(self, game: Any, cfg: Any, counters: Any, traces: Any) -> None:
        super().__init__(game, cfg, counters, traces)
        self.is_end = itemgetter(8)  # type: ignore[assignment]  # the outcome: None while the game goes on
        self.utility = itemgetter(6)  # type: ignore[assignment]  # the score
        self.successor = engine_successor
        self.key_of = None  # PacmanGame.state_key is the state itself
        if cfg.evaluate is None:
            evaluation = game.evaluation
            self.evaluate = evaluation.function if isinstance(evaluation, Evaluation) else evaluation
        self.expand = node_reader(game.kind_of_ghosts, game.focus, game.focus == HORIZON)
        self.bind()
