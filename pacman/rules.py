"""The rules of the game, in one place. Pure functions: no printing, no randomness, no mutation.

Turn order
    Pacman is agent 0; ghosts 1..k move in order after him, then Pacman again. A state records
    whose ``turn`` it is; :func:`successor` may also be asked to move another agent explicitly
    (the classic ``generateSuccessor(agentIndex, action)``), after which the turn passes to the
    agent following the one that moved.

Movement
    Agents move one cell North, South, East or West onto open floor. Pacman may also ``Stop``.
    Ghosts may not stop, and may not reverse their last direction unless that is their only
    move (at a dead end). A ghost's first move may go any way. Scared ghosts move by the same
    rules and at the same speed as other ghosts (the classic engine slows them to half speed on a
    continuous grid; this engine keeps every agent on whole cells so that states stay exact and
    hashable); what changes is their policy: ghost agents flee while scared.

The classic scared speed (a rules variant)
    States of :class:`~pacman.state.ClassicSpeedState` play the classic engine's half speed of
    scared ghosts, still on whole cells: a scared ghost whose timer is even (40, 38, ...) moves
    one cell as usual and is then *between cells*, half way from the cell it left to the cell it
    is recorded on, until its next move; while its timer is odd it is between cells, its only
    legal action is its last direction, and that move leaves it on its cell (the second half of
    a half-speed step). So a scared ghost takes two of its moves per cell and has one legal
    action every other move, as in the classic engine. A ghost between cells meets Pacman on
    either of its two cells (the classic engine's collision distance), and the classic API shows
    its position half way (:func:`agent_xy`). One simplification: a capsule eaten while a ghost is
    between cells restarts its timer at 40 on the cell it was heading to (the classic ghost
    finishes that half step with its next move instead). Default states keep the rules above.
    (The variant also has agents written for the classic API get their legal actions in the
    classic engine's order, on which their ties depend: see :mod:`pacman.compat.state`.)

Scoring (the classic constants)
    * every Pacman move, ``Stop`` included, costs ``TIME_PENALTY`` (1 point);
    * a food dot is worth ``FOOD_SCORE`` (10);
    * eating the last dot adds ``WIN_SCORE`` (500) and wins the game;
    * a capsule scares every ghost for ``SCARED_TIME`` (40) of its own moves;
    * meeting a scared ghost eats it: ``EAT_GHOST_SCORE`` (200), and the ghost goes back to its
      start, no longer scared, with no last direction;
    * meeting a ghost that is not scared loses the game and costs ``LOSE_PENALTY`` (500).

Order of events
    Pacman's move: he moves and pays the time penalty, eats the food or capsule on his new cell
    (the last dot wins), then meets every ghost on that cell in ghost order. A win is not undone
    by a ghost on the same cell (scared ghosts there are still eaten). A ghost's move: it moves,
    its scared timer (if running) drops by one, then it meets Pacman if they share the cell; a
    ghost whose timer just ran out is dangerous again. A game also ends when the game loop's move
    cap is reached; that outcome belongs to the loop (:mod:`pacman.game`), not to the state.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable

from pacman.directions import VECTORS
from pacman.errors import GameOverError, IllegalActionError
from pacman.state import LOSS, WIN, GameState

TIME_PENALTY = 1
FOOD_SCORE = 10
WIN_SCORE = 500
LOSE_PENALTY = 500
EAT_GHOST_SCORE = 200
SCARED_TIME = 40


def legal_actions(state: GameState, agent: int) -> tuple[str, ...]:
    """Legal actions of ``agent`` in ``state``, in the fixed order North, South, East, West, Stop.

    Returns ``()`` once the game has ended.
    """
    if state[8] is not None:
        return ()
    layout = state[0]
    if agent == 0:
        return layout.pacman_actions[state[1][0]]
    try:
        if agent > 0:  # a negative index would silently pick another ghost
            if state[3][agent - 1] & 1 and state.half_speed_scared:  # timer first: cheaper
                return (state[2][agent],)  # between cells: it can only go on
            return layout._ghost_actions[state[1][agent]][state[2][agent]]
    except (IndexError, TypeError):
        pass
    return legal_actions(state, _checked_agent(state, agent))


def successor(state: GameState, action: str, agent: int | None = None) -> GameState:
    """The state after ``agent`` (default: the agent whose turn it is) plays ``action``."""
    layout, positions, directions, scared, food, capsules, score, turn, outcome = state
    if outcome is not None:
        raise GameOverError(f"the game is over ({outcome}); no move can follow")
    if agent is None:
        agent = turn
    num_agents = len(positions)
    variant = state.__class__  # a state's successors keep its class (and rules variant)
    if agent == 0:
        target = layout._pacman_moves[positions[0]].get(action)
        if target is None:
            raise _illegal(state, 0, action)
        score -= TIME_PENALTY
        bit = 1 << target
        if food & bit:
            food ^= bit
            score += FOOD_SCORE
            if not food:
                score += WIN_SCORE
                outcome = WIN
        if capsules & bit:
            capsules ^= bit
            scared = (SCARED_TIME,) * (num_agents - 1)
        meets = target in positions and target in positions[1:]  # the first test is cheap
        between = variant is not GameState and variant.half_speed_scared and _ghosts_behind(
            state, target)
        positions = (target,) + positions[1:]
        directions = (action,) + directions[1:]
        if meets or between:
            positions, directions, scared, score, outcome = _pacman_meets_ghosts(
                layout, positions, directions, scared, score, outcome, between or ())
    else:
        try:
            if not 0 < agent < num_agents:  # a negative index would move another ghost
                raise TypeError
            cell = positions[agent]
        except TypeError:
            return successor(state, action, _checked_agent(state, agent))
        timer = scared[agent - 1]
        if timer and variant.half_speed_scared:
            return _half_speed_ghost_move(state, action, agent, timer)
        target = layout._ghost_moves[cell][directions[agent]].get(action)
        if target is None:
            raise _illegal(state, agent, action)
        # list, set item, tuple: half the cost of slicing and concatenating a short tuple
        moved = list(positions)
        moved[agent] = target
        turned = list(directions)
        turned[agent] = action
        if timer:
            timer -= 1
            scared = scared[:agent - 1] + (timer,) + scared[agent:]
        if target == positions[0]:
            scared, score, outcome = _ghost_meets_pacman(layout, agent, timer, moved, turned,
                                                         scared, score, outcome)
        positions, directions = tuple(moved), tuple(turned)
    next_turn = agent + 1 if agent + 1 < num_agents else 0
    return variant((layout, positions, directions, scared, food, capsules, score, next_turn,
                    outcome))


def replay(state: GameState, actions: Iterable[str]) -> GameState:
    """The state after the agents play ``actions`` in turn from ``state``: exactly what
    :func:`successor` applied to each action in turn gives (``functools.reduce(successor,
    actions, state)``), with the same error for the first action that is illegal or follows
    the end of the game.

    What checking a stored game costs is mostly this: the plain moves (a step onto an empty or
    food cell that meets no ghost, a ghost's step that does not reach Pacman) are played on
    lists without building a state per move, about three times faster; any other move (a
    capsule, a meeting, an illegal action, a move after the end) is played by
    :func:`successor` itself. A state of a rules variant is played by :func:`successor` only.
    """
    if type(state) is not GameState:
        return functools.reduce(successor, actions, state)
    layout, positions, directions, scared, food, capsules, score, agent, outcome = state
    pacman_moves, ghost_moves = layout._pacman_moves, layout._ghost_moves
    cells, heading, timers = list(positions), list(directions), list(scared)
    count = len(cells)
    for action in actions:
        if outcome is None:
            if agent == 0:
                target = pacman_moves[cells[0]].get(action)
                if target is not None and not capsules >> target & 1 and (
                        target not in cells or target not in cells[1:]):
                    score -= TIME_PENALTY
                    if food >> target & 1:
                        food ^= 1 << target
                        score += FOOD_SCORE
                        if not food:
                            score += WIN_SCORE
                            outcome = WIN
                    cells[0] = target
                    heading[0] = action
                    agent = 1 if count > 1 else 0
                    continue
            else:
                target = ghost_moves[cells[agent]][heading[agent]].get(action)
                if target is not None and target != cells[0]:
                    cells[agent] = target
                    heading[agent] = action
                    if timers[agent - 1]:
                        timers[agent - 1] -= 1
                    agent = agent + 1 if agent + 1 < count else 0
                    continue
        # anything else is played (or refused) by the rules' move function itself
        moved = successor(GameState((layout, tuple(cells), tuple(heading), tuple(timers), food,
                                     capsules, score, agent, outcome)), action)
        _, positions, directions, scared, food, capsules, score, agent, outcome = moved
        cells, heading, timers = list(positions), list(directions), list(scared)
    return GameState((layout, tuple(cells), tuple(heading), tuple(timers), food, capsules,
                      score, agent, outcome))


def _illegal(state: GameState, agent: int, action: object) -> IllegalActionError:
    """The error for ``agent`` playing the illegal ``action`` in ``state``."""
    where = state[0].cell_xy[state[1][agent]]
    who = "Pacman" if agent == 0 else f"ghost {agent}"
    between = " between cells" if is_between_cells(state, agent) else ""
    return IllegalActionError(f"{action!r} is not legal for {who} at {where}{between}; legal: "
                              f"{', '.join(legal_actions(state, agent))}")


def _ghost_meets_pacman(layout, agent, timer, moved, turned, scared, score, outcome):
    """Ghost ``agent`` (its scared ``timer`` already counted down) meets Pacman after its move:
    a scared ghost is eaten (``moved``/``turned`` are updated in place), else Pacman loses.
    Returns the new ``(scared, score, outcome)``."""
    if timer:
        moved[agent] = layout.ghost_starts[agent - 1]
        turned[agent] = "Stop"
        return scared[:agent - 1] + (0,) + scared[agent:], score + EAT_GHOST_SCORE, outcome
    return scared, score - LOSE_PENALTY, LOSS


def _checked_agent(state: GameState, agent: object) -> int:
    """``agent`` as a plain ``int`` if it names an agent of ``state`` (an integer such as a
    numpy integer, not a bool); else :class:`IllegalActionError`."""
    try:
        index = operator.index(agent) if not isinstance(agent, bool) else -1  # type: ignore[arg-type]  # TypeError below
    except TypeError:
        index = -1
    if not 0 <= index < len(state[1]):
        raise IllegalActionError(f"there is no agent {agent!r}: agents are 0 (Pacman) to "
                                 f"{len(state[1]) - 1}")
    return index


def _pacman_meets_ghosts(layout, positions, directions, scared, score, outcome, between=()):
    """Resolve Pacman sharing his cell with one or more ghosts, in ghost order (``between``:
    ghosts that meet him from between cells, see the classic scared speed)."""
    positions, directions, scared = list(positions), list(directions), list(scared)
    pacman = positions[0]
    for agent in range(1, len(positions)):
        if positions[agent] != pacman and agent not in between:
            continue
        if scared[agent - 1]:
            score += EAT_GHOST_SCORE
            positions[agent] = layout.ghost_starts[agent - 1]
            directions[agent] = "Stop"
            scared[agent - 1] = 0
        elif outcome is None:
            score -= LOSE_PENALTY
            outcome = LOSS
    return tuple(positions), tuple(directions), tuple(scared), score, outcome


# --- the classic scared speed ------------------------------------------------------------------
def is_between_cells(state: GameState, agent: int) -> bool:
    """Whether ghost ``agent`` is half way between two cells (only under the classic scared
    speed: a scared ghost whose timer is odd)."""
    return bool(agent > 0 and state.half_speed_scared and state[3][agent - 1] & 1)


def _cell_behind(layout, cell: int, direction: str) -> int:
    """The cell a ghost that moved ``direction`` onto ``cell`` came from."""
    dx, dy = VECTORS[direction]
    return cell - dx - dy * layout.width


def _ghosts_behind(state: GameState, cell: int) -> tuple[int, ...]:
    """The ghosts between cells whose cell behind is ``cell`` (they meet Pacman there)."""
    layout, positions, directions, scared = state[0], state[1], state[2], state[3]
    return tuple(g for g in range(1, len(positions)) if scared[g - 1] & 1
                 and _cell_behind(layout, positions[g], directions[g]) == cell)


def agent_xy(state: GameState, agent: int) -> tuple[float, float]:
    """Where the classic engine would show ``agent``: its cell's ``(x, y)``, or half way back
    towards the cell it came from while it is between cells."""
    x, y = state[0].cell_xy[state[1][agent]]
    if not is_between_cells(state, agent):
        return (x, y)
    dx, dy = VECTORS[state[2][agent]]
    return (x - dx / 2, y - dy / 2)


def _half_speed_ghost_move(state: GameState, action: str, agent: int, timer: int) -> GameState:
    """A scared ghost's move under the classic scared speed (``timer`` > 0): on an even timer a
    move as usual, after which the ghost is between cells (it also meets Pacman on the cell it
    left); on an odd timer only its last direction, which leaves it on its cell."""
    layout, positions, directions, scared, food, capsules, score, turn, outcome = state
    cell, last = positions[agent], directions[agent]
    if timer & 1:  # the second half of a half-speed step: only on, and it stays
        target = cell if action == last else None
    else:
        target = layout._ghost_moves[cell][last].get(action)
    if target is None:
        raise _illegal(state, agent, action)
    timer -= 1
    scared = scared[:agent - 1] + (timer,) + scared[agent:]
    moved, turned = list(positions), list(directions)
    moved[agent], turned[agent] = target, action
    if positions[0] in (target, cell):  # between cells (or arriving), it meets Pacman on both
        scared, score, outcome = _ghost_meets_pacman(layout, agent, timer, moved, turned, scared,
                                                     score, outcome)
    next_turn = agent + 1 if agent + 1 < len(positions) else 0
    return type(state)((layout, tuple(moved), tuple(turned), scared, food, capsules, score,
                        next_turn, outcome))
