"""The classic ``game`` module: ``Agent``, ``Directions``, ``Actions``, ``Grid`` and the agent
state records that ``getGhostStates()`` returns."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pacman.engine import directions as _d


class Agent:
    """Base of classic agents: ``index`` and ``getAction(state)``."""

    def __init__(self, index: int = 0) -> None:
        self.index = index

    def getAction(self, state: Any) -> str:
        raise NotImplementedError(f"{type(self).__name__} does not define getAction")


class Directions:
    """The action names (identical to the engine's) and turning tables."""

    NORTH = _d.NORTH
    SOUTH = _d.SOUTH
    EAST = _d.EAST
    WEST = _d.WEST
    STOP = _d.STOP
    LEFT = dict(_d.LEFT)
    RIGHT = dict(_d.RIGHT)
    REVERSE = dict(_d.REVERSE)


class Actions:
    """Conversions between directions and vectors."""

    @staticmethod
    def reverseDirection(action: str) -> str:
        return _d.REVERSE.get(action, action)

    @staticmethod
    def directionToVector(direction: str, speed: float = 1.0) -> tuple[float, float]:
        dx, dy = _d.VECTORS[direction]
        return (dx * speed, dy * speed)

    @staticmethod
    def vectorToDirection(vector: tuple[float, float]) -> str:
        dx, dy = vector
        if dy > 0:
            return _d.NORTH
        if dy < 0:
            return _d.SOUTH
        if dx < 0:
            return _d.WEST
        if dx > 0:
            return _d.EAST
        return _d.STOP

    @staticmethod
    def getSuccessor(position: tuple[float, float], action: str) -> tuple[float, float]:
        dx, dy = _d.VECTORS[action]
        return (position[0] + dx, position[1] + dy)

    @staticmethod
    def getLegalNeighbors(position: tuple[int, int], walls: Grid) -> list[tuple[int, int]]:
        x, y = int(position[0]), int(position[1])
        result = []
        for dx, dy in _d.VECTORS.values():
            nx, ny = x + dx, y + dy
            if 0 <= nx < walls.width and 0 <= ny < walls.height and not walls[nx][ny]:
                result.append((nx, ny))
        return result


class Grid:
    """A ``width`` x ``height`` grid of booleans indexed ``grid[x][y]`` (``y`` from the bottom)."""

    def __init__(self, width: int, height: int, initial: bool = False) -> None:
        self.width = width
        self.height = height
        self.data = [[initial] * height for _ in range(width)]

    @classmethod
    def from_cells(cls, width: int, height: int, cells: Iterable[tuple[int, int]]) -> Grid:
        grid = cls(width, height)
        for x, y in cells:
            grid.data[x][y] = True
        return grid

    def __getitem__(self, x: int) -> list[bool]:
        return self.data[x]

    def __setitem__(self, x: int, column: list[bool]) -> None:
        self.data[x] = column

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.data == other.data

    def __hash__(self) -> int:
        return hash(tuple(map(tuple, self.data)))

    def __str__(self) -> str:
        rows = ["".join("T" if self.data[x][y] else "F" for x in range(self.width))
                for y in range(self.height - 1, -1, -1)]
        return "\n".join(rows)

    def copy(self) -> Grid:
        grid = Grid(self.width, self.height)
        grid.data = [list(column) for column in self.data]
        return grid

    deepCopy = copy

    def shallowCopy(self) -> Grid:
        grid = Grid(self.width, self.height)
        grid.data = self.data
        return grid

    def count(self, item: bool = True) -> int:
        return sum(column.count(item) for column in self.data)

    def asList(self, key: bool = True) -> list[tuple[int, int]]:
        return [(x, y) for x in range(self.width) for y in range(self.height)
                if self.data[x][y] == key]


class Configuration:
    """A position and the direction of the last move (a ghost half way between two cells has
    a position ending in ``.5``, as in the classic engine)."""

    def __init__(self, pos: tuple[float, float], direction: str) -> None:
        self.pos = pos
        self.direction = direction

    def getPosition(self) -> tuple[float, float]:
        return self.pos

    def getDirection(self) -> str:
        return self.direction

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Configuration) and self.pos == other.pos
                and self.direction == other.direction)

    def __hash__(self) -> int:
        return hash((self.pos, self.direction))

    def __str__(self) -> str:
        return f"(x,y)={self.pos}, {self.direction}"


class AgentState:
    """One agent's position, direction, start and scared timer (a read-only snapshot)."""

    def __init__(self, start: Configuration, configuration: Configuration, isPacman: bool,
                 scaredTimer: int = 0) -> None:
        self.start = start
        self.configuration = configuration
        self.isPacman = isPacman
        self.scaredTimer = scaredTimer
        self.numCarrying = 0
        self.numReturned = 0

    def getPosition(self) -> tuple[float, float] | None:
        return None if self.configuration is None else self.configuration.getPosition()

    def getDirection(self) -> str:
        return self.configuration.getDirection()

    def copy(self) -> AgentState:
        return AgentState(self.start, self.configuration, self.isPacman, self.scaredTimer)

    def __str__(self) -> str:
        return f"{'Pacman' if self.isPacman else 'Ghost'}: {self.configuration}"
