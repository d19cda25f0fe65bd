"""A reference of the classic engine's rules on a continuous grid, for differential tests of the
classic rules variant (:class:`~pacman.engine.state.ClassicSpeedState`).

Written from the classic rules, plainly and slowly: positions are ``(x, y)`` floats; a scared
ghost moves by half a cell (speed 0.5 while its timer is above 0); an agent off the grid points
by more than 0.001 may only go on in its direction; a ghost may not stop nor reverse unless
reversing is its only move; a ghost's timer drops by one after each of its moves, and a move
that ends the timer snaps the ghost to ``(int(x + 0.5), int(y + 0.5))``; a ghost and Pacman
meet when their Manhattan distance is at most 0.7 (a scared ghost is eaten: +200, back to its
start, no longer scared; else Pacman loses, -500, unless he has already won); Pacman pays 1
per move, eats food (+10, the last +500 and a win) and capsules (every ghost's timer set to 40).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pacman.engine.layout import Layout

VECTORS = {"North": (0, 1), "South": (0, -1), "East": (1, 0), "West": (-1, 0), "Stop": (0, 0)}
REVERSE = {"North": "South", "South": "North", "East": "West", "West": "East", "Stop": "Stop"}
TOLERANCE = 0.001
COLLISION = 0.7


@dataclass
class Ghost:
    start: tuple[float, float]
    pos: tuple[float, float]
    direction: str = "Stop"
    timer: int = 0


@dataclass
class ReferenceGame:
    """The classic game on ``layout`` with its first ``ghosts`` ghosts, Pacman to move."""

    layout: Layout
    ghosts_wanted: int
    pacman: tuple[float, float] = (0, 0)
    ghosts: list[Ghost] = field(default_factory=list)
    food: set[tuple[int, int]] = field(default_factory=set)
    capsules: set[tuple[int, int]] = field(default_factory=set)
    score: int = 0
    outcome: str | None = None

    def __post_init__(self) -> None:
        layout = self.layout
        self.pacman = layout.xy(layout.pacman_start)
        self.ghosts = [Ghost(layout.xy(c), layout.xy(c))
                       for c in layout.ghost_starts[:self.ghosts_wanted]]
        self.food = set(layout.positions_of(layout.food))
        self.capsules = set(layout.positions_of(layout.capsules))
        self.outcome = "win" if not self.food else None

    # --- legal actions ---------------------------------------------------------------------
    def _open_moves(self, pos: tuple[float, float], direction: str) -> list[str]:
        x, y = pos
        gx, gy = int(x + 0.5), int(y + 0.5)
        if abs(x - gx) + abs(y - gy) > TOLERANCE:
            return [direction]
        return [d for d, (dx, dy) in VECTORS.items()
                if d != "Stop" and not self.layout.is_wall((gx + dx, gy + dy))]

    def legal(self, agent: int) -> set[str]:
        if self.outcome is not None:
            return set()
        if agent == 0:
            return {*self._open_moves(self.pacman, "Stop"), "Stop"}
        ghost = self.ghosts[agent - 1]
        moves = self._open_moves(ghost.pos, ghost.direction)
        if REVERSE[ghost.direction] in moves and len(moves) > 1:
            moves.remove(REVERSE[ghost.direction])
        return set(moves)

    # --- moves -----------------------------------------------------------------------------
    def move(self, agent: int, action: str) -> None:
        assert action in self.legal(agent), (agent, action, self.legal(agent))
        dx, dy = VECTORS[action]
        if agent == 0:
            self.pacman = (self.pacman[0] + dx, self.pacman[1] + dy)
            self.score -= 1
            cell = (int(self.pacman[0]), int(self.pacman[1]))
            if cell in self.food:
                self.food.discard(cell)
                self.score += 10
                if not self.food:
                    self.score += 500
                    self.outcome = "win"
            if cell in self.capsules:
                self.capsules.discard(cell)
                for ghost in self.ghosts:
                    ghost.timer = 40
            for ghost in self.ghosts:
                self._meet(ghost)
            return
        ghost = self.ghosts[agent - 1]
        speed = 0.5 if ghost.timer > 0 else 1
        ghost.pos = (ghost.pos[0] + dx * speed, ghost.pos[1] + dy * speed)
        ghost.direction = action
        if ghost.timer == 1:
            ghost.pos = (int(ghost.pos[0] + 0.5), int(ghost.pos[1] + 0.5))
        ghost.timer = max(0, ghost.timer - 1)
        self._meet(ghost)

    def _meet(self, ghost: Ghost) -> None:
        distance = abs(ghost.pos[0] - self.pacman[0]) + abs(ghost.pos[1] - self.pacman[1])
        if distance > COLLISION:
            return
        if ghost.timer > 0:
            self.score += 200
            ghost.pos, ghost.direction, ghost.timer = ghost.start, "Stop", 0
        elif self.outcome != "win":
            self.score -= 500
            self.outcome = "loss"
