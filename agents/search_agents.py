"""Pacman agents that search: minimax, alpha-beta, expectimax, iterative deepening, Monte Carlo
and MCTS. Each runs one algorithm of :mod:`pacman.agents.search` on :class:`PacmanGame`.

Every agent remembers its last search (:meth:`SearchAgent.last_report`: root values per action,
principal variation, statistics) for displays and experiments, and totals its work over a game
(:meth:`SearchAgent.stats`).
"""

from __future__ import annotations

import dataclasses
import gc
import random
import time
from typing import Any, Literal
from collections.abc import Mapping

from pacman.agents.base import BaseAgent
from pacman.agents.chase_survival import ROUNDS, CheckBudget, veto_trap
from pacman.agents.evaluation import BETTER, Evaluation
from pacman.agents.food_route import ROUTE_MARGIN, ROUTE_NODES, route_to_food, steer_to_food
from pacman.agents.forced_loss import longest_resistance
from pacman.agents.ghost_model import UNIFORM, GhostModel, derived_seed, model_rng
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.search.algorithms import alphabeta, expectimax, minimax
from pacman.agents.search.deepening import iterative_deepening
from pacman.agents.search.game import NodeKind
from pacman.agents.search.mcts import mcts
from pacman.agents.search.playouts import MonteCarloEvaluator
from pacman.agents.search.result import SearchResult
from pacman.errors import ConfigurationError
from pacman.engine.state import GameState

Ordering = Literal["none", "evaluation", "random", "reversed", "history"]


class SearchAgent(BaseAgent):
    """Shared machinery: run :meth:`search`, keep the result, pick the action.

    ``tie_break``: ``first`` takes the first best action in move order (North, South, East,
    West, Stop); ``random`` draws among the actions whose root value equals the best (only
    exact for searches whose root values are exact: minimax and expectimax).
    """

    exact_root_values = False

    def __init__(self, index: int = 0, rng: random.Random | None = None, *,
                 evaluation: Evaluation = BETTER,
                 tie_break: Literal["first", "random"] = "first") -> None:
        super().__init__(index, rng)
        if index != 0:
            raise ConfigurationError(f"{type(self).__name__} plays Pacman (agent 0) only")
        self.evaluation = evaluation
        self.tie_break = tie_break
        self.game = PacmanGame(evaluation)
        self.last: SearchResult | None = None
        self._totals = {"decisions": 0, "nodes": 0, "evaluations": 0, "cutoffs": 0,
                        "cache_hits": 0, "seconds": 0.0, "depth": 0}

    def search(self, state: GameState) -> SearchResult:
        raise NotImplementedError

    def get_action(self, state: GameState) -> str:
        result = self.search(state)
        self.last = result
        stats = result.stats
        totals = self._totals
        totals["decisions"] += 1
        totals["nodes"] += stats.nodes_generated
        totals["evaluations"] += stats.leaf_evaluations
        totals["cutoffs"] += stats.cutoffs
        totals["cache_hits"] += stats.cache_hits
        totals["seconds"] += stats.elapsed
        totals["depth"] += stats.depth_reached or 0
        action = result.action
        if self.tie_break == "random" and self.exact_root_values and result.root_values:
            best = max(result.root_values.values())
            ties = [a for a, v in result.root_values.items() if v == best]
            action = self.rng.choice(ties)
        if action is None:
            action = state.legal_actions(self.index)[0]
        return action

    def last_report(self) -> Mapping[str, Any] | None:
        """The last search: value, action, root values, principal variation, statistics."""
        if self.last is None:
            return None
        result, stats = self.last, self.last.stats
        return {"value": result.value, "action": result.action,
                "root_values": dict(result.root_values),
                "principal_variation": list(result.principal_variation),
                "nodes": stats.nodes_generated, "evaluations": stats.leaf_evaluations,
                "cutoffs": stats.cutoffs, "depth": stats.depth_reached,
                "seconds": stats.elapsed}

    def stats(self) -> dict[str, Any]:
        """Totals over the game so far, with per-decision means."""
        totals = dict(self._totals)
        decisions = max(1, totals["decisions"])
        totals["nodes_per_move"] = totals["nodes"] / decisions
        totals["mean_depth"] = totals["depth"] / decisions
        return totals


