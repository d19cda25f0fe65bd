"""The classic assignment's position tests replay the classic autograder's own game test.

The classic course's q2-q4 game test (its ``PacmanGameTreeTest``: smallClassic, two directional
ghosts, depth 2, ``random.seed(0)``) records, for each of Pacman's moves, the best moves and the
number of states explored of its reference searches with and without Stop; its grading Pacman
always plays the first recorded best move. The data below are those published facts, taken
from the classic course's solution files (``test_cases/q2/8-pacman-game.solution``,
``q3/8-pacman-game.solution`` and ``q4/7-pacman-game.solution`` of the UC Berkeley CS188
multi-agent project): the first best move at every step (W West, E East, N North, S South,
``.`` Stop), the totals over the game of the states explored by the two references, and those
of the first four steps. Our game (:func:`play_classic_game`, Pacman playing our reference's
first best move) must reach exactly these positions: same moves, same best moves and counts.
"""

from __future__ import annotations

import random
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.errors import ConfigurationError
from pacman.grading.assignment import load_assignment, parse_assignment
from pacman.grading.classic_stream import ClassicDirectionalGhost, SteppedStream, classic_sample
from pacman.grading.position_grading import play_classic_game
from pacman.grading.position_tests import reference_position
from pacman.engine.layout import load_layout
from pacman.engine.state import ClassicSpeedState

_CODES = {"W": "West", "E": "East", "N": "North", "S": "South", ".": "Stop"}
_MINIMAX_MOVES = ("WWWWWWWWNNNN.EWSSSSEEENNWENEENWWWWW.............SSSSEEEEENNEEEEEEENEENWW..EW"
                  "SSSSWWWWWWWWWWWW..NNNNEEEEESNWWWWW........SSSSEEEEEEEEEEEEEEEEENNNNWWW")
#: algorithm -> (first best moves, states explored with Stop / without it over the whole game,
#: the first four steps' (with Stop, without Stop) counts), from the classic solution files.
CLASSIC_GAME = {
    "minimax": (_MINIMAX_MOVES, 9103, 5951, [(59, 35), (190, 127), (190, 135), (120, 82)]),
    "alphabeta": (_MINIMAX_MOVES, 7927, 5257, [(39, 27), (75, 57), (95, 77), (72, 54)]),
    "expectimax": (_MINIMAX_MOVES[:12] + "E." + _MINIMAX_MOVES[14:], 9077, 5935,
                   [(59, 35), (190, 127), (190, 135), (120, 82)]),
}


class _ReferencePacman:
    """Plays the reference's first best move and keeps every reference answer."""

    def __init__(self, algorithm: str) -> None:
        self.algorithm = algorithm
        self.facing: str | None = None
        self.answers: list = []

    def get_action(self, state):
        self.facing = self.facing or state.directions[0]
        answer = reference_position(state, self.algorithm, 2, self.facing)
        self.answers.append(answer)
        if answer.action != "Stop":
            self.facing = answer.action
        return answer.action


@pytest.mark.parametrize("algorithm", sorted(CLASSIC_GAME))
def test_the_classic_game_is_replayed_move_for_move(algorithm):
    moves, with_stop, without_stop, first = CLASSIC_GAME[algorithm]
    pacman = _ReferencePacman(algorithm)
    result = play_classic_game(load_layout("smallClassic"), pacman, 0, 2, 500)
    played = "".join({v: k for k, v in _CODES.items()}[a.action] for a in pacman.answers)
    assert played == moves
    assert result.outcome.name == "LOSS"  # the classic game ends there too, after 146 moves
    assert sum(a.explored_with_stop for a in pacman.answers) == with_stop
    assert sum(a.explored_without_stop for a in pacman.answers) == without_stop
    assert [(a.explored_with_stop, a.explored_without_stop) for a in pacman.answers[:4]] == first


