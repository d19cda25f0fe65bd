"""The focus on near ghosts (:mod:`pacman.agents.ghost_focus`): which ghost moves stay in the tree,
that both searches apply it alike, that a radius wider than the maze changes nothing, and that
it prunes where it is meant to (far ghosts of a four-ghost maze). The horizon focus: the same
values as the full search wherever only captures and Pacman's own moves count (the ``score``
evaluation), fewer nodes, and the option's contract."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.ghost_focus import HORIZON, focused_actions, horizon_radius
from pacman.agents.ghosts import DirectionalGhost
from pacman.agents.pacman_game import PacmanGame
from pacman.agents.search import iterative_deepening
from pacman.agents.search_agents import IterativeDeepeningAgent
from pacman.errors import ConfigurationError
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.layout import parse_layout
from pacman.engine.rules import legal_actions
from pacman.engine.state import GameState
from tests.search.test_pacman_fast_path import GenericPacmanGame, search_with, turns

# The ghost stands at a junction 10 steps from Pacman: West leads to him, East and South into
# dead ends.
MAZE = """
%%%%%%%%%%%%%%
%P .       G %
%%%%%%%%%%% %%
%%%%%%%%%%% %%
%%%%%%%%%%%%%%
"""


def ghost_turn(text: str, scared: int = 0, direction: str = "Stop") -> GameState:
    """The ghost to move on the maze ``text``, scared for ``scared`` moves, last moved
    ``direction``."""
    state = GameState.initial(parse_layout(text.strip("\n")))
    return GameState((state[0], state[1], ("Stop", direction), (scared,), *state[4:7], 1, None))


def test_a_ghost_within_the_radius_keeps_all_its_moves() -> None:
    state = ghost_turn(MAZE)
    actions = legal_actions(state, 1)
    assert set(actions) == {"West", "East", "South"}
    assert focused_actions(state, 1, actions, 10) == actions


def test_a_far_ghost_has_one_move_the_chasers() -> None:
    state = ghost_turn(MAZE)
    (move,) = focused_actions(state, 1, legal_actions(state, 1), 9)
    assert move == "West"  # along the corridor towards Pacman, not down the dead end
    chase = DirectionalGhost(1).distribution(state)
    assert chase[move] == max(chase.values())


def test_a_far_scared_ghost_flees() -> None:
    state = ghost_turn(MAZE, scared=10)
    (move,) = focused_actions(state, 1, legal_actions(state, 1), 9)
    # East and South both lead one step farther away: the first of them in move order
    assert move == next(a for a in legal_actions(state, 1) if a != "West")


def test_a_ghost_with_one_move_keeps_it() -> None:
    state = ghost_turn(MAZE.replace("G %", " G%"), direction="East")  # in the dead end
    actions = legal_actions(state, 1)
    assert len(actions) == 1
    assert focused_actions(state, 1, actions, 0) == actions


def test_negative_focus_is_refused() -> None:
    with pytest.raises(ValueError):
        PacmanGame(EVALUATIONS["better"], focus=-1)
    with pytest.raises(ConfigurationError):
        IterativeDeepeningAgent(0, random.Random(0), focus=-2)


CONFIGS = [dict(name="alphabeta", depth=2), dict(name="alphabeta", depth=2, table=True),
           dict(name="minimax", depth=1)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), focus=st.integers(1, 8), config=st.sampled_from(CONFIGS),
       layout=st.sampled_from(["originalClassic", "smallClassic"]))
def test_both_searches_focus_alike(seed: int, focus: int, config: dict, layout: str) -> None:
    evaluation = EVALUATIONS["better"]
    fast = PacmanGame(evaluation, focus=focus)
    generic = GenericPacmanGame(evaluation, focus=focus)
    for state in turns(layout, seed, 2):
        a, b = search_with(fast, state, config), search_with(generic, state, config)
        assert (a.value, a.action, a.principal_variation) == \
               (b.value, b.action, b.principal_variation)
        assert a.stats.generated == b.stats.generated


@pytest.mark.parametrize("layout", ["smallClassic", "trickyClassic"])
def test_a_radius_wider_than_the_maze_changes_nothing(layout: str) -> None:
    evaluation = EVALUATIONS["better"]
    wide = load_layout(layout).diameter
    for state in turns(layout, 3, 3):
        a = search_with(PacmanGame(evaluation, focus=wide), state, dict(name="alphabeta", depth=2))
        b = search_with(PacmanGame(evaluation), state, dict(name="alphabeta", depth=2))
        assert (a.value, a.action, a.principal_variation, a.stats.generated) == \
               (b.value, b.action, b.principal_variation, b.stats.generated)


def test_focus_prunes_the_far_ghosts_of_a_four_ghost_maze() -> None:
    evaluation = EVALUATIONS["better"]
    focused = plain = 0
    for state in turns("originalClassic", 5, 4):
        focused += search_with(PacmanGame(evaluation, focus=4), state,
                               dict(name="alphabeta", depth=3)).stats.nodes_generated
        plain += search_with(PacmanGame(evaluation), state,
                             dict(name="alphabeta", depth=3)).stats.nodes_generated
    assert focused < 0.75 * plain


def test_the_option_reaches_the_search_from_text() -> None:
    layout = load_layout("smallClassic")
    spec = lineup(layout, "deepening", "directional", pacman_options={"focus": "6"})[0]
    agent = spec.build(0, random.Random(0))
    assert agent.focus == 6 and agent.game.focus == 6


def test_the_horizon_radius_is_what_a_ghost_can_close_in_the_rounds_left() -> None:
    # its own move this round, then one step each for Pacman and the ghost per round after
    assert [horizon_radius(r) for r in (1, 2, 3, 8)] == [1, 3, 5, 15]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), depth=st.integers(1, 3), trace=st.booleans(),
       layout=st.sampled_from(["originalClassic", "smallClassic", "mediumClassic"]))
def test_the_horizon_focus_misses_no_capture(seed: int, depth: int, trace: bool,
                                             layout: str) -> None:
    """With the score as evaluation a far ghost's moves matter only through a capture (or
    Pacman eating it), which the horizon rules out: every root value is the full search's."""
    score = EVALUATIONS["score"]
    for state in turns(layout, seed, 2):
        options = dict(name="minimax", depth=depth)
        focused = search_with(PacmanGame(score, focus=HORIZON), state, options, trace=trace)
        full = search_with(PacmanGame(score), state, options, trace=trace)
        assert focused.root_values == full.root_values
        assert focused.action == full.action
        assert focused.stats.nodes_generated <= full.stats.nodes_generated


