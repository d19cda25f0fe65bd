"""Classic parity: classic files are graded as the classic course grades them."""

from __future__ import annotations

from pathlib import Path

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.grading.assignment import assignment_for, load_assignment, parse_assignment
from pacman.grading.grader import TestResult as Result
from pacman.grading.grader import grade
from pacman.grading.question_rules import all_or_nothing as _all_or_nothing
from pacman.grading.position_server import PositionServer
from pacman.grading.position_tests import (PositionObservation, PositionReference,
                                           PositionVerdict, reference_position)
from pacman.grading.remote_state import Channel, RemotePositionState
from pacman.grading.variants import BUGS
from pacman.compat.state import GameState as ClassicState
from pacman.errors import IllegalActionError
from pacman.grading.remote_state import GraderError, NodeBudgetExceeded
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState

ZOO = Path(__file__).resolve().parent / "zoo"


@pytest.fixture(scope="module")
def classic():
    return load_assignment("classic")


def _question(report, qid):
    return next(q for q in report.questions if q.id == qid)


def test_classic_assignment_has_the_classic_questions_and_points(classic):
    assert [(q.id, q.points) for q in classic.questions] == [
        ("q1", 4), ("q2", 5), ("q3", 5), ("q4", 5), ("q5", 6)]
    assert classic.points == 25
    assert [q.all_or_nothing for q in classic.questions] == [False, True, True, True, False]
    trees = [t for _, t in classic.tests() if t.kind == "tree"]
    assert all(t.ties == "first" and not t.compare_evaluated for t in trees)
    assert all(t.strict for t in trees if t.algorithm == "alphabeta")
    q5 = classic.questions[4].tests[0]
    assert (q5.role, dict(q5.options), q5.layout, q5.ghost_count) == (
        "expectimax", {"evalFn": "better"}, "smallClassic", 1)


def test_classic_files_default_to_the_classic_assignment_and_native_ones_do_not(tmp_path):
    assert assignment_for(ZOO / "correct_classic.py") == "classic"
    assert assignment_for(ZOO / "correct_native.py") == "default"
    project = tmp_path / "project"
    project.mkdir()
    (project / "multiAgents.py").write_text((ZOO / "correct_classic.py").read_text())
    (project / "autograder.py").write_text("raise SystemExit('not a submission')\n")
    assert assignment_for(project) == "classic"
    lecture, native = load_assignment("lecture"), load_assignment("default")
    assert lecture.source == native.source and lecture.points == native.points
    assert all(t.strict is False for _, t in lecture.tests() if t.algorithm == "alphabeta")


@pytest.mark.slow
def test_correct_classic_file_gets_25_of_25(classic):
    report = grade(ZOO / "correct_classic.py", classic)
    failing = [(t.number, t.output) for q in report.questions for t in q.tests if not t.passed]
    assert failing == []
    assert report.score == 25


def test_correct_classic_search_gets_full_q2_to_q4(classic):
    report = grade(ZOO / "correct_classic.py", classic, questions={"q2", "q3", "q4"})
    assert [q.score for q in report.questions] == [5, 5, 5]


def test_minimax_moving_only_ghost_one_gets_nothing_on_q2(classic):
    report = grade(ZOO / "classic_bug_ghost_one_only.py", classic, questions={"q2"})
    q2 = _question(report, "q2")
    assert q2.score == 0
    positions = [t for t in q2.tests if "real game" in t.name]
    assert [t.passed for t in q2.tests if t not in positions] == [True] * (len(q2.tests) - 1)
    assert not positions[0].passed
    assert "distinct states" in "\n".join(positions[0].output)


def test_pruning_on_equality_fails_classic_q3_and_passes_the_lecture_assignment(classic):
    report = grade(ZOO / "classic_bug_prunes_on_equality.py", classic, questions={"q3"})
    q3 = _question(report, "q3")
    assert q3.score == 0
    assert q3.diagnosis == ["prune_on_equality"]
    lecture = grade(ZOO / "classic_bug_prunes_on_equality.py", load_assignment("lecture"),
                    questions={"q3"})
    assert _question(lecture, "q3").score == _question(lecture, "q3").max_score


