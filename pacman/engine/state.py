"""The game state: immutable, hashable, cheap to derive.

A :class:`GameState` is a tuple ``(layout, positions, directions, scared, food, capsules, score,
turn, outcome)``:

* ``layout`` -- the static :class:`~pacman.engine.layout.Layout`, shared by reference by every state;
* ``positions`` -- a tuple of cells, Pacman first, then ghost 1..k;
* ``directions`` -- each agent's last action (a ghost may not reverse it);
* ``scared`` -- each ghost's remaining scared moves (0 when not scared);
* ``food`` / ``capsules`` -- int bitmasks over cells of what is left;
* ``score`` -- the game score so far;
* ``turn`` -- the index of the agent to move next;
* ``outcome`` -- ``None`` while the game goes on, else ``Outcome.WIN`` or ``Outcome.LOSS``.

A :class:`ClassicSpeedState` (the classic rules variant) has a tenth field, ``between_cells``: a
bitmask of the ghosts half way between two cells (bit ``g - 1`` for ghost ``g``), see
:mod:`pacman.engine.rules`.

Being a tuple, it cannot be changed (no attribute can be set) and two equal states hash equal.
Successors share everything they do not change with their parent. The rules that derive
successors live in :mod:`pacman.engine.rules`; the methods here are thin conveniences over them.

Read a field by its name: the property (``state.food``) where speed does not matter, the index
constant of this module (``state[FOOD]``, as fast as a number) in code run at every node of a
search. A number (``state[4]``) would silently read another field once the tuple changed; the
constants and :data:`FIELDS` change with it. ``tests/test_architecture_rules.py`` keeps
numeric indices out of the agents.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pacman.engine import rules as _rules
from pacman.errors import GhostCountError
from pacman.engine.layout import UNREACHABLE, Layout
from pacman.engine.outcome import Outcome

if TYPE_CHECKING:
    from collections.abc import Sequence

#: The two outcomes the rules give a state (short names for :class:`~pacman.engine.outcome.Outcome`).
WIN = _rules.WIN
LOSS = _rules.LOSS

#: The index of each field in the state tuple (``state[SCORE]`` is ``state.score``).
LAYOUT = 0
POSITIONS = 1
DIRECTIONS = 2
SCARED_TIMERS = 3
FOOD = 4
CAPSULES = 5
SCORE = 6
TURN = 7
OUTCOME = 8
#: The fields' names in tuple order: each is a property of :class:`GameState`, and its index
#: constant is the name in capitals.
FIELDS = ("layout", "positions", "directions", "scared_timers", "food", "capsules", "score",
          "turn", "outcome")
#: The tenth field of a :class:`ClassicSpeedState` (the ghosts between cells).
BETWEEN_CELLS = 9


class GameState(tuple):
    """One position of the game. See the module docstring for the fields."""

    __slots__ = ()

    #: The names of this class's fields in tuple order (:data:`FIELDS`; a rules variant may add).
    fields: tuple[str, ...] = FIELDS
    #: Whether scared ghosts move at half speed (:class:`ClassicSpeedState`); read by the rules.
    half_speed_scared = False
    #: Whether the classic API (:mod:`pacman.compat`) lists legal actions in the classic engine's
    #: order (West, Stop, East, North, South) rather than the engine's.
    classic_action_order = False
    #: The fields a variant adds after the nine above, as they are at the start of a game.
    _start_extra: tuple[int, ...] = ()

    layout: Layout = property(itemgetter(LAYOUT))  # type: ignore[assignment]
    positions: tuple[int, ...] = property(itemgetter(POSITIONS))  # type: ignore[assignment]
    directions: tuple[str, ...] = property(itemgetter(DIRECTIONS))  # type: ignore[assignment]
    scared_timers: tuple[int, ...] = property(itemgetter(SCARED_TIMERS))  # type: ignore[assignment]
    food: int = property(itemgetter(FOOD))  # type: ignore[assignment]
    capsules: int = property(itemgetter(CAPSULES))  # type: ignore[assignment]
    score: int = property(itemgetter(SCORE))  # type: ignore[assignment]
    turn: int = property(itemgetter(TURN))  # type: ignore[assignment]
    outcome: Outcome | None = property(itemgetter(OUTCOME))  # type: ignore[assignment]

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

    def replace(self, **changes: Any) -> GameState:
        """A state of the same class with the fields named in ``changes`` (see :data:`FIELDS`)
        set, the others as here: a position built by hand (no rule is applied, nothing is
        checked but the names). ``TypeError`` for a name that is not a field."""
        unknown = sorted(set(changes) - set(self.fields))
        if unknown:
            raise TypeError(f"not a field of a state: {', '.join(unknown)}; "
                            f"the fields are {', '.join(self.fields)}")
        return type(self)(tuple(changes.get(name, value) for name, value in zip(self.fields, self)))

    # --- derived facts -----------------------------------------------------------------------
    @property
    def key(self) -> tuple:
        """A hashable key for transposition tables: everything but the shared layout."""
        return self[POSITIONS:]

    @property
    def between_cells(self) -> int:
        """The ghosts half way between two cells, as a bitmask (bit ``g - 1`` for ghost ``g``):
        always 0 but under the classic scared speed (:class:`ClassicSpeedState`)."""
        return 0

    @property
    def num_agents(self) -> int:
        """Pacman plus the ghosts."""
        return len(self[POSITIONS])

    @property
    def num_ghosts(self) -> int:
        return len(self[POSITIONS]) - 1

    @property
    def pacman_cell(self) -> int:
        return self[POSITIONS][0]

    @property
    def pacman_position(self) -> tuple[int, int]:
        """Pacman's ``(x, y)``."""
        return self[LAYOUT].cell_xy[self[POSITIONS][0]]

    @property
    def ghost_cells(self) -> tuple[int, ...]:
        return self[POSITIONS][1:]

    @property
    def ghost_positions(self) -> list[tuple[int, int]]:
        """Each ghost's ``(x, y)``, ghost 1 first."""
        xy = self[LAYOUT].cell_xy
        return [xy[c] for c in self[POSITIONS][1:]]

    def agent_position(self, agent: int) -> tuple[int, int]:
        return self[LAYOUT].cell_xy[self[POSITIONS][agent]]

    @property
    def food_count(self) -> int:
        return self[FOOD].bit_count()

    @property
    def food_positions(self) -> list[tuple[int, int]]:
        return self[LAYOUT].positions_of(self[FOOD])

    @property
    def capsule_positions(self) -> list[tuple[int, int]]:
        return self[LAYOUT].positions_of(self[CAPSULES])

    def has_food(self, position: tuple[int, int]) -> bool:
        return bool(self[FOOD] >> self[LAYOUT].cell(position) & 1)

    def has_capsule(self, position: tuple[int, int]) -> bool:
        return bool(self[CAPSULES] >> self[LAYOUT].cell(position) & 1)

    def is_wall(self, position: tuple[int, int]) -> bool:
        return self[LAYOUT].is_wall(position)

    @property
    def is_win(self) -> bool:
        return self[OUTCOME] == WIN

    @property
    def is_lose(self) -> bool:
        return self[OUTCOME] == LOSS

    @property
    def is_terminal(self) -> bool:
        return self[OUTCOME] is not None

    def maze_distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Moves along open cells from ``a`` to ``b`` (``UNREACHABLE`` if disconnected)."""
        return self[LAYOUT].maze_distance(a, b)

    def is_scared(self, ghost: int) -> bool:
        """Whether ghost ``ghost`` (1-based agent index) is scared."""
        return self[SCARED_TIMERS][ghost - 1] > 0

    # --- moves -------------------------------------------------------------------------------
    def legal_actions(self, agent: int | None = None) -> tuple[str, ...]:
        """Legal actions of ``agent`` (default: whoever's turn it is); ``()`` once the game ended."""
        return _rules.legal_actions(self, self[TURN] if agent is None else agent)

    def successor(self, action: str, agent: int | None = None) -> GameState:
        """The state after ``agent`` (default: whoever's turn it is) plays ``action``.

        Raises :class:`~pacman.errors.IllegalActionError` for an illegal action and
        :class:`~pacman.errors.GameOverError` if the game has ended. ``self`` is unchanged.
        """
        return _rules.successor(self, action, agent)

    def successors(self) -> Sequence[tuple[str, GameState]]:
        """``(action, successor)`` for every legal action of the agent to move."""
        succ = _rules.successor
        return [(a, succ(self, a)) for a in _rules.legal_actions(self, self[TURN])]

    # --- display -----------------------------------------------------------------------------
    def render(self) -> str:
        """The position as maze text: ``P`` Pacman, ``G`` ghost, ``S`` scared ghost."""
        layout = self[LAYOUT]
        width = layout.width
        grid = [list(row) for row in layout.text.split("\n")]
        for row in grid:
            for x, char in enumerate(row):
                if char not in "%":
                    row[x] = " "
        top = layout.height - 1
        for cell in layout.cells_of(self[FOOD]):
            grid[top - cell // width][cell % width] = "."
        for cell in layout.cells_of(self[CAPSULES]):
            grid[top - cell // width][cell % width] = "o"
        for ghost, cell in enumerate(self[POSITIONS][1:]):
            grid[top - cell // width][cell % width] = "S" if self[SCARED_TIMERS][ghost] else "G"
        pac = self[POSITIONS][0]
        grid[top - pac // width][pac % width] = "P"
        return "\n".join("".join(row) for row in grid)

    def __str__(self) -> str:
        return f"{self.render()}\nscore {self[SCORE]}  turn {self[TURN]}" + (
            f"  {self[OUTCOME]}" if self[OUTCOME] else "")

    def __repr__(self) -> str:
        return (f"GameState(layout={self[LAYOUT].name!r}, positions={self[POSITIONS]}, "
                f"score={self[SCORE]}, turn={self[TURN]}, food={self.food_count}, "
                f"outcome={self[OUTCOME]!r})")

    def __reduce__(self):
        return (GameState, (tuple(self),))


class ClassicSpeedState(GameState):
    """A game state under the classic engine's rules: scared ghosts move at half speed (see
    :mod:`pacman.engine.rules`), and agents written for the classic API get their legal actions in the
    classic engine's order, on which their ties depend. The fields of :class:`GameState` and a
    tenth, ``between_cells`` (:data:`BETWEEN_CELLS`); its successors are of this class too."""

    __slots__ = ()

    half_speed_scared = True
    classic_action_order = True

    fields = (*FIELDS, "between_cells")
    between_cells: int = property(itemgetter(BETWEEN_CELLS))  # type: ignore[assignment]
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
           "UNREACHABLE", "FIELDS", "LAYOUT", "POSITIONS", "DIRECTIONS", "SCARED_TIMERS", "FOOD",
           "CAPSULES", "SCORE", "TURN", "OUTCOME", "BETWEEN_CELLS"]
