"""The one outcome type: its members are the strings recordings, stores and tables hold."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.batch.validate import check_result
from pacman.errors import RecordError
from pacman.engine.game import AgentSpec, GameResult, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import parse_layout
from pacman.engine.outcome import FAILURES, OUTCOMES, Outcome, parse_outcome
from pacman.engine.recording import check_result_data
from pacman.engine.state import LOSS, WIN, GameState

from .helpers import RandomAgent

#: The strings every recording made so far holds; they must never change.
STORED = {"win", "loss", "move_limit", "crash", "illegal", "timeout", "interrupted"}

MAZE = parse_layout("%%%%%%%%\n"
                    "%P...G.%\n"
                    "%.%%%%.%\n"
                    "%......%\n"
                    "%%%%%%%%\n", name="ring")


def _game(seed: int, max_moves: int = 30) -> GameResult:
    specs = [AgentSpec(name="random", factory=RandomAgent) for _ in range(2)]
    return run_game(MAZE, specs, seed=seed, max_moves=max_moves)


def test_members_are_the_stored_strings():
    assert {str(o) for o in Outcome} == STORED == set(OUTCOMES)
    for outcome in Outcome:
        assert outcome == outcome.value and hash(outcome) == hash(outcome.value)
        assert json.dumps(outcome) == json.dumps(outcome.value)
        assert f"{outcome}" == outcome.value
        assert pickle.loads(pickle.dumps(outcome)) is outcome


def test_the_states_outcomes_are_members():
    assert WIN is Outcome.WIN and LOSS is Outcome.LOSS
    assert GameState.initial(parse_layout("%%%\n%P%\n%%%\n", name="empty")).outcome is Outcome.WIN


def test_failures_are_the_outcomes_that_name_an_agent():
    assert {o for o in Outcome if o.is_failure} == set(FAILURES) == {
        Outcome.CRASH, Outcome.ILLEGAL, Outcome.TIMEOUT}


@given(st.one_of(st.text(max_size=12), st.integers(), st.none(), st.lists(st.text(), max_size=2)))
def test_parse_outcome_names_a_member_exactly_when_the_text_is_one(value):
    parsed = parse_outcome(value)
    if isinstance(value, str) and value in STORED:
        assert parsed is Outcome(value)
    else:
        assert parsed is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_result_read_back_holds_members_and_the_same_text(seed):
    result = _game(seed)
    assert isinstance(result.outcome, Outcome)
    text = result.to_json()
    again = GameResult.from_json(text)
    assert type(again.outcome) is Outcome and again.outcome == result.outcome
    assert again.to_json() == text
    check_result(json.loads(text))  # the results store accepts it as it is
    states = list(replay_states(again))
    assert states[-1].outcome in (None, Outcome.WIN, Outcome.LOSS)


def test_a_failure_kind_read_back_is_a_member():
    class Crasher:
        def get_action(self, state):
            raise RuntimeError("boom")

    result = run_game(MAZE, [Crasher(), RandomAgent(index=1, rng=random.Random(0))], seed=0)
    assert result.outcome is Outcome.CRASH
    again = GameResult.from_json(result.to_json())
    assert again.failure is not None and again.failure.kind is Outcome.CRASH


@pytest.mark.parametrize("bad", ["WIN", "Win", "banana", "", 1, None])
def test_a_recording_with_an_unknown_outcome_is_refused(bad):
    data = json.loads(_game(1).to_json())
    data["outcome"] = bad
    with pytest.raises(RecordError, match="outcome"):
        check_result_data(data)
    with pytest.raises(ValueError):
        check_result(data)


def test_a_recording_whose_failure_names_an_unknown_kind_is_refused():
    class Crasher:
        def get_action(self, state):
            raise RuntimeError("boom")

    data = json.loads(run_game(MAZE, [Crasher(), RandomAgent(index=1, rng=random.Random(0))], seed=0).to_json())
    data["failure"]["kind"] = "explosion"
    with pytest.raises(RecordError, match="failure"):
        check_result_data(data)


def test_a_recording_claiming_another_outcome_does_not_replay():
    result = _game(4, max_moves=200)
    for claimed in sorted(STORED - {"interrupted", result.outcome}):
        data = json.loads(result.to_json())
        data["outcome"] = claimed
        tampered = GameResult.from_dict(data)
        with pytest.raises(RecordError):
            list(replay_states(tampered))