def test_correct_classic_alphabeta_is_never_told_about_the_other_convention(classic):
    report = grade(ZOO / "correct_classic.py", load_assignment("lecture"), questions={"q3"})
    q3 = _question(report, "q3")
    assert q3.diagnosis == ["no_prune_on_equality"]
    text = "\n".join(line for t in q3.tests for line in t.output)
    assert BUGS["prune_on_equality"] not in text and BUGS["min_max_swapped"] not in text


def _result(number, score, max_score):
    return Result("q", number, number, score, max_score, "visible", ())


def test_all_or_nothing_zeroes_a_question_with_one_failing_test_but_keeps_the_verdicts():
    results = [_result("1", 1, 1), _result("2", 0, 1), _result("3", 2, 2)]
    _all_or_nothing(results)
    assert [r.score for r in results] == [0, 0, 0]
    assert [r.passed for r in results] == [True, False, True]
    passing = [_result("1", 1, 1), _result("2", 2, 2)]
    _all_or_nothing(passing)
    assert [r.score for r in passing] == [1, 2]


def _band_test(required):
    data = {"name": "bands", "roles": {"reflex": "ReflexAgent"}, "questions": [{"id": "q1", "tests": [{
        "type": "game", "agent": "reflex", "layout": "tiny", "games": 1, "credit": [
            {"metric": "wins", "at_least": 1000, "points": 0, "required": required},
            {"metric": "mean_score", "at_least": -10000, "points": 2}]}]}]}
    return parse_assignment(data, "bands")


@pytest.mark.parametrize("required, points", [(True, 0), (False, 2)])
def test_a_required_band_that_is_not_met_makes_the_test_score_zero(required, points):
    report = grade(ZOO / "correct_classic.py", _band_test(required))
    assert report.score == points


# --- position tests ----------------------------------------------------------------------------

def _positions(count=6, seed=3):
    """A few positions of a seeded random game on smallClassic with two ghosts."""
    import random

    rng = random.Random(seed)
    state = GameState.initial(load_layout("smallClassic"), num_ghosts=2)
    states = []
    while len(states) < count and state.outcome is None:
        if state.turn == 0:
            states.append(state)
        state = state.successor(rng.choice(state.legal_actions()))
    return states


def _classic_search(algorithm, depth, keep_stop=False, ghost_index=None):
    """A classic-style search as students write it (strict pruning, alpha carried across the
    root's children); ``ghost_index`` moves that ghost for every ghost (a real bug)."""
    def moves(state, agent):
        return [a for a in state.getLegalActions(agent) if keep_stop or a != "Stop"]

    def value(state, agent, d, n, alpha, beta):
        if state.isWin() or state.isLose() or d == 0:
            return state.getScore()
        nxt = (agent + 1) % n
        mover = agent if ghost_index is None or agent == 0 else ghost_index
        nd = d - 1 if nxt == 0 else d
        if agent == 0:
            best = float("-inf")
            for a in moves(state, mover):
                best = max(best, value(state.generateSuccessor(mover, a), nxt, nd, n, alpha, beta))
                if algorithm == "alphabeta" and best > beta:
                    return best
                alpha = max(alpha, best)
            return best
        if algorithm == "expectimax":
            values = [value(state.generateSuccessor(mover, a), nxt, nd, n, alpha, beta)
                      for a in moves(state, mover)]
            return sum(values) / len(values)
        best = float("inf")
        for a in moves(state, mover):
            best = min(best, value(state.generateSuccessor(mover, a), nxt, nd, n, alpha, beta))
            if algorithm == "alphabeta" and best < alpha:
                return best
            beta = min(beta, best)
        return best

    def act(state):
        n, alpha, scored = state.getNumAgents(), float("-inf"), []
        for a in moves(state, 0):
            v = value(state.generateSuccessor(0, a), 1, depth, n, alpha, float("inf"))
            scored.append((v, a))
            alpha = max(alpha, v)
        return max(scored, key=lambda p: p[0])[1]
    return act


