"""One decision of a searching Pacman as a search explorer page (:mod:`.search_page`).

:func:`explore_decision` runs the search a minimax, alpha-beta or expectimax agent runs in a
position (its own game adapter, evaluation, ghost model, depth and options) with a
:class:`~pacman.agents.search.steps.StepRecorder` watching, and adds the board: the position, and the
principal variation drawn on it as the window's overlay draws it. A node is named by the moves
that lead to it from the root, one letter a move (``N S E W``, ``X`` for Stop; ``root`` for the
root), so ``NWX`` is Pacman North, the first ghost West, the second ghost Stop.
"""

from __future__ import annotations

import random
from typing import Any

from pacman.agents.bounded import estimated_nodes
from pacman.agents.search.algorithms import search
from pacman.agents.search.steps import StepRecorder
from pacman.agents.search_agents import AlphaBetaAgent, ExpectimaxAgent, MinimaxAgent
from pacman.display.overlay import principal_paths
from pacman.display.search_page import ExploredSearch, search_trace
from pacman.contained.agent import is_contained
from pacman.errors import ConfigurationError
from pacman.engine.game import AgentSpec
from pacman.engine.state import GameState

_LETTERS = {"North": "N", "South": "S", "East": "E", "West": "W", "Stop": "X"}
_NAMES = {letter: name for name, letter in _LETTERS.items()}
#: the agent classes whose search can be shown, by the algorithm they run
ALGORITHM_OF = {MinimaxAgent: "minimax", AlphaBetaAgent: "alphabeta",
                ExpectimaxAgent: "expectimax"}


def decision_search(agent: Any, state: GameState) -> tuple[str, dict[str, Any], str]:
    """``(algorithm, options, note)``: the search ``agent`` runs in ``state`` as one plain
    search. An agent with a node budget deepens round by round and keeps the deepest round
    that finished (:mod:`pacman.agents.bounded`), whose result is the plain search's at that depth: that
    round is the one returned, found by running the agent's own search, and ``note`` says so."""
    algorithm = ALGORITHM_OF.get(type(agent))
    if algorithm is None:
        raise ConfigurationError(f"{type(agent).__name__}: only the minimax, alphabeta and "
                                 "expectimax agents' searches can be explained")
    options: dict[str, Any] = {"depth": agent.depth}
    if isinstance(agent, AlphaBetaAgent):
        if agent.order == "random":
            raise ConfigurationError("a random move order depends on every earlier move's "
                                     "draws; explain shows searches in a fixed order only")
        options.update(order=agent.order, strict=agent.strict)
    note = ""
    budget = getattr(agent, "node_budget", 0)
    bounded = budget and state.outcome is None and (
        isinstance(agent, AlphaBetaAgent) or estimated_nodes(state, agent.depth) > budget)
    if bounded:
        reached = agent.search(state).stats.depth_reached
        if not reached:
            raise ConfigurationError(f"the agent's node budget ({budget}) let no full round of "
                                     "search finish at this move: it chose by evaluation alone")
        note = (f"The agent searched with a node budget of {budget} states, deepening one "
                f"round at a time; this is its deepest finished round, depth {reached}.")
        options["depth"] = reached
    return algorithm, options, note


def movers(agents: int, moves: int) -> list[str]:
    """Who makes each of ``moves`` moves from Pacman's turn with ``agents`` agents:
    ``Pacman``, ``ghost 1``, ... in turn."""
    return ["Pacman" if k % agents == 0 else f"ghost {k % agents}" for k in range(moves)]


def searching_agent(agent: Any) -> Any:
    """The agent object behind ``agent``: an agent itself, an
    :class:`~pacman.engine.game.AgentSpec` (built as agent 0), or what
    :func:`pacman.lineup.lineup` returns (its first spec, Pacman's)."""
    if isinstance(agent, (list, tuple)):
        if not agent:
            raise ConfigurationError("an empty lineup has no Pacman to explain")
        agent = agent[0]
    if isinstance(agent, AgentSpec):
        if is_contained(agent):
            raise ConfigurationError(f"{agent.name}: an agent played in a contained process "
                                     "cannot be searched here; explain shows the minimax, "
                                     "alphabeta and expectimax agents")
        agent = agent.build(0, random.Random(0))
    return agent


def explore_decision(agent: Any, state: GameState, *, title: str,
                     expected: str | None = None) -> ExploredSearch:
    """The explorer page of ``agent``'s search in ``state`` (see the module docstring).

    ``agent``: a minimax, alpha-beta or expectimax agent, its spec, or a whole lineup
    (``lineup(layout, "alphabeta", ...)``: its Pacman is explained). ``expected``: the action
    the agent is known to have played (from a recording); the page notes it if the search
    shown chose differently (a random tie-break, say)."""
    agent = searching_agent(agent)
    if state.turn != 0:
        raise ConfigurationError("explain shows Pacman's decisions: the position is a ghost's turn")
    algorithm, options, note = decision_search(agent, state)
    recorder = StepRecorder(action_name=lambda action: _LETTERS.get(action, str(action)))
    result = search(algorithm, agent.game, state, trace=True, watcher=recorder, **options)
    nodes = recorder.nodes
    for node in nodes:
        parent = node["parent"]
        if parent < 0:
            node["id"] = "root"
        else:
            if parent == 0:  # Pacman's own moves, named in full at the root
                node["label"] = _NAMES.get(node["action"], node["action"])
            above = "" if nodes[parent]["id"] == "root" else nodes[parent]["id"]
            node["id"] = above + (node["action"] or "?")
    index_of = {id(s): i for i, s in enumerate(result.stats.generated or ())}
    if expected is not None and result.action is not None and result.action != expected:
        note += (f" The recording says {expected} was played; this search chooses "
                 f"{result.action} (the agent broke a tie at random, or the recording was "
                 "made by another version).")
    board = {
        "maze": state.layout.text.split("\n"),
        "food": state.layout.cells_of(state.food),
        "capsules": state.layout.cells_of(state.capsules),
        "positions": list(state.positions), "scared": list(state.scared_timers),
        "paths": [list(path) for path in principal_paths(state, result.principal_variation)],
    }
    trace = search_trace(
        result, algorithm, nodes, recorder.steps,
        generated=[nodes[index_of[id(s)]]["id"] for s in result.stats.generated or ()],
        evaluated=[nodes[index_of[id(s)]]["id"] for s in result.stats.evaluated or ()],
        title=f"{title}: {algorithm} depth {options['depth']}, "
              f"evaluation {getattr(agent.evaluation, 'name', agent.evaluation)}",
        prune=algorithm == "alphabeta", board=board, note=note.strip(), show_ids=False,
        movers=movers(state.num_agents, len(result.principal_variation)),
        chosen_edge=None if result.action is None else _LETTERS.get(result.action))
    return ExploredSearch(result, trace)