#: the depth searched when none is given, in rounds
DEFAULT_DEPTH = 2
#: the states a move may generate when no depth is given: the default depth adapts, so a move
#: takes well under a second however many ghosts play (:mod:`pacman.agents.bounded`)
DEFAULT_NODE_BUDGET = 4000


def search_extent(depth: int | None, node_budget: int | None) -> tuple[int, int]:
    """The ``(depth, node_budget)`` a search agent plays with (a budget of 0: no bound).

    With no depth given the agent searches :data:`DEFAULT_DEPTH` rounds within
    :data:`DEFAULT_NODE_BUDGET` states a move, less deep where that depth would not fit. A depth
    given is searched in full unless a ``node_budget`` is given too.
    """
    if node_budget is not None and node_budget < 0:
        raise ConfigurationError(f"node_budget must be 0 (no bound) or more, got {node_budget}")
    if depth is None:
        return DEFAULT_DEPTH, DEFAULT_NODE_BUDGET if node_budget is None else node_budget
    return _positive(depth, "depth"), node_budget or 0


class MinimaxAgent(SearchAgent):
    """Depth-limited minimax: every ghost is an adversary (a MIN layer)."""

    exact_root_values = True

    def __init__(self, index: int = 0, rng: random.Random | None = None, *, depth: int = 2,
                 evaluation: Evaluation = BETTER,
                 tie_break: Literal["first", "random"] = "first") -> None:
        super().__init__(index, rng, evaluation=evaluation, tie_break=tie_break)
        self.depth = _positive(depth, "depth")

    def search(self, state: GameState) -> SearchResult:
        return minimax(self.game, state, depth=self.depth)


class AlphaBetaAgent(SearchAgent):
    """Depth-limited alpha-beta: minimax's choice with fewer nodes (optional move ordering).

    ``depth`` and ``node_budget``: see :func:`search_extent`.
    """

    def __init__(self, index: int = 0, rng: random.Random | None = None, *, depth: int | None = None,
                 evaluation: Evaluation = BETTER, order: Ordering = "none",
                 strict: bool = False, node_budget: int | None = None) -> None:
        super().__init__(index, rng, evaluation=evaluation)
        self.depth, self.node_budget = search_extent(depth, node_budget)
        self.order = order
        self.strict = strict

    def search(self, state: GameState) -> SearchResult:
        if self.node_budget and state.outcome is None:
            from pacman.agents.bounded import bounded_search

            return bounded_search(self.game, state, self.depth, self.node_budget,
                                  self.game.evaluate, "alphabeta", order=self.order,
                                  strict=self.strict, rng=self.rng)
        return alphabeta(self.game, state, depth=self.depth, order=self.order,
                         strict=self.strict, rng=self.rng)


class ExpectimaxAgent(SearchAgent):
    """Depth-limited expectimax: ghosts are chance nodes.

    ``model``: what the ghosts are expected to do (:class:`~pacman.agents.ghost_model.GhostModel`):
    every legal ghost move alike (``uniform``), or a ghost agent's own move distribution for
    every ghost ("informed probabilities", e.g. ``model=directional``; ``model_options``
    gives that agent's options, ``p=0.5,depth=2``, so the model can match the ghosts'
    settings). Each modelled ghost draws from a generator derived from this agent's own.
    ``depth`` and ``node_budget``: see :func:`search_extent`.
    """

    exact_root_values = True

    def __init__(self, index: int = 0, rng: random.Random | None = None, *, depth: int | None = None,
                 evaluation: Evaluation = BETTER, model: GhostModel = UNIFORM,
                 tie_break: Literal["first", "random"] = "first", node_budget: int | None = None) -> None:
        super().__init__(index, rng, evaluation=evaluation, tie_break=tie_break)
        self.depth, self.node_budget = search_extent(depth, node_budget)
        self.model = model
        self._model_agents: dict[int, Any] = {}
        if model.uniform:
            self.game = PacmanGame(evaluation, "uniform")
        else:
            self._model_seed = derived_seed(self.rng)
            self.game = PacmanGame(evaluation, "informed",
                                   lambda s, ghost: self.model_agent(ghost).distribution(s))

    def model_agent(self, ghost: int) -> Any:
        """The model of ghost ``ghost``: an instance of the model agent with its own
        generator, derived from this agent's (so from the game seed)."""
        agent = self._model_agents.get(ghost)
        if agent is None:
            agent = self.model.build(ghost, model_rng(self._model_seed, ghost))
            self._model_agents[ghost] = agent
        return agent

    def search(self, state: GameState) -> SearchResult:
        if self.node_budget:
            from pacman.agents.bounded import bounded_expectimax

            return bounded_expectimax(self.game, state, self.depth, self.node_budget,
                                      self.game.evaluate)
        return expectimax(self.game, state, depth=self.depth)


