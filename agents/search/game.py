"""The game protocol every searchable game implements.

The vocabulary follows the lecture formalism: a start state, ``Actions(s)``,
``Succ(s, a)``, ``IsEnd(s)``, ``Utility(s)`` and the player in control of a
state, here expressed as the kind of node the state is (MAX, MIN or CHANCE).

Values are always from the MAX player's point of view.  The order in which
:meth:`Game.actions` lists the actions is the move order the searches use.

Depth is counted in *depth units*: a search with depth ``d`` may descend
until ``d`` units have been completed, after which states are scored with
the static evaluation.  :meth:`Game.ends_depth_unit` says whether the move
made at a state completes a unit.  For lecture trees every ply is a unit;
a Pacman adapter counts full rounds, so only the last ghost's move ends a
unit ("decrement depth at the last player's turn").
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

S = TypeVar("S")
A = TypeVar("A")


class NodeKind(enum.Enum):
    """Who controls a state: the maximiser, the minimiser or chance."""

    MAX = "max"
    MIN = "min"
    CHANCE = "chance"


@runtime_checkable
class Game(Protocol[S, A]):
    """A turn-taking game with values from MAX's point of view.

    Required methods: :meth:`kind`, :meth:`is_end`, :meth:`utility`,
    :meth:`actions`, :meth:`successor`.  The others have defaults, which a
    game inherits by subclassing ``Game`` explicitly.
    """

    def kind(self, state: S) -> NodeKind:
        """The kind of a non-terminal state.  Never called on end states."""
        ...

    def is_end(self, state: S) -> bool:
        """Whether the game is over at ``state``."""
        ...

    def utility(self, state: S) -> float:
        """MAX's utility of an end state.  Only called when ``is_end``."""
        ...

    def actions(self, state: S) -> Sequence[A]:
        """Legal actions of a non-terminal state, in move order (non-empty).

        Actions must be hashable: results map actions to values.
        """
        ...

    def successor(self, state: S, action: A) -> S:
        """The state reached by taking ``action`` in ``state``."""
        ...

    def probabilities(self, state: S) -> Sequence[float]:
        """Outcome probabilities of a CHANCE state, aligned with ``actions``.

        Only called at CHANCE states.  The default is uniform.
        """
        n = len(self.actions(state))
        return [1.0 / n] * n

    def evaluate(self, state: S) -> float:
        """Static evaluation Eval(s) used when the depth limit is reached.

        Searches accept an ``evaluate=`` override; the default raises.
        """
        raise NotImplementedError(
            f"{type(self).__name__} has no evaluation function; "
            "pass evaluate= or search without a depth limit"
        )

    def ends_depth_unit(self, state: S) -> bool:
        """Whether the move made at ``state`` completes one unit of depth.

        The default counts every ply.
        """
        return True

    def state_key(self, state: S) -> Hashable:
        """Key identifying ``state`` in transposition tables.

        The default is the state itself, which must then be hashable.
        """
        return state


@runtime_checkable
class MultiPlayerGame(Protocol[S, A]):
    """A game for max^n: utilities are tuples with one entry per player.

    ``player(state)`` is the index of the player moving at a non-terminal,
    non-chance state; ``kind(state)`` only needs to distinguish CHANCE
    states (any other kind means "a player moves").
    """

    def kind(self, state: S) -> NodeKind: ...
    def player(self, state: S) -> int: ...
    def is_end(self, state: S) -> bool: ...
    def utility(self, state: S) -> tuple[float, ...]: ...
    def actions(self, state: S) -> Sequence[A]: ...
    def successor(self, state: S, action: A) -> S: ...
    def probabilities(self, state: S) -> Sequence[float]: ...
    def evaluate(self, state: S) -> tuple[float, ...]: ...
    def ends_depth_unit(self, state: S) -> bool: ...


def key_function(game: Any) -> Callable[[Any], Any] | None:
    """The game's ``state_key`` if it defines one, else ``None``: the state is its own key."""
    return getattr(game, "state_key", None)
