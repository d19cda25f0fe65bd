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
    States of :class:`~pacman.engine.state.ClassicSpeedState` play the classic engine's half speed of
    scared ghosts exactly, on whole cells and one more bit per ghost (the state's ``between``
    field). A scared ghost moves half a cell per move. From its cell it may take any legal
    move, after which it is *between cells*: recorded on the cell ahead, facing the way it
    moved, with its bit set; the classic API shows it half way back (:func:`agent_xy`). Between
    cells its only legal action is its direction, which takes it onto the cell ahead. A ghost
    between cells meets Pacman on either of its two cells (the classic collision distance,
    0.7, reaches both) and is always scared there, so it is eaten. A capsule sets every timer
    to 40 and leaves ghosts between cells where they are: they finish their half step with
    their next move. When a timer runs out on a move from a cell, the classic engine rounds
    the half way position to a cell (``int(x + 0.5)``): the cell ahead for a move East or
    North, the cell it left for a move West or South (still facing the way it moved). Pacman
    walking onto several ghosts that are not scared pays ``LOSE_PENALTY`` for each, as the
    classic engine charges them. Default states keep the rules above and have no ``between``
    field. (The variant also has agents
    written for the classic API get their legal actions in the classic engine's order, on
    which their ties depend: see :mod:`pacman.compat.state`.)

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
    cap is reached; that outcome belongs to the loop (:mod:`pacman.engine.game`), not to the state.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Iterator
from typing import Any, Protocol, TypeVar

from pacman.engine.directions import VECTORS
from pacman.errors import GameOverError, IllegalActionError
from pacman.engine.outcome import Outcome

WIN = Outcome.WIN
LOSS = Outcome.LOSS


class StateFields(Protocol):
    """What the rules need of a state: the fields of :class:`pacman.engine.state.GameState` in its
    order (:data:`pacman.engine.state.FIELDS`), read by position, and whether the state plays the
    classic scared speed. The rules build a successor of the same class as its parent, so this
    module never names the state class: :mod:`pacman.engine.state` builds on the rules, not the
    reverse."""

    half_speed_scared: bool

    def __init__(self, fields: Iterable[Any], /) -> None: ...

    def __getitem__(self, index: int) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


#: A state of any class with the fields of :class:`StateFields`; successors keep its class.
State = TypeVar("State", bound=StateFields)

TIME_PENALTY = 1
FOOD_SCORE = 10
WIN_SCORE = 500
LOSE_PENALTY = 500
EAT_GHOST_SCORE = 200
SCARED_TIME = 40


def legal_actions(state: State, agent: int) -> tuple[str, ...]:
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
            if state[3][agent - 1] and state.half_speed_scared and state[9] >> (agent - 1) & 1:
                return (state[2][agent],)  # between cells: it can only go on (timer first: cheap)
            return layout._ghost_actions[state[1][agent]][state[2][agent]]
    except (IndexError, TypeError):
        pass
    return legal_actions(state, _checked_agent(state, agent))


def successor(state: State, action: str, agent: int | None = None) -> State:
    """The state after ``agent`` (default: the agent whose turn it is) plays ``action``."""
    if state.half_speed_scared:
        return _classic_successor(state, action, agent)
    layout, positions, directions, scared, food, capsules, score, turn, outcome = state
    if outcome is not None:
        raise GameOverError(f"the game is over ({outcome}); no move can follow")
    if agent is None:
        agent = turn
    num_agents = len(positions)
    variant = state.__class__  # a state's successors keep its class
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
        timer = scared[agent - 1]
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


def replay(state: State, actions: Iterable[str]) -> State:
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
    if state.half_speed_scared:
        return functools.reduce(successor, actions, state)
    variant = state.__class__
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
        moved = successor(variant((layout, tuple(cells), tuple(heading), tuple(timers), food,
                                   capsules, score, agent, outcome)), action)
        _, positions, directions, scared, food, capsules, score, agent, outcome = moved
        cells, heading, timers = list(positions), list(directions), list(scared)
    return variant((layout, tuple(cells), tuple(heading), tuple(timers), food, capsules,
                    score, agent, outcome))


def _illegal(state: State, agent: int, action: object) -> IllegalActionError:
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


def _checked_agent(state: State, agent: object) -> int:
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


# --- the classic scared speed ------------------------------------------------------------------
#: The directions in which the classic engine's rounding (``int(x + 0.5)``) of a position half
#: way between two cells gives the cell ahead; in the other two it gives the cell behind.
_ROUNDS_AHEAD = frozenset({"East", "North"})


def is_between_cells(state: State, agent: int) -> bool:
    """Whether ghost ``agent`` is half way between two cells (only under the classic scared
    speed: the ghost's bit of the state's ``between`` field)."""
    return bool(agent > 0 and state.half_speed_scared and state[9] >> (agent - 1) & 1)


def agent_xy(state: State, agent: int) -> tuple[float, float]:
    """Where the classic engine would show ``agent``: its cell's ``(x, y)``, or half way back
    towards the cell it came from while it is between cells."""
    x, y = state[0].cell_xy[state[1][agent]]
    if not is_between_cells(state, agent):
        return (x, y)
    dx, dy = VECTORS[state[2][agent]]
    return (x - dx / 2, y - dy / 2)


