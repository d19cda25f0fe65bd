"""Game tests under a rules variant: the ``rules`` key, the classic assignment's use of it, and
the submission's process seeing states of the same variant as the grader's game loop."""

from __future__ import annotations

import pytest

from pacman.errors import ConfigurationError
from pacman.grading.assignment import load_assignment, parse_assignment
from pacman.grading.grader import grade

# A native-API Pacman that plays a legal move only on states of the classic scared speed; on any
# other state it answers an illegal move, which the game records as a failure.
VARIANT_PROBE = '''
class ProbeAgent:
    def __init__(self, index=0, rng=None, **options):
        self.index = index

    def get_action(self, state):
        if type(state).half_speed_scared and state.successor(state.legal_actions()[0]).__class__ \\
                is type(state):
            return state.legal_actions()[0]
        return "Nowhere"
'''


def _game_assignment(**test) -> dict:
    base = {"type": "game", "agent": "probe", "layout": "testClassic", "ghosts": "random",
            "games": 2, "max_moves": 30,
            "credit": [{"metric": "failures", "at_most": 0, "points": 1}]}
    base.update(test)
    return {"roles": {"probe": ["ProbeAgent"]}, "questions": [{"id": "q", "tests": [base]}]}


def test_the_classic_assignment_plays_q1_and_q5_under_the_classic_scared_speed():
    classic = load_assignment("classic")
    rules = {q.id: {t.rules for t in q.tests if t.kind == "game"} for q in classic.questions}
    assert rules["q1"] == {"classic"} and rules["q5"] == {"classic"}
    assert all(not r for q, r in rules.items() if q not in ("q1", "q5"))  # no other game tests


def test_game_tests_default_to_the_default_rules_and_refuse_unknown_ones():
    test = parse_assignment(_game_assignment(), "a.toml").questions[0].tests[0]
    assert test.rules == "default"
    with pytest.raises(ConfigurationError, match="'rules' must be one of default, classic"):
        parse_assignment(_game_assignment(rules="fast"), "a.toml")


@pytest.mark.parametrize("rules, points", [("classic", 1.0), ("default", 0.0)])
def test_the_submission_sees_states_of_the_games_rules(tmp_path, rules, points):
    path = tmp_path / "probe.py"
    path.write_text(VARIANT_PROBE)
    assignment = parse_assignment(_game_assignment(rules=rules), "a.toml")
    report = grade(path, assignment)
    result = report.questions[0].tests[0]
    assert result.score == points, result.output
