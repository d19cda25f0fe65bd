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

import operator

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
    if agent == 0:
        target = layout._pacman_moves[positions[0]].get(action)
        if target is None:
            raise IllegalActionError(
                f"{action!r} is not legal for Pacman at {layout.cell_xy[positions[0]]}; "
                f"legal: {', '.join(layout.pacman_actions[positions[0]])}")
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
        positions = (target,) + positions[1:]
        directions = (action,) + directions[1:]
        if meets:
            positions, directions, scared, score, outcome = _pacman_meets_ghosts(
                layout, positions, directions, scared, score, outcome)
    else:
        try:
            if not 0 < agent < num_agents:  # a negative index would move another ghost
                raise TypeError
            cell = positions[agent]
        except TypeError:
            return successor(state, action, _checked_agent(state, agent))
        target = layout._ghost_moves[cell][directions[agent]].get(action)
        if target is None:
            raise IllegalActionError(
                f"{action!r} is not legal for ghost {agent} at {layout.cell_xy[cell]}; legal: "
                f"{', '.join(layout._ghost_actions[cell][directions[agent]])}")
        # list, set item, tuple: half the cost of slicing and concatenating a short tuple
        moved = list(positions)
        moved[agent] = target
        turned = list(directions)
        turned[agent] = action
        timer = scared[agent - 1]
        if timer:
            timer -= 1
            scared = scared[:agent - 1] + (timer,) + scared[agent:]
        if target == positions[0]:
            if timer:
                score += EAT_GHOST_SCORE
                moved[agent] = layout.ghost_starts[agent - 1]
                turned[agent] = "Stop"
                scared = scared[:agent - 1] + (0,) + scared[agent:]
            else:
                score -= LOSE_PENALTY
                outcome = LOSS
        positions, directions = tuple(moved), tuple(turned)
    next_turn = agent + 1
    if next_turn == num_agents:
        next_turn = 0
    return GameState((layout, positions, directions, scared, food, capsules, score, next_turn,
                      outcome))


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


def _pacman_meets_ghosts(layout, positions, directions, scared, score, outcome):
    """Resolve Pacman sharing his cell with one or more ghosts, in ghost order."""
    positions, directions, scared = list(positions), list(directions), list(scared)
    pacman = positions[0]
    for agent in range(1, len(positions)):
        if positions[agent] != pacman:
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
