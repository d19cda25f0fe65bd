"""Shared helpers: random play, a display that records states, score events between states."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import HealthCheck, settings

from pacman.engine.state import GameState

#: Settings of every property test: few examples, no deadline, no database written to disk.
PROPERTY = settings(max_examples=30, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


def random_play(layout, num_ghosts: int, seed: int, plies: int) -> list[tuple[GameState, int, str]]:
    """Play ``plies`` random legal moves (or until the game ends) from the start.

    Returns ``[(state, mover, action), ...]``: the state *before* each move, who moved, and how.
    The final state is the last entry's successor; use :func:`states_of` to get all states.
    """
    rng = random.Random(seed)
    state = GameState.initial(layout, num_ghosts)
    moves = []
    for _ in range(plies):
        legal = state.legal_actions()
        if not legal:
            break
        action = rng.choice(legal)
        moves.append((state, state.turn, action))
        state = state.successor(action)
    moves.append((state, state.turn, ""))
    return moves


def states_of(moves) -> list[GameState]:
    return [entry[0] for entry in moves]


@dataclass
class RecordingDisplay:
    """A display that keeps every state it is shown."""

    states: list = field(default_factory=list)
    finished: bool = False

    def start(self, state, agents):
        self.states.append(state)

    def update(self, state, move):
        self.states.append(state)

    def finish(self, state, result):
        self.finished = True


class RandomAgent:
    """Chooses uniformly among the legal actions with the generator the game loop gives it."""

    def __init__(self, index: int = 0, rng: random.Random | None = None) -> None:
        self.index = index
        self.rng = rng

    def get_action(self, state):
        return self.rng.choice(state.legal_actions(self.index))


def score_events(prev: GameState, nxt: GameState, mover: int) -> tuple[int, list[str]]:
    """The score change implied by what visibly happened between two consecutive states.

    Reconstructed from positions, food, capsules, timers and outcome only, with consistency
    checks on each event (an eaten ghost is back at its start, unscared, with no direction).
    Returns ``(delta, event names)``.
    """
    layout = prev.layout
    starts = layout.ghost_starts
    events: list[str] = []
    delta = 0
    eaten_food = prev.food_count - nxt.food_count
    assert eaten_food in (0, 1), "more than one dot eaten in a move"
    assert nxt.food & ~prev.food == 0, "food appeared"
    assert nxt.capsules & ~prev.capsules == 0, "a capsule appeared"
    if mover == 0:
        delta -= 1
        events.append("move")
        assert nxt.ghost_cells == tuple(
            starts[g] if nxt.ghost_cells[g] != prev.ghost_cells[g] else prev.ghost_cells[g]
            for g in range(prev.num_ghosts)), "a ghost moved on Pacman's turn"
        if eaten_food:
            assert prev.food & ~nxt.food == 1 << nxt.pacman_cell, "food eaten elsewhere"
            delta += 10
            events.append("dot")
        capsule = prev.capsules != nxt.capsules
        if capsule:
            assert prev.capsules & ~nxt.capsules == 1 << nxt.pacman_cell
            events.append("capsule")
        for g in range(prev.num_ghosts):
            before = 40 if capsule else prev.scared_timers[g]
            after = nxt.scared_timers[g]
            if before > 0 and after == 0:
                assert prev.ghost_cells[g] == nxt.pacman_cell, "eaten ghost was elsewhere"
                assert nxt.ghost_cells[g] == starts[g] and nxt.directions[g + 1] == "Stop"
                delta += 200
                events.append("pacman_eats_ghost")
            else:
                assert after == before, "timer changed on Pacman's move"
                assert nxt.ghost_cells[g] == prev.ghost_cells[g]
                assert nxt.directions[g + 1] == prev.directions[g + 1]
    else:
        g = mover - 1
        assert eaten_food == 0 and nxt.capsules == prev.capsules
        assert nxt.pacman_cell == prev.pacman_cell
        before, after = prev.scared_timers[g], nxt.scared_timers[g]
        for other in range(prev.num_ghosts):
            if other != g:
                assert nxt.scared_timers[other] == prev.scared_timers[other]
                assert nxt.ghost_cells[other] == prev.ghost_cells[other]
        if before >= 2 and after == 0:
            assert nxt.ghost_cells[g] == starts[g] and nxt.directions[mover] == "Stop"
            delta += 200
            events.append("ghost_walks_into_pacman_scared")
        else:
            assert after == max(before - 1, 0), "timer did not drop by one"
            if before == 1:
                events.append("timer_ran_out")
    if prev.outcome is None and nxt.outcome == "win":
        assert nxt.food == 0 and mover == 0
        delta += 500
        events.append("win")
    if nxt.outcome == "loss":
        delta -= 500
        events.append("loss_on_pacman_move" if mover == 0 else "loss_on_ghost_move")
    return delta, events
