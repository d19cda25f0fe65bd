"""A tiny, slow, deliberately plain re-implementation of the game rules, for cross-checking.

It is written from the rules as documented (the module docstring of ``pacman.engine.rules``), not from
the engine's code, and shares nothing with it: positions are ``(x, y)`` tuples, food and capsules
are Python sets, the maze is re-parsed from its text here. It imports nothing from ``pacman``.

Rules, as this module implements them:

* agents move one cell North/South/East/West onto a non-wall cell; Pacman may also Stop;
* ghosts never Stop and never reverse their last direction unless that is their only move;
  a ghost with no last direction (start of game, just eaten) may go any way;
* legal actions are listed in the order North, South, East, West, Stop;
* Pacman's move: -1; food on the new cell +10 (the last one +500 more and the game is won);
  a capsule on the new cell sets every ghost's scared timer to 40; then every ghost on that
  cell, in ghost order: scared -> eaten (+200, back to its start, timer 0, no last direction);
  not scared -> the game is lost (-500), unless it was just won;
* a ghost's move: it moves, its timer (if running) drops by one, then if it is on Pacman's cell:
  still scared -> eaten as above; otherwise the game is lost (-500);
* a maze without food is won before anyone moves.
"""

from __future__ import annotations

from dataclasses import dataclass

ORDER = ("North", "South", "East", "West")
DELTA = {"North": (0, 1), "South": (0, -1), "East": (1, 0), "West": (-1, 0)}
OPPOSITE = {"North": "South", "South": "North", "East": "West", "West": "East"}

MOVE_COST = 1
DOT = 10
LAST_DOT_BONUS = 500
EATEN_GHOST = 200
CAUGHT = 500
SCARED_MOVES = 40


class RefIllegal(Exception):
    pass


@dataclass(frozen=True)
class RefMaze:
    width: int
    height: int
    walls: frozenset
    food: frozenset
    capsules: frozenset
    pacman: tuple
    ghosts: tuple  # ghost starts, ghost 1 first


def parse_maze(text: str) -> RefMaze:
    """Read maze text (assumed valid) into sets of ``(x, y)``; ``y`` counts from the bottom."""
    rows = [line.rstrip(" ") for line in text.replace("\r\n", "\n").split("\n")]
    while rows and rows[-1] == "":
        rows.pop()
    height, width = len(rows), len(rows[0])
    walls, food, capsules, ranked = set(), set(), set(), []
    pacman = None
    for row_number, row in enumerate(rows):
        y = height - 1 - row_number
        for x, char in enumerate(row):
            if char == "%":
                walls.add((x, y))
            elif char == ".":
                food.add((x, y))
            elif char == "o":
                capsules.add((x, y))
            elif char == "P":
                pacman = (x, y)
            elif char == "G":
                ranked.append((1, x, y))
            elif char in "1234":
                ranked.append((int(char), x, y))
    # classic numbering: G counts as 1, digits as themselves; ties by column, then row from bottom
    ranked.sort()
    return RefMaze(width, height, frozenset(walls), frozenset(food), frozenset(capsules),
                   pacman, tuple((x, y) for _, x, y in ranked))


@dataclass(frozen=True)
class RefState:
    pacman: tuple
    ghosts: tuple
    directions: tuple  # Pacman's then each ghost's last action ("Stop" = none yet)
    scared: tuple
    food: frozenset
    capsules: frozenset
    score: int
    turn: int
    outcome: str | None


def initial(maze: RefMaze, num_ghosts: int | None = None) -> RefState:
    ghosts = maze.ghosts if num_ghosts is None else maze.ghosts[:num_ghosts]
    return RefState(maze.pacman, tuple(ghosts), ("Stop",) * (len(ghosts) + 1),
                    (0,) * len(ghosts), maze.food, maze.capsules, 0, 0,
                    "win" if not maze.food else None)


