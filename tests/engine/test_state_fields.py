"""The state's fields by name: a property and an index constant for each, in tuple order."""

from __future__ import annotations

import random

import pytest

from pacman.engine import state as state_module
from pacman.engine.game import random_play
from pacman.engine.layout import load_layout
from pacman.engine.state import FIELDS, ClassicSpeedState, GameState


def _states() -> list[GameState]:
    start = GameState.initial(load_layout("small_classic"))
    play = random_play(start, random.Random(7))
    return [s for i, s in zip(range(200), play) if i % 20 == 0]


def test_every_field_has_a_name_and_every_name_a_field():
    """A field added to the tuple without a name (or a name left after its field went) fails."""
    for state in (GameState.initial(load_layout("small_classic")),
                  ClassicSpeedState.initial(load_layout("tiny"))):
        assert len(type(state).fields) == len(state)
        assert len(set(type(state).fields)) == len(state)
        assert type(state).fields[:len(FIELDS)] == FIELDS
        for index, name in enumerate(type(state).fields):
            assert getattr(state_module, name.upper()) == index
            assert getattr(state, name) is state[index]
    assert len(set(FIELDS)) == len(FIELDS)


@pytest.mark.parametrize("index, name", list(enumerate(FIELDS)))
def test_the_property_and_the_constant_of_a_field_read_the_same_item(index, name):
    assert getattr(state_module, name.upper()) == index
    assert name.upper() in state_module.__all__
    for state in _states():
        assert getattr(state, name) is state[index] is state[getattr(state_module, name.upper())]


def test_the_named_fields_hold_what_the_docstring_says():
    layout = load_layout("small_classic")
    state = GameState.initial(layout, num_ghosts=2)
    assert state.layout is layout
    assert state.positions == (layout.pacman_start, *layout.ghost_starts[:2])
    assert state.directions == ("Stop",) * 3 and state.scared_timers == (0, 0)
    assert (state.food, state.capsules) == (layout.food, layout.capsules)
    assert (state.score, state.turn, state.outcome) == (0, 0, None)
    assert state.key == tuple(state)[1:]


@pytest.mark.parametrize("state_class", [GameState, ClassicSpeedState])
def test_replace_sets_the_named_fields_and_keeps_the_rest_and_the_class(state_class):
    state = state_class.initial(load_layout("small_classic"))
    cell = state.layout.open_cells[3]
    moved = state.replace(positions=(cell, *state.ghost_cells), score=-7)
    assert type(moved) is state_class
    assert (moved.pacman_cell, moved.ghost_cells, moved.score) == (cell, state.ghost_cells, -7)
    for name in set(FIELDS) - {"positions", "score"}:
        assert getattr(moved, name) is getattr(state, name)
    assert state.replace() == state and state.pacman_cell == state.layout.pacman_start


def test_replace_refuses_a_name_that_is_not_a_field():
    state = GameState.initial(load_layout("small_classic"))
    with pytest.raises(TypeError, match="not a field of a state: pacman.*the fields are layout"):
        state.replace(pacman=3)
