"""The game state: immutable, hashable, cheap to derive.

A :class:`GameState` is a tuple ``(layout, positions, directions, scared, food, capsules, score,
turn, outcome)``:

* ``layout`` -- the static :class:`~pacman.layout.Layout`, shared by reference by every state;
* ``positions`` -- a tuple of cells, Pacman first, then ghost 1..k;
* ``directions`` -- each agent's last action (a ghost may not reverse it);
* ``scared`` -- each ghost's remaining scared moves (0 when not scared);
* ``food`` / ``capsules`` -- int bitmasks over cells of what is left;
* ``score`` -- the game score so far;
* ``turn`` -- the index of the agent to move next;
* ``outcome`` -- ``None`` while the game goes on, else ``Outcome.WIN`` or ``Outcome.LOSS``.

A :class:`ClassicSpeedState` (the classic rules variant) has a tenth field, ``between``: a
bitmask of the ghosts half way between two cells (bit ``g - 1`` for ghost ``g``), see
:mod:`pacman.rules`.

Being a tuple, it cannot be changed (no attribute can be set) and two equal states hash equal.
Successors share everything they do not change with their parent. The rules that derive
successors live in :mod:`pacman.rules`; the methods here are thin conveniences over them.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pacman.errors import GhostCountError
from pacman.layout import UNREACHABLE, Layout
from pacman.outcome import Outcome

if TYPE_CHECKING:
    from collections.abc import Sequence

#: The two outcomes the rules give a state (short names for :class:`~pacman.outcome.Outcome`).
WIN = Outcome.WIN
LOSS = Outcome.LOSS


class GameState(tuple):
    """One position of the game. See the module docstring for the fields."""

    __slots__ = ()

    #: Whether scared ghosts move at half speed (:class:`ClassicSpeedState`); read by the rules.
    half_speed_scared = False
    #: Whether the classic API (:mod:`pacman.compat`) lists legal actions in the classic engine's
    #: order (West, Stop, East, North, South) rather than the engine's.
    classic_action_order = False
    #: The fields a variant adds after the nine above, as they are at the start of a game.
    _start_extra: tuple[int, ...] = ()

    layout: Layout = property(itemgetter(0))  # type: ignore[assignment]
    positions: tuple[int, ...] = property(itemgetter(1))  # type: ignore[assignment]
    directions: tuple[str, ...] = property(itemgetter(2))  # type: ignore[assignment]
    scared_timers: tuple[int, ...] = property(itemgetter(3))  # type: ignore[assignment]
    food: int = property(itemgetter(4))  # type: ignore[assignment]
    capsules: int = property(itemgetter(5))  # type: ignore[assignment]
    score: int = property(itemgetter(6))  # type: ignore[assignment]
    turn: int = property(itemgetter(7))  # type: ignore[assignment]
    outcome: Outcome | None = property(itemgetter(8))  # type: ignore[assignment]

    @classmethod
    def initial(cls, layout: Layout, num_ghosts: int | None = None) -> GameState:
        """The start of a game on ``layout`` with its first ``num_ghosts`` ghosts (default: all).

        A maze with no food left at the start is an immediate win, as in the classic rules.
        """
        starts = layout.ghost_starts
        if num_ghosts is not None:
            if not 0 <= num_ghosts <= len(starts):
                raise GhostCountError(f"the maze {layout.name!r} has {len(starts)} ghost starts; "
                                 f"cannot place {num_ghosts}")
            starts = starts[:num_ghosts]
        k = len(starts)
        outcome = WIN if layout.food == 0 else None
        return cls((layout, (layout.pacman_start, *starts), ("Stop",) * (k + 1), (0,) * k,
                    layout.food, layout.capsules, 0, 0, outcome) + cls._start_extra)

    # --- derived facts -----------------------------------------------------------------------
    @property
    def key(self) -> tuple:
        """A hashable key for transposition tables: everything but the shared layout."""
        return self[1:]

    @property
    def between_cells(self) -> int:
        """The ghosts half way between two cells, as a bitmask (bit ``g - 1`` for ghost ``g``):
        always 0 but under the classic scared speed (:class:`ClassicSpeedState`)."""
        return 0

    @property
    def num_agents(self) -> int:
        """Pacman plus the ghosts."""
        return len(self[1])

    @property
    def num_ghosts(self) -> int:
        return len(self[1]) - 1

    @property
    def pacman_cell(self) -> int:
        return self[1][0]

    @property
    def pacman_position(self) -> tuple[int, int]:
        """Pacman's ``(x, y)``."""
        return self[0].cell_xy[self[1][0]]

    @property
    def ghost_cells(self) -> tuple[int, ...]:
        return self[1][1:]

    @property
    def ghost_positions(self) -> list[tuple[int, int]]:
        """Each ghost's ``(x, y)``, ghost 1 first."""
        xy = self[0].cell_xy
        return [xy[c] for c in self[1][1:]]

    def agent_position(self, agent: int) -> tuple[int, int]:
        return self[0].cell_xy[self[1][agent]]

    @property
    def food_count(self) -> int:
        return self[4].bit_count()

    @property
    def food_positions(self) -> list[tuple[int, int]]:
        return self[0].positions_of(self[4])

    @property
    def capsule_positions(self) -> list[tuple[int, int]]:
        return self[0].positions_of(self[5])

    def has_food(self, position: tuple[int, int]) -> bool:
        return bool(self[4] >> self[0].cell(position) & 1)

    def has_capsule(self, position: tuple[int, int]) -> bool:
        return bool(self[5] >> self[0].cell(position) & 1)

    def is_wall(self, position: tuple[int, int]) -> bool:
        return self[0].is_wall(position)

    @property
    def is_win(self) -> bool:
        return self[8] == WIN

    @property
    def is_lose(self) -> bool:
        return self[8] == LOSS

    @property
    def is_terminal(self) -> bool:
        return self[8] is not None

    def maze_distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Moves along open cells from ``a`` to ``b`` (``UNREACHABLE`` if disconnected)."""
        return self[0].maze_distance(a, b)

    def is_scared(self, ghost: int) -> bool:
        """Whether ghost ``ghost`` (1-based agent index) is scared."""
        return self[3][ghost - 1] > 0

    # --- moves -------------------------------------------------------------------------------
    def legal_actions(self, agent: int | None = None) -> tuple[str, ...]:
        """Legal actions of ``agent`` (default: whoever's turn it is); ``()`` once the game ended."""
        return _rules.legal_actions(self, self[7] if agent is None else agent)

    def successor(self, action: str, agent: int | None = None) -> GameState:
        """The state after ``agent`` (default: whoever's turn it is) plays ``action``.

        Raises :class:`~pacman.errors.IllegalActionError` for an illegal action and
        :class:`~pacman.errors.GameOverError` if the game has ended. ``self`` is unchanged.
        """
        return _rules.successor(self, action, agent)

    def successors(self) -> Sequence[tuple[str, GameState]]:
        """``(action, successor)`` for every legal action of the agent to move."""
        succ = _rules.successor
        return [(a, succ(self, a)) for a in _rules.legal_actions(self, self[7])]

    # --- display -----------------------------------------------------------------------------
    def render(self) -> str:
        """The position as maze text: ``P`` Pacman, ``G`` ghost, ``S`` scared ghost."""
        layout = self[0]
        width = layout.width
        grid = [list(row) for row in layout.text.split("\n")]
        for row in grid:
            for x, char in enumerate(row):
                if char not in "%":
                    row[x] = " "
        top = layout.height - 1
        for cell in layout.cells_of(self[4]):
            grid[top - cell // width][cell % width] = "."
        for cell in layout.cells_of(self[5]):
            grid[top - cell // width][cell % width] = "o"
        for ghost, cell in enumerate(self[1][1:]):
            grid[top - cell // width][cell % width] = "S" if self[3][ghost] else "G"
        pac = self[1][0]
        grid[top - pac // width][pac % width] = "P"
        return "\n".join("".join(row) for row in grid)

    def __str__(self) -> str:
        return f"{self.render()}\nscore {self[6]}  turn {self[7]}" + (
            f"  {self[8]}" if self[8] else "")

    def __repr__(self) -> str:
        return (f"GameState(layout={self[0].name!r}, positions={self[1]}, score={self[6]}, "
                f"turn={self[7]}, food={self.food_count}, outcome={self[8]!r})")

    def __reduce__(self):
        return (GameState, (tuple(self),))

    def _repr_png_(self) -> bytes:
        """The position as a picture, for Jupyter (IPython's rich display protocol)."""
        from pacman.display.notebook import state_png

        return state_png(self)


class ClassicSpeedState(GameState):
    """A game state under the classic engine's rules: scared ghosts move at half speed (see
    :mod:`pacman.rules`), and agents written for the classic API get their legal actions in the
    classic engine's order, on which their ties depend. The fields of :class:`GameState` and a
    tenth, ``between`` (:attr:`between_cells`); its successors are of this class too."""

    __slots__ = ()

    half_speed_scared = True
    classic_action_order = True

    between_cells: int = property(itemgetter(9))  # type: ignore[assignment]
    _start_extra = (0,)  # no ghost is between cells at the start

    def __new__(cls, fields=()):
        """The state of these ten fields (``TypeError`` for another number: the nine of a
        default state would lose the ghosts' half steps). The rules build successors with
        ``tuple.__new__``, which skips this check."""
        state = tuple.__new__(cls, fields)
        if len(state) != 10:
            raise TypeError(f"a {cls.__name__} has 10 fields (the tenth: the ghosts between "
                            f"cells), not {len(state)}")
        return state

    def __reduce__(self):
        return (ClassicSpeedState, (tuple(self),))


#: The rules variants a game may be played under, by name (the ``rules`` of a game test).
RULES_VARIANTS: dict[str, type[GameState]] = {"default": GameState, "classic": ClassicSpeedState}


def state_class(rules: str) -> type[GameState]:
    """The state class of the rules variant named ``rules`` (``ValueError`` if there is none)."""
    try:
        return RULES_VARIANTS[rules]
    except KeyError:
        raise ValueError(f"unknown rules {rules!r}; known: {', '.join(RULES_VARIANTS)}") from None


__all__ = ["GameState", "ClassicSpeedState", "RULES_VARIANTS", "state_class", "WIN", "LOSS",
           "UNREACHABLE"]


class _RulesOnFirstUse:
    """Stands for :mod:`pacman.rules` until a state first needs it, then puts the module in its
    place: the rules import this module (to build states), so importing them here while this
    module loads would be an import cycle. After the first call, ``_rules`` is the module."""

    def __getattr__(self, name: str) -> Any:
        global _rules
        from pacman import rules

        _rules = rules
        return getattr(rules, name)


_rules: Any = _RulesOnFirstUse()