def test_without_the_reseeding_the_game_is_not_the_classic_one():
    """The grading Pacman's reseeding matters: ghosts drawing on from one stream seeded once
    play another game."""
    stream = SteppedStream(0)
    stream.reseed = lambda steps: None  # never reseeded after Pacman's moves
    pacman = _ReferencePacman("minimax")
    from pacman.engine.game_loop import run_game
    run_game(load_layout("smallClassic"),
             [pacman, ClassicDirectionalGhost(1, stream), ClassicDirectionalGhost(2, stream)], 0,
             max_moves=500, rules="classic")
    played = "".join({v: k for k, v in _CODES.items()}[a.action] for a in pacman.answers)
    assert played != _MINIMAX_MOVES


def test_the_reference_plays_the_classic_action_order_first():
    """At the first position West and East are both best; the classic order puts West first."""
    state = ClassicSpeedState.initial(load_layout("smallClassic"), num_ghosts=2)
    answer = reference_position(state, "minimax", 2, state.directions[0])
    assert answer.best_with_stop == {"West", "East"}
    assert answer.action == "West"


class _Fixed:
    def __init__(self, value: float) -> None:
        self.value = value

    def random(self) -> float:
        return self.value


@given(st.lists(st.integers(1, 20), min_size=1, max_size=5), st.floats(0, 1, exclude_max=True))
def test_classic_sample_takes_the_first_action_by_name_whose_running_total_reaches_the_draw(
        weights, draw):
    names = ["West", "Stop", "East", "North", "South"][:len(weights)]
    chosen = classic_sample(dict(zip(names, map(float, weights))), _Fixed(draw))
    ordered = sorted(names)
    total = float(sum(weights))
    shares = [dict(zip(names, weights))[a] / total for a in ordered]
    running = [sum(shares[:i + 1]) for i in range(len(shares))]
    first = next((a for a, r in zip(ordered, running) if draw <= r + 1e-12), ordered[-1])
    assert chosen == first or abs(running[ordered.index(chosen) - 1] - draw) < 1e-9


def test_a_directional_ghost_draws_one_number_per_move_from_its_stream():
    stream = SteppedStream(7)
    state = ClassicSpeedState.initial(load_layout("smallClassic"), num_ghosts=2)
    ghost = ClassicDirectionalGhost(1, stream)
    ghost.get_action(state.successor("West", 0))
    check = random.Random(7)
    check.random()
    assert stream.random() == check.random()


def _positions(extra: str, ghosts: str = "directional"):
    return parse_assignment(tomllib.loads(f'''
name = "t"
[roles]
minimax = ["MinimaxAgent"]
[[questions]]
id = "q2"
title = "Minimax"
[[questions.tests]]
type = "positions"
name = "game"
agent = "minimax"
layout = "smallClassic"
ghosts = "{ghosts}"
ghost_count = 2
{extra}
'''), "test")


def test_the_game_key_is_parsed_and_checked():
    assert (_positions("")).questions[0].tests[0].game == "seeded"
    assert (_positions('game = "classic"')).questions[0].tests[0].game == \
        "classic"
    with pytest.raises(ConfigurationError, match="game"):
        (_positions('game = "clasic"'))
    with pytest.raises(ConfigurationError, match="directional"):
        (_positions('game = "classic"', ghosts="random"))


def test_classic_q2_to_q4_are_the_classic_checks_and_the_default_keeps_random_trees():
    classic = {q.id: q for q in load_assignment("classic").questions}
    for qid in ("q2", "q3", "q4"):
        kinds = [(t.kind, t.game) for t in classic[qid].tests]
        assert ("positions", "classic") in kinds
        assert classic[qid].points == 5
    default = {q.id: q for q in load_assignment("default").questions}
    assert all(any("random trees" in t.name for t in default[qid].tests)
               for qid in ("q2", "q3", "q4"))
    assert not any("random trees" in t.name for qid in ("q2", "q3", "q4")
                   for t in classic[qid].tests)