def test_the_horizon_focus_prunes_the_deep_rounds_of_a_four_ghost_maze() -> None:
    score = EVALUATIONS["score"]
    focused = plain = 0
    for state in turns("originalClassic", 5, 4):
        options = dict(name="alphabeta", depth=3)
        a = search_with(PacmanGame(score, focus=HORIZON), state, options, trace=False)
        b = search_with(PacmanGame(score), state, options, trace=False)
        assert (a.value, a.action) == (b.value, b.action)
        focused += a.stats.nodes_generated
        plain += b.stats.nodes_generated
    assert focused < 0.75 * plain  # 0.63 measured


def test_the_horizon_focus_keeps_the_deepening_search_exact_on_captures() -> None:
    """Iterative deepening with its table and previous-iteration moves: the table's key holds
    the rounds left, so the radius of a stored node is the radius it is probed with."""
    score = EVALUATIONS["score"]
    for state in turns("originalClassic", 11, 3):
        a = iterative_deepening(PacmanGame(score, focus=HORIZON), state, max_depth=3,
                                reorder="all")
        b = iterative_deepening(PacmanGame(score), state, max_depth=3, reorder="all")
        assert (a.value, a.action) == (b.value, b.action)


def test_the_horizon_focus_is_refused_where_it_cannot_apply() -> None:
    better = EVALUATIONS["better"]
    with pytest.raises(ValueError, match="horizon"):
        PacmanGame(better, "uniform", focus=HORIZON)  # chance nodes read the depth-free actions
    with pytest.raises(ValueError, match="horizon"):
        GenericPacmanGame(better, focus=HORIZON)  # the generic core passes no depth
    with pytest.raises(ValueError):
        PacmanGame(better, focus="near")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        IterativeDeepeningAgent(0, random.Random(0), focus="far")  # type: ignore[arg-type]


def test_horizon_arrives_from_text_and_a_bad_word_is_named() -> None:
    layout = load_layout("smallClassic")
    spec = lineup(layout, "deepening", "directional", pacman_options={"focus": "horizon"})[0]
    agent = spec.build(0, random.Random(0))
    assert agent.focus == HORIZON and agent.game.focus == HORIZON
    with pytest.raises(ConfigurationError, match="horizon"):
        lineup(layout, "deepening", "directional", pacman_options={"focus": "near"})
