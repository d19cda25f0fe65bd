"""A human player's moves: what a display that reads keys offers (:class:`HumanInput`) and the
mark of an agent class that takes it (:class:`HumanPlayer`).

Part of the engine core, so that agents (:mod:`pacman.agents.keyboard`) import no display: the display
hands its :class:`HumanInput` to the agent through the play command
(:func:`pacman.display.controls.with_human_input`).
"""

from __future__ import annotations

from typing import Protocol

from pacman.engine.state import GameState


class HumanInput(Protocol):
    """A source of a human player's moves."""

    def human_joined(self) -> None:
        """A human player was built for the coming game: read the player's keys from now
        until the game ends."""
        ...

    def human_action(self, state: GameState) -> str:
        """The action the player wants in ``state`` (one of its legal actions).

        May wait for the player; raises :class:`pacman.engine.game.GameInterrupted` if the player
        quits or restarts meanwhile.
        """
        ...


class HumanPlayer:
    """Marks an agent class whose moves come from a person: its constructor takes
    ``human_input``, the :class:`HumanInput` to read them from (given by the caller that made
    the display; see :func:`with_human_input`)."""