def open_moves(maze: RefMaze, position: tuple) -> list:
    """``[(action, new position)]`` for the four moves that do not hit a wall, in ORDER."""
    x, y = position
    result = []
    for action in ORDER:
        dx, dy = DELTA[action]
        target = (x + dx, y + dy)
        inside = 0 <= target[0] < maze.width and 0 <= target[1] < maze.height
        if inside and target not in maze.walls:
            result.append((action, target))
    return result


def legal(maze: RefMaze, state: RefState, agent: int | None = None) -> list:
    if state.outcome is not None:
        return []
    if agent is None:
        agent = state.turn
    if agent == 0:
        return [a for a, _ in open_moves(maze, state.pacman)] + ["Stop"]
    moves = [a for a, _ in open_moves(maze, state.ghosts[agent - 1])]
    last = state.directions[agent]
    if last == "Stop":
        return moves
    forward = [a for a in moves if a != OPPOSITE[last]]
    return forward if forward else moves


def step(maze: RefMaze, state: RefState, action: str, agent: int | None = None) -> RefState:
    if state.outcome is not None:
        raise RefIllegal("game over")
    if agent is None:
        agent = state.turn
    if action not in legal(maze, state, agent):
        raise RefIllegal(f"{action} is not legal for agent {agent}")
    ghosts = list(state.ghosts)
    directions = list(state.directions)
    scared = list(state.scared)
    food = set(state.food)
    capsules = set(state.capsules)
    score = state.score
    outcome = None
    pacman = state.pacman
    directions[agent] = action
    if agent == 0:
        if action != "Stop":
            pacman = dict(open_moves(maze, pacman))[action]
        score -= MOVE_COST
        if pacman in food:
            food.remove(pacman)
            score += DOT
            if len(food) == 0:
                score += LAST_DOT_BONUS
                outcome = "win"
        if pacman in capsules:
            capsules.remove(pacman)
            scared = [SCARED_MOVES] * len(ghosts)
        for i in range(len(ghosts)):
            if ghosts[i] == pacman:
                if scared[i] > 0:
                    score += EATEN_GHOST
                    ghosts[i] = maze.ghosts[i]
                    directions[i + 1] = "Stop"
                    scared[i] = 0
                elif outcome is None:
                    score -= CAUGHT
                    outcome = "loss"
    else:
        i = agent - 1
        ghosts[i] = dict(open_moves(maze, ghosts[i]))[action]
        if scared[i] > 0:
            scared[i] -= 1
        if ghosts[i] == pacman:
            if scared[i] > 0:
                score += EATEN_GHOST
                ghosts[i] = maze.ghosts[i]
                directions[agent] = "Stop"
                scared[i] = 0
            else:
                score -= CAUGHT
                outcome = "loss"
    return RefState(pacman, tuple(ghosts), tuple(directions), tuple(scared), frozenset(food),
                    frozenset(capsules), score, (agent + 1) % (len(ghosts) + 1), outcome)


def perft(maze: RefMaze, num_ghosts: int | None, plies: int) -> tuple[list[int], list[int]]:
    """Leaf paths and distinct leaf states at depth 1..plies (a terminal state is an early leaf)."""
    paths, distinct = [], []
    frontier = [initial(maze, num_ghosts)]  # one entry per path
    finished: list[RefState] = []  # terminal leaves reached before the current depth
    for _ in range(plies):
        grown = []
        for state in frontier:
            if state.outcome is not None:
                finished.append(state)
                continue
            for action in legal(maze, state):
                grown.append(step(maze, state, action))
        frontier = grown
        leaves = finished + frontier
        paths.append(len(leaves))
        distinct.append(len(set(leaves)))
    return paths, distinct


def view_of_engine_state(state) -> RefState:
    """The engine's state in this module's terms, read through the engine's public accessors."""
    return RefState(
        pacman=tuple(state.pacman_position),
        ghosts=tuple(tuple(p) for p in state.ghost_positions),
        directions=tuple(state.directions),
        scared=tuple(state.scared_timers),
        food=frozenset(tuple(p) for p in state.food_positions),
        capsules=frozenset(tuple(p) for p in state.capsule_positions),
        score=state.score,
        turn=state.turn,
        outcome=state.outcome,
    )
