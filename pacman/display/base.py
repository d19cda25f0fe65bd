"""The display protocol, declared: what every display does and the hooks some displays add.

No pygame here. Every display of the project derives from :class:`BaseDisplay`; a display made
elsewhere only needs :class:`pacman.engine.game.Display` (``start``, ``update``, ``finish``) to be run by
:func:`pacman.engine.game_loop.run_game`, and derives from :class:`BaseDisplay` to be driven by the play
command too (results, requests, replays, human input).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pacman.engine.game import GameResult, Move

if TYPE_CHECKING:
    from pacman.engine.human import HumanInput
    from pacman.engine.state import GameState


class BaseDisplay:
    """A display that shows nothing; subclasses override what they show.

    Required (the :class:`pacman.engine.game.Display` protocol): :meth:`start`, :meth:`update`,
    :meth:`finish`; any of them may raise :class:`pacman.engine.game.GameInterrupted` to end the game
    (a closed window, a quit key).

    Optional hooks, with defaults that do nothing:

    * :attr:`request`: after a game, what the user asked for besides watching:
      :data:`~pacman.display.controls.RESTART`, :data:`~pacman.display.controls.QUIT` or ``None``.
    * :attr:`announce`, :attr:`games_left`, :attr:`label`: set by the caller before a game; a
      display that waits after a game calls ``announce(result)`` first, so the result is printed
      before the wait; ``games_left`` says how many games follow, ``label`` what is shown.
    * :meth:`human_input`: the source of a human player's moves, if the display reads keys.
    * :meth:`show_replay`: show a recorded game (by default, as if it were played again).
    * :meth:`close`: release what the display holds (a window); called once, at the end.
    """

    #: After a game: RESTART, QUIT or None (see :mod:`pacman.display.controls`).
    request: str | None = None
    #: Called with the result as soon as a game ends (``None``: the display reports nothing).
    announce: Callable[[Any], None] | None = None
    #: Games still to play after this one (0: this is the last).
    games_left: int = 0
    #: What the display says it shows (a recording, a seed); empty for nothing.
    label: str = ""

    def start(self, state: GameState, agents: Sequence[str]) -> None:
        """Before the first move: the initial state and the agents' names."""

    def update(self, state: GameState, move: Move) -> None:
        """After each move: the new state and the move that made it."""

    def finish(self, state: GameState, result: GameResult) -> None:
        """At the end: the last state and the game's result."""

    def human_input(self) -> HumanInput | None:
        """Where a human player's moves come from (``None``: this display reads no keys)."""
        return None

    def show_replay(self, result: GameResult, states: Sequence[GameState],
                    evaluation: Callable[[GameState], float] | None = None) -> str | None:
        """Show the recorded game ``result`` whose positions are ``states``; returns what the
        user asked for (:attr:`request`). By default the game is shown as if played again."""
        self.start(states[0], [a["name"] for a in result.agents])
        num_agents = result.num_ghosts + 1
        for index, state in enumerate(states[1:]):
            self.update(state, Move(index % num_agents, result.actions[index], 0.0))
        self.finish(states[-1], result)
        return self.request

    def close(self) -> None:
        """Release what the display holds; the display is not used afterwards."""