#: what a deepening agent's time budget counts: the CPU time of the searching thread (a loaded
#: machine does not shorten it), or wall-clock time
CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}
#: the ``outrun`` check stops (changing nothing) this fraction of the time budget after it
OUTRUN_SHARE = 0.2
#: the ``route`` search, made before the search, stops (finding nothing) this fraction of the
#: time budget into the move; the search has the rest
ROUTE_SHARE = 0.25


class IterativeDeepeningAgent(SearchAgent):
    """Iterative-deepening alpha-beta under a per-move time budget (anytime), with move
    ordering by the previous iteration and a transposition table.

    ``clock``: ``cpu`` counts the budget in CPU time of the searching thread, so the depth
    reached does not depend on other load on the machine; ``wall`` in elapsed time.
    ``resist``: when the deepest iteration sees a forced capture, play the move of the deepest
    iteration that did not (hold out longest against the worst case, :mod:`pacman.agents.forced_loss`).
    ``focus``: search a ghost farther than this many maze steps from Pacman as one move, the
    move of a chaser (:mod:`pacman.agents.ghost_focus`); 0 (the default) searches all its moves;
    ``horizon``: a ghost that could not reach Pacman before the search's depth runs out.
    ``outrun``: when positive, veto a move after which Pacman provably cannot outrun chasing
    ghosts for that many rounds while another move can (:mod:`pacman.agents.chase_survival`); 0 (the
    default) plays the search's move.
    ``route``: when positive, play instead the first move of a line on which chasing ghosts
    let Pacman eat a dot within that many rounds and still outrun them afterwards, unless the
    search, which searches that move first, values it more than ``route_margin`` points below
    its best move (:mod:`pacman.agents.food_route`); 0 (the default) does not. The route is sought
    first and gives up at ``ROUTE_SHARE`` of the time budget; the search has what is left of
    the budget. The ``outrun`` check gives up, changing nothing, once the decision has taken
    ``1 + OUTRUN_SHARE`` times the time budget.
    """

    def __init__(self, index: int = 0, rng: random.Random | None = None, *,
                 time_budget: float = 0.2, max_depth: int = 30,
                 evaluation: Evaluation = BETTER,
                 order: Ordering = "evaluation", table: bool = True,
                 reorder: Literal["none", "root", "all"] = "all",
                 clock: Literal["cpu", "wall"] = "cpu", resist: bool = False,
                 focus: int | Literal["horizon"] = 0, outrun: int = 0, route: int = 0,
                 route_margin: float = ROUTE_MARGIN) -> None:
        super().__init__(index, rng, evaluation=evaluation)
        self.resist = resist
        for name, rounds in (("outrun", outrun), ("route", route)):
            if rounds < 0:
                raise ConfigurationError(f"{name} must be 0 (off) or a number of rounds, "
                                         f"got {rounds}")
        self.outrun = outrun
        self.route = route
        if route_margin < 0:
            raise ConfigurationError(f"route_margin must be at least 0, got {route_margin}")
        self.route_margin = route_margin
        try:
            self.game = PacmanGame(evaluation, focus=focus)
        except ValueError as error:  # the game's own check, as the command line's error
            raise ConfigurationError(str(error)) from None
        self.focus = focus
        if time_budget <= 0:
            raise ConfigurationError(f"time_budget must be positive, got {time_budget}")
        if clock not in CLOCKS:
            raise ConfigurationError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
        self.time_budget = time_budget
        self.max_depth = _positive(max_depth, "max_depth")
        self.order = order
        self.table = table
        self.reorder = reorder
        self.clock = clock

    def search(self, state: GameState) -> SearchResult:
        """The move of the deepest finished iteration, after ``resist``, ``outrun`` and
        ``route``; the result's ``stats.elapsed`` is the whole decision's time on the agent's
        clock."""
        finished: list[SearchResult] = []
        clock = CLOCKS[self.clock]
        start = clock()
        collecting = gc.isenabled()
        gc.disable()  # a full collection mid-search (up to ~20 ms) would overrun the budget
        try:
            route = None
            if self.route:  # first, so that the search's budget pays for it
                route = route_to_food(state, self.route, self.outrun or ROUNDS,
                                      CheckBudget(ROUTE_NODES, clock,
                                                  start + ROUTE_SHARE * self.time_budget))
            budget = self.time_budget - (clock() - start)
            result = iterative_deepening(self.game, state, max_depth=self.max_depth,
                                         time_budget=budget, algorithm="alphabeta",
                                         order=self.order, rng=self.rng, reorder=self.reorder,
                                         table=self.table, clock=clock,
                                         on_iteration=finished.append if self.resist else None,
                                         first=route)
            if finished:
                result = longest_resistance(state, result, finished)
            deadline = start + (1 + OUTRUN_SHARE) * self.time_budget
            if self.outrun:
                result = veto_trap(state, result, self.outrun, CheckBudget(clock=clock,
                                                                           deadline=deadline))
            if route is not None:
                result = steer_to_food(result, route, self.route_margin)
        finally:
            if collecting:
                gc.enable()
        return dataclasses.replace(result, stats=dataclasses.replace(result.stats,
                                                                     elapsed=clock() - start))


