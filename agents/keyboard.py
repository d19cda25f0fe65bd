"""A human Pacman: the player steers with the arrow keys or WASD in the game window."""

from __future__ import annotations

import random

from pacman.agents.base import BaseAgent
from pacman.errors import ConfigurationError
from pacman.engine.human import HumanInput, HumanPlayer
from pacman.engine.state import GameState


class KeyboardPacman(BaseAgent, HumanPlayer):
    """A human at the keyboard (arrows or WASD), read from ``human_input``: the display that
    shows the game (the window's :meth:`~pacman.display.base.BaseDisplay.human_input`; the play
    command passes it, see :func:`pacman.display.controls.with_human_input`).

    Pacman keeps going the way he was sent while he can, and takes the last direction pressed
    as soon as it is open (so a turn can be pressed before the corner). The window waits for
    the first key of each game.
    """

    def __init__(self, index: int = 0, rng: random.Random | None = None,
                 human_input: HumanInput | None = None) -> None:
        super().__init__(index, rng)
        if index != 0:
            raise ConfigurationError("the keyboard agent plays Pacman only")
        if human_input is None:
            raise ConfigurationError("the keyboard agent needs the game window: use "
                                     "--display window (or auto) where a screen exists")
        human_input.human_joined()
        self.source = human_input

    def get_action(self, state: GameState) -> str:
        return self.source.human_action(state)
