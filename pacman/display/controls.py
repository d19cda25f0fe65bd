"""What a user can ask of an interactive display, and the channel to a human player.

No pygame here: the play command and the keyboard agent import this module whatever display is
used.

Requests
    After a game, an interactive display's ``request`` attribute says what the user asked for
    besides watching: :data:`RESTART` (play the same game again with the same seed) or
    :data:`QUIT` (stop, play no further games); ``None`` otherwise. A display ends a running game
    for either by raising :class:`pacman.game.GameInterrupted`.

Human input
    A display that can read a player's keys returns a :class:`HumanInput` from its
    ``human_input()`` (see :class:`pacman.display.base.BaseDisplay`); the caller that made the
    display hands it to the human players' agents (:func:`with_human_input`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from pacman.game import AgentSpec
from pacman.state import GameState

RESTART = "restart"
QUIT = "quit"


class HumanInput(Protocol):
    """A source of a human player's moves."""

    def human_joined(self) -> None:
        """A human player was built for the coming game: read the player's keys from now
        until the game ends."""
        ...

    def human_action(self, state: GameState) -> str:
        """The action the player wants in ``state`` (one of its legal actions).

        May wait for the player; raises :class:`pacman.game.GameInterrupted` if the player
        quits or restarts meanwhile.
        """
        ...


class HumanPlayer:
    """Marks an agent class whose moves come from a person: its constructor takes
    ``human_input``, the :class:`HumanInput` to read them from (given by the caller that made
    the display; see :func:`with_human_input`)."""


def with_human_input(specs: Sequence[AgentSpec], source: HumanInput | None) -> list[AgentSpec]:
    """``specs``, with ``source`` given as ``human_input`` to each human player's agent."""
    return [replace(spec, options={**spec.options, "human_input": source})
            if isinstance(spec.factory, type) and issubclass(spec.factory, HumanPlayer) else spec
            for spec in specs]
