"""The fast replay of stored games (``rules.replay``, ``game.replay_end``) against the general
paths it stands for: the rules' move function applied move by move, and the game loop."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.engine import rules
from pacman.errors import PacmanError
from pacman.engine.game import AgentSpec, GameResult, _replay_end_move_by_move, replay_end, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.outcome import Outcome
from pacman.engine.recording import is_text_list
from pacman.engine.state import RULES_VARIANTS, GameState

from .helpers import PROPERTY, RandomAgent
from .mazes import get_layout, maze_names

ACTIONS = ("North", "South", "East", "West", "Stop")


def outcome_of(call):
    """What ``call()`` gives: ``("state", value)`` or ``("error", type, message)``."""
    try:
        return ("state", call())
    except PacmanError as error:
        return ("error", type(error), str(error))


@st.composite
def action_lists(draw):
    """A start state and actions: random legal play (to its end or not), then perhaps one
    action replaced by any action name and a few more actions after it."""
    layout = get_layout(draw(st.sampled_from(maze_names())))
    kind = RULES_VARIANTS[draw(st.sampled_from(sorted(RULES_VARIANTS)))]
    start = kind.initial(layout, draw(st.integers(0, layout.num_ghosts)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    state, actions = start, []
    for _ in range(draw(st.integers(0, 400))):
        if state.outcome is not None:
            break
        actions.append(rng.choice(state.legal_actions()))
        state = state.successor(actions[-1])
    if actions and draw(st.booleans()):
        actions[draw(st.integers(0, len(actions) - 1))] = draw(st.sampled_from(ACTIONS))
    actions += draw(st.lists(st.sampled_from(ACTIONS), max_size=3))
    return start, actions


@PROPERTY
@given(action_lists())
def test_the_rules_replay_is_the_move_function_applied_move_by_move(case):
    start, actions = case
    fast = outcome_of(lambda: rules.replay(start, actions))
    general = outcome_of(lambda: functools.reduce(rules.successor, actions, start))
    assert fast == general
    if fast[0] == "state":
        assert type(fast[1]) is type(general[1])


def test_the_rules_replay_plays_capsules_meetings_and_the_last_dot():
    """A game that eats a capsule, eats a scared ghost, meets a ghost and ends: every kind of
    move the fast path hands to the move function, and the win it plays itself."""
    layout = get_layout("inline:crowded")
    seen = set()
    for seed in range(200):
        rng = random.Random(seed)
        state, actions = GameState.initial(layout), []
        while state.outcome is None:
            actions.append(rng.choice(state.legal_actions()))
            before, state = state, state.successor(actions[-1])
            if state.capsules != before.capsules:
                seen.add("capsule")
            if state.score - before.score in (199, 209, 200):  # (with a dot, by the ghost)
                seen.add("ghost eaten")
        seen.add(state.outcome)
        assert rules.replay(GameState.initial(layout), actions) == state
    assert {"capsule", "ghost eaten", Outcome.WIN, Outcome.LOSS} <= seen


@st.composite
def played_games(draw):
    """A game played by the game loop with random agents: any maze, ghosts, rules, move cap."""
    layout = get_layout(draw(st.sampled_from(maze_names())))
    ghosts = draw(st.integers(0, layout.num_ghosts))
    specs = [AgentSpec(name="random", factory=RandomAgent) for _ in range(ghosts + 1)]
    return run_game(layout, specs, draw(st.integers(0, 2**32 - 1)),
                    max_moves=draw(st.sampled_from([None, 1, 7, 60, 300])),
                    rules=draw(st.sampled_from(sorted(RULES_VARIANTS))))


@PROPERTY
@given(played_games())
def test_the_fast_replay_of_a_played_game_ends_where_the_game_loop_ended(result):
    *_, last = replay_states(result)
    end = replay_end(result)
    assert end == last and type(end) is type(last)
    assert (end.score, end.outcome) == (result.score, result.outcome if result.outcome in (
        Outcome.WIN, Outcome.LOSS) else None)


def edits(result: GameResult, draw) -> GameResult:
    """``result`` with one thing changed, as a hand edit would."""
    what = draw(st.sampled_from(["score", "moves", "outcome", "cut", "extend", "swap", "cap"]))
    actions = list(result.actions)
    if what == "score":
        return dataclasses.replace(result, score=result.score + draw(st.sampled_from([-1, 1])))
    if what == "moves":
        return dataclasses.replace(result, moves=result.moves + draw(st.sampled_from([-1, 1])))
    if what == "outcome":
        return dataclasses.replace(result, outcome=draw(st.sampled_from(
            [Outcome.WIN, Outcome.LOSS, Outcome.MOVE_LIMIT])))
    if what == "cut":
        return dataclasses.replace(result, actions=actions[:draw(st.integers(0, len(actions)))])
    if what == "extend":
        return dataclasses.replace(result, actions=actions + draw(
            st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=3)))
    if what == "swap" and actions:
        actions[draw(st.integers(0, len(actions) - 1))] = draw(st.sampled_from(ACTIONS))
        return dataclasses.replace(result, actions=actions)
    return dataclasses.replace(result, max_moves=draw(st.integers(1, max(1, result.moves))))


@PROPERTY
@given(played_games(), st.data())
def test_an_edited_game_is_refused_by_the_fast_replay_as_move_by_move(result, data):
    edited = edits(result, data.draw)
    fast = outcome_of(lambda: replay_end(edited))
    assert fast == outcome_of(lambda: _replay_end_move_by_move(edited))
    if fast[0] == "state":
        *_, last = replay_states(edited)
        assert fast[1] == last


@pytest.mark.parametrize("rules_name", sorted(RULES_VARIANTS))
def test_a_move_after_the_cap_is_refused_naming_it(rules_name):
    layout = get_layout("shipped:small_classic")
    specs = [AgentSpec(name="random", factory=RandomAgent) for _ in range(3)]
    result = run_game(layout, specs, 1, max_moves=5, rules=rules_name)
    assert result.outcome == Outcome.MOVE_LIMIT
    longer = dataclasses.replace(result, actions=[*result.actions, "Stop"])
    with pytest.raises(PacmanError, match="move 16 of the recording comes after the game's "
                                          r"move cap \(5 Pacman moves\)"):
        replay_end(longer)


@pytest.mark.parametrize("value, text", [
    ([], True), (["North", "Stop"], True), (["North", 3], False), ([None], False),
    ([["North"]], False), ("North", False), (("North",), False), (None, False)])
def test_a_list_of_action_names_is_a_list_of_text_only(value, text):
    assert is_text_list(value) is text
