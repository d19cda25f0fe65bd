"""What a user can ask of an interactive display, and the channel to a human player.

No pygame here: the play command and the keyboard agent import this module whatever display is
used.

Requests
    After a game, an interactive display's ``request`` attribute says what the user asked for
    besides watching: :data:`RESTART` (play the same game again with the same seed) or
    :data:`QUIT` (stop, play no further games); ``None`` otherwise. A display ends a running game
    for either by raising :class:`pacman.game.GameInterrupted`.

Human input
    A display that can read a player's keys registers itself with :func:`attach` while it
    exists; a human agent finds it with :func:`current_input`. There is at most one such display
    per process, because there is at most one pygame window.
"""

from __future__ import annotations

from typing import Protocol

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


_attached: list[HumanInput] = []


def attach(source: HumanInput) -> None:
    """Make ``source`` the input of human players (replacing any earlier one)."""
    _attached[:] = [source]


def detach(source: HumanInput) -> None:
    """Stop using ``source`` (nothing happens if another source replaced it)."""
    if _attached and _attached[0] is source:
        _attached.clear()


def current_input() -> HumanInput | None:
    """The attached human input, or ``None`` when no window can read keys."""
    return _attached[0] if _attached else None