class _Loopback:
    """The worker's end of the pipe answered directly by a server (the same messages)."""

    def __init__(self, server):
        self.server, self.answer = server, None

    def send_bytes(self, data):
        self.answer = json.dumps(self.server.answer(json.loads(data))).encode()

    def recv_bytes(self):
        return self.answer


def _served(search, state, facing=None, depth=2):
    """Run a classic-style search on handles of ``state`` served by a :class:`PositionServer`,
    as the worker does: the move and the server's count of distinct states explored
    (``depth``: the test's depth, for the states handed out ahead; ``None``: none are)."""
    server = PositionServer(state, facing, depth)
    channel = Channel(_Loopback(server))
    channel.layout = state.layout
    action = search(RemotePositionState(channel, json.loads(json.dumps(server.root()))))
    channel.flush()
    return action, server.finish({"action": action})["explored"]


@pytest.mark.parametrize("state", _positions(), ids=lambda s: f"turn{s.score}")
def test_a_correct_search_explores_what_the_reference_counts(state):
    action, explored = _served(_classic_search("minimax", 2), state)
    reference = reference_position(state, "minimax", 2)
    assert explored == reference.explored_without_stop
    assert action in reference.best_without_stop
    _, wrong = _served(_classic_search("minimax", 2, ghost_index=1), state)
    assert wrong != reference.explored_without_stop


def test_served_states_answer_what_the_classic_api_and_the_rules_say():
    state = _positions(3)[2]
    server = PositionServer(state, depth=1)
    channel = Channel(_Loopback(server))
    channel.layout = state.layout
    root = RemotePositionState(channel, server.root())
    assert root.getLegalActions(0) == list(state.legal_actions(0))
    assert root.getLegalActions(2) == list(state.legal_actions(2))
    assert root.getPacmanPosition() == ClassicState(state).getPacmanPosition()
    assert root.getFood().asList() == ClassicState(state).getFood().asList()
    child = root.generateSuccessor(0, root.getLegalActions(0)[0])
    assert child.getScore() == float(state.successor(root.getLegalActions(0)[0], 0).score)
    with pytest.raises(IllegalActionError):
        root.generateSuccessor(0, "Jump")
    with pytest.raises(GraderError):
        root.generateSuccessor(7, "North")
    with pytest.raises(AttributeError):
        root.recorder  # noqa: B018  (the record is the grader's, never the submission's)
    again = root.generateSuccessor(0, root.getLegalActions(0)[-1])  # handed out ahead
    assert server.finish({})["explored"] == 2  # not asked yet as far as the grader knows
    channel.flush()
    assert server.finish({})["explored"] == 2 + (again != child)
    small = PositionServer(state, max_states=10)
    tight = Channel(_Loopback(small))
    with pytest.raises(NodeBudgetExceeded):
        _classic_search("minimax", 2)(RemotePositionState(tight, small.root()))
    assert small.finish({"action": "North"})["action"] is None


_SEARCHES = [(algorithm, keep) for algorithm in ("minimax", "alphabeta", "expectimax")
             for keep in (True, False)]


@pytest.mark.parametrize("state", _positions(4, seed=8), ids=lambda s: f"score{s.score}")
def test_alphabeta_explores_no_more_than_minimax_and_finds_its_best_moves(state):
    minimax = reference_position(state, "minimax", 2)
    alphabeta = reference_position(state, "alphabeta", 2)
    assert alphabeta.explored_with_stop <= minimax.explored_with_stop
    assert alphabeta.explored_without_stop <= alphabeta.explored_with_stop
    assert alphabeta.action in minimax.best_with_stop