class MonteCarloAgent(SearchAgent):
    """Shallow expectimax whose leaves are valued by averaging seeded random playouts.

    The Games I notes' Monte Carlo evaluation.
    """

    exact_root_values = True

    def __init__(self, index: int = 0, rng: random.Random | None = None, *, depth: int = 1,
                 playouts: int = 8, playout_depth: int = 20,
                 evaluation: Evaluation = BETTER) -> None:
        super().__init__(index, rng, evaluation=evaluation)
        self.depth = _positive(depth, "depth")
        self.game = PacmanGame(evaluation, "uniform")
        self.evaluator = MonteCarloEvaluator(self.game, playouts=_positive(playouts, "playouts"),
                                             rng=self.rng, max_moves=playout_depth,
                                             evaluate=evaluation)

    def search(self, state: GameState) -> SearchResult:
        return expectimax(self.game, state, depth=self.depth, evaluate=self.evaluator)


class MCTSAgent(SearchAgent):
    """Monte Carlo tree search (UCT) with random playouts: a non-exhaustive comparator."""

    def __init__(self, index: int = 0, rng: random.Random | None = None, *,
                 iterations: int = 300, time_budget: float | None = None,
                 playout_depth: int = 20, exploration: float = 1.4,
                 evaluation: Evaluation = BETTER) -> None:
        super().__init__(index, rng, evaluation=evaluation)
        self.game = PacmanGame(evaluation, "uniform")
        self.iterations = _positive(iterations, "iterations")
        self.time_budget = time_budget
        self.playout_depth = playout_depth
        self.exploration = exploration

    def search(self, state: GameState) -> SearchResult:
        return mcts(self.game, state, rng=self.rng, iterations=self.iterations,
                    time_budget=self.time_budget, exploration=self.exploration,
                    scale=100.0, playout_depth=self.playout_depth)


def _positive(value: int, name: str) -> int:
    if value < 1:
        raise ConfigurationError(f"{name} must be at least 1, got {value}")
    return value


__all__ = ["SearchAgent", "MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent",
           "IterativeDeepeningAgent", "MonteCarloAgent", "MCTSAgent", "NodeKind"]
