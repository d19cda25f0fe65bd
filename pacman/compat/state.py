"""The classic ``GameState`` API over an engine :class:`~pacman.engine.state.GameState`.

A wrapper holds one immutable engine state; every method answers from it, and
``generateSuccessor`` wraps the engine's successor, so nothing a classic agent does can change
the game. Positions are ``(x, y)`` with ``y`` from the bottom, as in the classic course.
"""

from __future__ import annotations

from typing import Any

from pacman.compat.game import AgentState, Configuration, Grid
from pacman.errors import GameOverError
from pacman.engine.rules import agent_xy
from pacman.engine.state import GameState as EngineState


#: The classic engine's order of actions (that of the dictionary it iterated under Python 2, kept
#: by its Python 3 port), and the engine's legal-action tuples reordered by it.
CLASSIC_ORDER = ("West", "Stop", "East", "North", "South")
_RANK = {action: rank for rank, action in enumerate(CLASSIC_ORDER)}
_REORDERED: dict[tuple[str, ...], tuple[str, ...]] = {}


def _classic_order(actions: tuple[str, ...]) -> list[str]:
    """``actions`` in the classic engine's order."""
    ordered = _REORDERED.get(actions)
    if ordered is None:
        ordered = _REORDERED[actions] = tuple(sorted(actions, key=_RANK.__getitem__))
    return list(ordered)


#: The walls grid of each maze seen (keyed by identity; the maze is kept so the key stays valid).
_WALLS: dict[int, tuple[Any, Grid]] = {}


class GameState:
    """A classic-API view of an engine state (``state.engine`` is the wrapped state)."""

    __slots__ = ("engine",)
    engine: EngineState

    def __init__(self, engine: EngineState) -> None:
        object.__setattr__(self, "engine", engine)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("GameState is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and other.engine == self.engine

    def __hash__(self) -> int:
        return hash(self.engine.key)

    def __str__(self) -> str:
        return str(self.engine)

    # --- moves -------------------------------------------------------------------------------
    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        actions = self.engine.legal_actions(agentIndex)
        if self.engine.classic_action_order:
            return _classic_order(actions)
        return list(actions)

    def getLegalPacmanActions(self) -> list[str]:
        return self.getLegalActions(0)

    def generateSuccessor(self, agentIndex: int, action: str) -> GameState:
        if self.engine.outcome is not None:
            raise GameOverError("Can't generate a successor of a terminal state.")
        return GameState(self.engine.successor(action, agentIndex))

    def generatePacmanSuccessor(self, action: str) -> GameState:
        return self.generateSuccessor(0, action)

    def getNumAgents(self) -> int:
        return self.engine.num_agents

    # --- outcome and score -------------------------------------------------------------------
    def isWin(self) -> bool:
        return self.engine.is_win

    def isLose(self) -> bool:
        return self.engine.is_lose

    def getScore(self) -> float:
        return float(self.engine.score)

    # --- agents ------------------------------------------------------------------------------
    def getPacmanPosition(self) -> tuple[int, int]:
        return self.engine.pacman_position

    def _agent_state(self, index: int) -> AgentState:
        engine = self.engine
        layout = engine.layout
        start_cell = layout.pacman_start if index == 0 else layout.ghost_starts[index - 1]
        start = Configuration(layout.xy(start_cell), "Stop")
        here = Configuration(agent_xy(engine, index) if engine.half_speed_scared
                             else engine.agent_position(index), engine.directions[index])
        timer = 0 if index == 0 else engine.scared_timers[index - 1]
        return AgentState(start, here, index == 0, timer)

    def getPacmanState(self) -> AgentState:
        return self._agent_state(0)

    def getGhostStates(self) -> list[AgentState]:
        return [self._agent_state(i) for i in range(1, self.engine.num_agents)]

    def getGhostState(self, agentIndex: int) -> AgentState:
        if not 1 <= agentIndex < self.engine.num_agents:
            raise ValueError(f"no ghost with agent index {agentIndex}")
        return self._agent_state(agentIndex)

    def getGhostPositions(self) -> list[tuple[float, float]]:
        engine = self.engine
        if engine.half_speed_scared:  # a ghost between cells is half way, as in the classic engine
            return [agent_xy(engine, i) for i in range(1, engine.num_agents)]
        return list(engine.ghost_positions)

    def getGhostPosition(self, agentIndex: int) -> tuple[float, float] | None:
        return self.getGhostState(agentIndex).getPosition()

    # --- the maze ----------------------------------------------------------------------------
    def getFood(self) -> Grid:
        layout = self.engine.layout
        return Grid.from_cells(layout.width, layout.height, self.engine.food_positions)

    def getWalls(self) -> Grid:
        """The maze's walls: one grid per maze, shared, as the classic course shares it."""
        layout = self.engine.layout
        cached = _WALLS.get(id(layout))
        if cached is None or cached[0] is not layout:
            grid = Grid.from_cells(layout.width, layout.height, layout.positions_of(layout.walls))
            cached = _WALLS[id(layout)] = (layout, grid)
        return cached[1]

    def getCapsules(self) -> list[tuple[int, int]]:
        return self.engine.capsule_positions

    def getNumFood(self) -> int:
        return self.engine.food_count

    def hasFood(self, x: int, y: int) -> bool:
        return self.engine.has_food((x, y))

    def hasWall(self, x: int, y: int) -> bool:
        return self.engine.is_wall((x, y))

    # --- the classic state's data, which some submissions read directly ---------------------
    @property
    def data(self) -> StateData:
        return StateData(self)

    @property
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        """The classic state's instance fields, ``{"data": ...}``, as some submissions read them
        (``state.__dict__["data"].__dict__["agentStates"]``): a fresh dictionary each time, so
        changing it changes nothing."""
        return {"data": self.data}


class LayoutView:
    """The classic ``layout`` fields: ``width``, ``height``, ``walls``, ``food``, ``capsules``,
    ``totalFood`` (food at the start) and ``numGhosts()``."""

    def __init__(self, state: GameState) -> None:
        layout = state.engine.layout
        self.width, self.height = layout.width, layout.height
        self.walls = state.getWalls()
        self.food = Grid.from_cells(layout.width, layout.height, layout.positions_of(layout.food))
        self.capsules = layout.positions_of(layout.capsules)
        self.totalFood = len(layout.cells_of(layout.food))
        self._ghosts = len(layout.ghost_starts)

    def numGhosts(self) -> int:
        return self._ghosts


class StateData:
    """A read-only view of the classic ``GameStateData`` fields of a state."""

    def __init__(self, state: GameState) -> None:
        self.layout = LayoutView(state)
        self.food = state.getFood()
        self.capsules = state.getCapsules()
        self.score = state.getScore()
        self.agentStates = [state.getPacmanState(), *state.getGhostStates()]
        self._win, self._lose = state.isWin(), state.isLose()