_REF = PositionReference(frozenset({"North", "Stop"}), frozenset({"North"}), 20, 15, "North")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["North", "South", "Stop"]),
                          st.sampled_from([15, 20, 7])), min_size=1, max_size=6))
def test_position_verdict_is_the_classic_rule(moves):
    verdict = PositionVerdict()
    for action, explored in moves:
        verdict.add(_REF, PositionObservation(action, explored))
    counts_ok = all(e in (15, 20) for _, e in moves)
    with_stop = all(a in ("North", "Stop") for a, _ in moves)
    without = all(a == "North" for a, _ in moves)
    assert verdict.passed == (counts_ok and (with_stop or without))


def test_a_failing_agent_fails_the_position_verdict():
    verdict = PositionVerdict()
    verdict.add(_REF, PositionObservation(None, 0, "ValueError: boom"))
    assert not verdict.passed
    assert "ValueError: boom" in verdict.describe()[0]


# --- the zoo's classic files: one per kind of mistake met in real files ----------------------

CLASSIC_ZOO = [
    # file, question, points expected on it, diagnosis expected (None: not checked)
    ("classic_float_scores.py", "q2", 5, None),
    # the classic autograder gives a summed expectimax full marks (its game's positions
    # do not tell a sum from a mean); the default assignment fails it (see below)
    ("classic_bug_expectimax_sums.py", "q4", 5, None),
    ("classic_bug_ghost_one_only.py", "q2", 0, None),
    ("classic_bug_prunes_on_equality.py", "q3", 0, ["prune_on_equality"]),
]


@pytest.mark.parametrize("name, qid, points, diagnosis", CLASSIC_ZOO, ids=[z[0] for z in CLASSIC_ZOO])
def test_each_classic_file_of_the_zoo_gets_the_classic_grade(classic, name, qid, points, diagnosis):
    report = grade(ZOO / name, classic, questions={qid})
    question = _question(report, qid)
    assert question.score == points
    if diagnosis is not None:
        assert question.diagnosis == diagnosis


def test_a_summed_expectimax_passes_the_classic_q4_but_fails_the_default_one():
    report = grade(ZOO / "classic_bug_expectimax_sums.py", load_assignment("default"),
                   questions={"q4"})
    question = _question(report, "q4")
    assert question.score < 5
    assert [t.score for t in question.tests if "random trees" in t.name] == [0, 0]
    assert question.diagnosis == ["ghosts_summed"]
    classic = grade(ZOO / "classic_bug_expectimax_sums.py", load_assignment("classic"),
                    questions={"q4"})
    assert _question(classic, "q4").score == 5


# Distinct states the classic course's own code counts (its GameState.getAndResetExplored) for
# depth-2 minimax, alpha-beta and expectimax, with and without Stop, at the Pacman positions of
# one game on smallClassic with two ghosts, whose moves are MOVES (measured once with the
# classic project; these are its numbers, not ours).
MOVES = ["Stop", "East", "West", "Stop", "South", "West", "East", "South", "South", "East", "West", "East",
         "East", "West", "North", "Stop", "West", "East", "Stop", "North", "West", "West", "North", "West",
         "East", "West", "South", "Stop", "West", "South", "East", "South", "East"]
CLASSIC_COUNTS = [
    [59, 35, 39, 27, 59, 35], [218, 127, 125, 95, 218, 127], [190, 111, 117, 87, 190, 111],
    [154, 103, 69, 51, 154, 103], [61, 41, 40, 28, 61, 41], [97, 69, 56, 44, 97, 69],
    [93, 66, 55, 43, 93, 66], [176, 125, 91, 73, 176, 125], [85, 57, 44, 32, 85, 57],
    [218, 155, 103, 85, 218, 155], [155, 110, 85, 67, 155, 110]]