def _cell_behind(layout, cell: int, direction: str) -> int:
    """The cell a ghost that moved ``direction`` onto ``cell`` came from."""
    dx, dy = VECTORS[direction]
    return cell - dx - dy * layout.width


def _tuple_class(state: State) -> Any:
    """The class of ``state``, to build its successor with ``tuple.__new__`` (a variant's own
    constructor checks its fields; the rules' successors need no check)."""
    return state.__class__


def _classic_successor(state: State, action: str, agent: int | None) -> State:
    """:func:`successor` under the classic scared speed (the module docstring). Its moves at
    full speed are those of :func:`successor`, written again here rather than shared: the
    default rules' hot path stays free of the variant."""
    layout, positions, directions, scared, food, capsules, score, turn, outcome, between = state
    if outcome is not None:
        raise GameOverError(f"the game is over ({outcome}); no move can follow")
    if agent is None:
        agent = turn
    elif type(agent) is not int or not 0 <= agent < len(positions):
        agent = _checked_agent(state, agent)
    if agent:
        if scared[agent - 1]:
            return _half_speed_ghost_move(state, action, agent)
        target = layout._ghost_moves[positions[agent]][directions[agent]].get(action)
        if target is None:
            raise _illegal(state, agent, action)
        moved, turned = list(positions), list(directions)
        moved[agent], turned[agent] = target, action
        if target == positions[0]:
            scared, score, outcome = _ghost_meets_pacman(layout, agent, 0, moved, turned, scared,
                                                         score, outcome)
        positions, directions = tuple(moved), tuple(turned)
    else:
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
            scared = (SCARED_TIME,) * (len(positions) - 1)
        if between or target in positions:
            positions, directions, scared, score, outcome, between = _classic_pacman_meets(
                layout, target, positions, directions, scared, score, outcome, between)
        positions = (target,) + positions[1:]
        directions = (action,) + directions[1:]
    next_turn = agent + 1 if agent + 1 < len(positions) else 0
    return tuple.__new__(_tuple_class(state), (layout, positions, directions, scared, food,
                                              capsules, score, next_turn, outcome, between))


def _classic_pacman_meets(layout, target, positions, directions, scared, score, outcome,
                          between):
    """Pacman, arriving on ``target``, meets each ghost on it or half way next to it (the
    classic collision distance), in ghost order: a scared ghost is eaten; each other one costs
    ``LOSE_PENALTY`` (the classic engine charges each) and loses the game, unless it is won.
    Returns the new ``(positions, directions, scared, score, outcome, between)``."""
    positions, directions, scared = list(positions), list(directions), list(scared)
    for ghost in range(1, len(positions)):
        bit = 1 << (ghost - 1)
        if positions[ghost] != target and not (
                between & bit and _cell_behind(layout, positions[ghost], directions[ghost]) == target):
            continue
        if scared[ghost - 1]:
            score += EAT_GHOST_SCORE
            positions[ghost] = layout.ghost_starts[ghost - 1]
            directions[ghost] = "Stop"
            scared[ghost - 1] = 0
            between &= ~bit
        elif outcome is not WIN:
            score -= LOSE_PENALTY
            outcome = LOSS
    return tuple(positions), tuple(directions), tuple(scared), score, outcome, between


def _half_speed_ghost_move(state: State, action: str, agent: int) -> State:
    """A scared ghost's move under the classic scared speed: half a cell. From its cell, any
    legal move, after which it is between that cell and the next; between cells, only on, to
    the cell ahead. A move that ends the timer between cells ends on the cell the classic
    engine rounds to (:data:`_ROUNDS_AHEAD`). It then meets Pacman on its cell, or on either
    of its two cells while it is between them."""
    layout, positions, directions, scared, food, capsules, score, turn, outcome, between = state
    cell, last, bit = positions[agent], directions[agent], 1 << (agent - 1)
    timer = scared[agent - 1] - 1
    meets: tuple[int, ...]  # the cells on which it meets Pacman after this move
    if between & bit:  # the second half of a step: only on, to the cell ahead
        if action != last:
            raise _illegal(state, agent, action)
        target, meets = cell, (cell,)
        between ^= bit
    else:
        target = layout._ghost_moves[cell][last].get(action)
        if target is None:
            raise _illegal(state, agent, action)
        if timer:
            meets = (target, cell)
            between |= bit
        else:  # the timer ends half way: the classic engine rounds the position to a cell
            target = target if action in _ROUNDS_AHEAD else cell
            meets = (target,)
    scared = scared[:agent - 1] + (timer,) + scared[agent:]
    moved, turned = list(positions), list(directions)
    moved[agent], turned[agent] = target, action
    if positions[0] in meets:
        scared, score, outcome = _ghost_meets_pacman(layout, agent, timer, moved, turned, scared,
                                                     score, outcome)
        between &= ~bit  # eaten (back at its start) or on its cell
    next_turn = agent + 1 if agent + 1 < len(positions) else 0
    return tuple.__new__(_tuple_class(state), (layout, tuple(moved), tuple(turned), scared, food,
                                              capsules, score, next_turn, outcome, between))
