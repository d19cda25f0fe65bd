"""What a user can ask of an interactive display, and the channel to a human player.

No pygame here: the play command imports this module whatever display is used. The protocol
between a display and a human player's agent is in :mod:`pacman.engine.human`, which agents import.

Requests
    After a game, an interactive display's ``request`` attribute says what the user asked for
    besides watching: :data:`RESTART` (play the same game again with the same seed) or
    :data:`QUIT` (stop, play no further games); ``None`` otherwise. A display ends a running game
    for either by raising :class:`pacman.engine.game.GameInterrupted`.

Human input
    A display that can read a player's keys returns a :class:`HumanInput` from its
    ``human_input()`` (see :class:`pacman.display.base.BaseDisplay`); the caller that made the
    display hands it to the human players' agents (:func:`with_human_input`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pacman.engine.game import AgentSpec
from pacman.engine.human import HumanInput as HumanInput  # re-exported: displays return one
from pacman.engine.human import HumanPlayer

RESTART = "restart"
QUIT = "quit"


def with_human_input(specs: Sequence[AgentSpec], source: HumanInput | None) -> list[AgentSpec]:
    """``specs``, with ``source`` given as ``human_input`` to each human player's agent."""
    return [replace(spec, options={**spec.options, "human_input": source})
            if isinstance(spec.factory, type) and issubclass(spec.factory, HumanPlayer) else spec
            for spec in specs]