def test_the_reference_counts_states_as_the_classic_course_does():
    state = GameState.initial(load_layout("smallClassic"), num_ghosts=2)
    facing = "Stop"
    for position, expected in enumerate(CLASSIC_COUNTS):
        counts = []
        for algorithm in ("minimax", "alphabeta", "expectimax"):
            reference = reference_position(state, algorithm, 2, facing)
            counts += [reference.explored_with_stop, reference.explored_without_stop]
        assert counts == expected, f"position {position}"
        for agent in range(3):
            state = state.successor(MOVES[3 * position + agent], agent)
        facing = facing if MOVES[3 * position] == "Stop" else MOVES[3 * position]


def test_a_served_classic_search_counts_exactly_what_the_classic_course_counts():
    """Searches written as classic students write them, run on handles the grader serves,
    explore exactly the states the classic course's own code counts at every position."""
    state = GameState.initial(load_layout("smallClassic"), num_ghosts=2)
    facing = "Stop"
    for position, expected in enumerate(CLASSIC_COUNTS):
        for ahead in (2, None):  # with the states handed out ahead, and without
            counts = [_served(_classic_search(algorithm, 2, keep), state, facing, ahead)[1]
                      for algorithm, keep in _SEARCHES]
            assert counts == expected, f"position {position}"
        for agent in range(3):
            state = state.successor(MOVES[3 * position + agent], agent)
        facing = facing if MOVES[3 * position] == "Stop" else MOVES[3 * position]


def test_classic_state_data_is_readable_as_some_real_files_read_it():
    from pacman.compat.state import GameState as ClassicState

    layout = load_layout("smallClassic")
    state = ClassicState(GameState.initial(layout, num_ghosts=2))
    data = state.data
    assert (data.layout.width, data.layout.height) == (layout.width, layout.height)
    assert data.layout.totalFood == state.getNumFood() == data.food.count()
    assert data.layout.numGhosts() == len(layout.ghost_starts)
    assert data.score == state.getScore() and not data._win and not data._lose


# A reflex agent reading the classic state's fields through ``__dict__``, as a real file does.
READS_DUNDER_DICT = '''
from game import Agent


class ReflexAgent(Agent):
    def getAction(self, gameState):
        data = gameState.__dict__["data"].__dict__
        pacman = data["agentStates"][0].__dict__["configuration"].__dict__["pos"]
        ghosts = [ghost.__dict__["configuration"].__dict__["pos"] for ghost in data["agentStates"][1:]]
        assert pacman == gameState.getPacmanPosition(), (pacman, gameState.getPacmanPosition())
        assert ghosts == gameState.getGhostPositions() and data["capsules"] == gameState.getCapsules()
        return gameState.getLegalActions(0)[0]
'''


def test_classic_state_fields_are_readable_through_dunder_dict():
    from pacman.compat.state import GameState as ClassicState

    state = ClassicState(GameState.initial(load_layout("smallClassic"), num_ghosts=2))
    data = state.__dict__["data"].__dict__
    assert data["agentStates"][0].__dict__["configuration"].__dict__["pos"] == state.getPacmanPosition()
    assert data["capsules"] == state.getCapsules() and list(vars(state)) == ["data"]
    state.__dict__["data"] = None  # a copy: the state is unchanged
    assert state.data.score == state.getScore()


def test_a_classic_game_agent_may_read_the_state_through_dunder_dict(tmp_path):
    (tmp_path / "games.toml").write_text('''
name = "games"
[roles]
reflex = ["ReflexAgent"]
[[questions]]
id = "q1"
title = "Reflex agent"
[[questions.tests]]
type = "game"
name = "reads __dict__"
agent = "reflex"
layout = "smallClassic"
ghosts = "random"
ghost_count = 2
games = 1
seed = 0
max_moves = 6
move_seconds = 30
test_seconds = 60
credit = [{ metric = "failures", at_most = 0, points = 1 }]
''')
    submission = tmp_path / "multiAgents.py"
    submission.write_text(READS_DUNDER_DICT)
    result = grade(submission, load_assignment(tmp_path / "games.toml")).questions[0].tests[0]
    assert result.metrics["failures"] == 0 and result.score == 1, result.output
