"""The declared display protocol: BaseDisplay's hooks and the human input handed to agents."""

import pytest

from pacman.agents.basic import RandomPacman
from pacman.agents.keyboard import KeyboardPacman
from pacman.display import NullDisplay, TextDisplay
from pacman.display.base import BaseDisplay
from pacman.display.controls import with_human_input
from pacman.errors import ConfigurationError
from pacman.engine.game import AgentSpec, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.engine.state import GameState


class Keys:
    """A human input that always goes West (or stops)."""

    def __init__(self):
        self.joined = 0

    def human_joined(self):
        self.joined += 1

    def human_action(self, state):
        return "West" if "West" in state.legal_actions() else "Stop"


class Recorder(BaseDisplay):
    def __init__(self):
        self.calls = []

    def start(self, state, agents):
        self.calls.append(("start", state))

    def update(self, state, move):
        self.calls.append(("update", state, move.agent, move.action))

    def finish(self, state, result):
        self.calls.append(("finish", state))


def test_the_displays_declare_every_hook_with_a_harmless_default():
    for display in (NullDisplay(), TextDisplay(), BaseDisplay()):
        assert display.request is None and display.announce is None
        assert display.human_input() is None
        display.close()


def test_the_default_replay_shows_every_recorded_position_in_order():
    layout = load_layout("small_classic")
    result = run_game(layout, [AgentSpec("random", RandomPacman)], seed=3, max_moves=5)
    states = list(replay_states(result))
    assert len(states) == len(result.actions) + 1 > 2
    display = Recorder()
    assert display.show_replay(result, states) is None
    kinds = [c[0] for c in display.calls]
    assert kinds == ["start"] + ["update"] * len(result.actions) + ["finish"]
    assert [c[1] for c in display.calls[:-1]] == states and display.calls[-1][1] == states[-1]
    moves = [(c[2], c[3]) for c in display.calls if c[0] == "update"]
    assert moves == [(i % 1, a) for i, a in enumerate(result.actions)]


def test_human_input_goes_to_human_players_only():
    keys = Keys()
    specs = [AgentSpec("keyboard", KeyboardPacman), AgentSpec("random", RandomPacman)]
    given = with_human_input(specs, keys)
    assert given[0].options == {"human_input": keys} and given[1] is specs[1]
    assert specs[0].options == {}  # the caller's specs are left alone
    agent = given[0].build(0, None)
    assert keys.joined == 1
    start = GameState.initial(load_layout("small_classic"), num_ghosts=0)
    assert agent.get_action(start) == ("West" if "West" in start.legal_actions() else "Stop")


def test_a_keyboard_player_without_input_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="window"):
        with_human_input([AgentSpec("keyboard", KeyboardPacman)], None)[0].build(0, None)
