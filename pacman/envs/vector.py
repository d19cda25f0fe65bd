"""A batched engine: ``num_envs`` games of one maze stepped together as numpy arrays, offered as
a Gymnasium :class:`~gymnasium.vector.VectorEnv`.

``gymnasium.make_vec("PacmanArena/Pacman-v0", num_envs=B, vectorization_mode="vector_entry_point",
layout=..., ghosts=...)`` builds :class:`PacmanVectorEnv`. It plays the game of
:mod:`pacman.engine.rules` (default rules) exactly, one round per step as :class:`PacmanEnv` does:
Pacman's action, then every ghost's move in turn, stopping where the game ends. For the same
Pacman actions and the same ghost choices the states, rewards and ends are the scalar engine's,
step by step (``tests/envs/test_vector.py`` checks it over random games).

What is shared and what is per game
    The walls and move tables are built once per maze: Pacman's target cell for each cell and
    action, the ghosts' legal moves for each cell and last direction, and (for directional
    ghosts) each ghost's best moves for every cell, last direction and Pacman's cell, from the
    maze distances. Each game has Pacman's cell and last action, each ghost's cell, last
    direction and scared timer (ghost-major arrays, ``(num_ghosts, num_envs)``), its score, its
    move count and its food and capsules. The food and capsules *are* planes of the observation
    buffer: a step writes only the cells that changed (Pacman's old and new cell, each
    ghost's), so the ``planes`` observation is built in place. A ghost's choice depends on
    nothing another ghost's move changes, so every ghost of every game chooses at once; the
    turn order matters only where a ghost catches Pacman (the ghosts after it stay).

Ghosts (``ghosts=``)
    ``"random"`` (uniform among the legal moves, as :class:`~pacman.agents.ghosts.RandomGhost`)
    or ``"directional"`` (as :class:`~pacman.agents.ghosts.DirectionalGhost` with its defaults:
    the moves nearest Pacman by maze distance share 0.8, the farthest while scared, and every
    legal move shares the rest); one name for every ghost or one per ghost. The draws come from
    one numpy generator per environment, seeded by ``reset(seed=...)``; the moves drawn in the
    last step are in :attr:`PacmanVectorEnv.ghost_actions`.

Actions, masks and ends
    Actions are indices of :data:`pacman.engine.directions.ACTIONS` (an array of ``num_envs``). An
    action into a wall is played as Stop (``illegal_action="stop"``, the default of every
    environment) and counted in ``info["illegal_action"]``. ``info["action_mask"]`` holds
    Pacman's legal actions in each game (Stop is always legal). A win or a loss terminates a
    game; Pacman's ``max_moves``-th move truncates it. A game that ends is reset in the same step
    (Gymnasium's ``AutoresetMode.SAME_STEP``): the observation returned is the new game's first,
    ``info["final_obs"]`` (an object array, set where ``info["_final_obs"]``) holds the last
    observation of the game that ended, and ``info["final_info"]`` its ``score``, ``outcome``
    (``"win"``, ``"loss"``, ``"truncated"``) and ``moves``.

Observation (``observation=``)
    ``"planes"``: the ``(num_envs, H, W, C)`` int8 planes of :mod:`pacman.envs.observation`, as
    Pacman sees them. ``"flat"``: the same as ``(num_envs, H*W*C)`` float32. With ``copy=False``
    the planes returned are the environment's own buffer, changed by the next step (the
    fastest; copy what you keep).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pacman.engine.directions import ACTIONS, MOVES
from pacman.errors import ConfigurationError, IllegalActionError
from pacman.envs.aec import DEFAULT_MAX_MOVES, game_setup
from pacman.envs.observation import CAPSULES, FOOD, PACMAN, Observer
from pacman.engine.layout import Layout
from pacman.engine.rules import EAT_GHOST_SCORE, FOOD_SCORE, LOSE_PENALTY, SCARED_TIME, TIME_PENALTY, WIN_SCORE
from pacman.engine.state import LOSS, WIN, GameState

GHOST_KINDS = ("random", "directional")
#: The probability a directional ghost gives its best moves (chasing, or fleeing while scared):
#: :class:`~pacman.agents.ghosts.DirectionalGhost`'s defaults.
DIRECTIONAL_BIAS = 0.8
STOP_INDEX = len(MOVES)
#: Outcome codes of :attr:`PacmanVectorEnv.outcome`.
GOING, WON, LOST = 0, 1, 2
OUTCOME_NAMES = {WON: "win", LOST: "loss"}
#: Fills that lose every comparison with a real distance (UNREACHABLE, -1, is one).
_NEAR_FILL = np.iinfo(np.int16).max
_FAR_FILL = -2
#: Per 4-bit set of moves: how many, and (at ``bits * 4 + k``) the k-th move of the set.
_POPCOUNT = np.array([bin(bits).count("1") for bits in range(16)], dtype=np.int64)
_KTH_BIT = np.array([[([m for m in range(4) if bits >> m & 1] + [0] * 4)[k] for k in range(4)]
                     for bits in range(16)], dtype=np.int64).reshape(-1)


def ghost_kinds(ghosts: str | Sequence[str], count: int) -> list[str]:
    """One kind per ghost from one name or a comma-separated list; a clear error otherwise."""
    names = [g.strip() for g in ghosts.split(",")] if isinstance(ghosts, str) else list(ghosts)
    if len(names) == 1:
        names = names * count
    unknown = [name for name in names if name not in GHOST_KINDS]
    if unknown or len(names) != count:
        raise ConfigurationError(f"the batched engine plays ghosts {' or '.join(GHOST_KINDS)}: "
                                 f"one name or one per ghost ({count}), got {ghosts!r}")
    return names


class MazeTables:
    """What never changes on one maze, as arrays: Pacman's target cell per cell and action (-1
    where illegal), the ghosts' legal moves per cell and last direction, the cell of each move,
    where each cell lies in an observation, and the maze distances (only if ``distances``)."""

    def __init__(self, layout: Layout, num_ghosts: int, distances: bool) -> None:
        size = layout.width * layout.height
        self.size = size
        self.pacman_to = np.full((size, len(ACTIONS)), -1, dtype=np.int64)
        self.ghost_to = np.zeros((size, len(MOVES)), dtype=np.int64)
        self.ghost_legal = np.zeros((size, len(ACTIONS), len(MOVES)), dtype=bool)
        for cell in layout.open_cells:
            for action, target in layout.pacman_moves[cell].items():
                self.pacman_to[cell, ACTIONS.index(action)] = target
            for move, target in layout.neighbours[cell].items():
                if target is not None:
                    self.ghost_to[cell, MOVES.index(move)] = target
            for last, moves in layout.ghost_moves[cell].items():
                for move in moves:
                    self.ghost_legal[cell, ACTIONS.index(last), MOVES.index(move)] = True
        self.pacman_legal = self.pacman_to >= 0
        # The same, each cell's row padded to 8 bytes and read as one int64: gathering one
        # word per game is ten times faster than gathering rows of five booleans.
        padded = np.zeros((size, 8), dtype=bool)
        padded[:, : len(ACTIONS)] = self.pacman_legal
        self.pacman_legal_words = padded.view(np.int64).reshape(size)
        # Flat tables, indexed by one computed key: a 1-D gather is the cheapest numpy read.
        self.pacman_to_flat = self.pacman_to.reshape(-1)
        self.ghost_to_flat = self.ghost_to.reshape(-1)
        #: Per ``cell * 5 + last direction``: the legal moves' legality row, their count and the
        #: moves themselves, first the legal ones in order (a random ghost's k-th choice).
        self.ghost_legal_rows = self.ghost_legal.reshape(size * len(ACTIONS), len(MOVES))
        self.ghost_count = self.ghost_legal_rows.sum(axis=1)
        order = np.argsort(~self.ghost_legal_rows, axis=1, kind="stable")
        self.ghost_kth_flat = order.reshape(-1).astype(np.int64)
        #: The same legal moves as 4-bit sets (bit m for move m of ``MOVES``).
        self.ghost_bits = (self.ghost_legal_rows * (1 << np.arange(len(MOVES)))).sum(axis=1)
        observer = Observer(layout, num_ghosts)
        height, width, planes = observer.shape
        self.shape = observer.shape
        cells = np.arange(size)
        rows = height - 1 - cells // width
        #: Offset of each cell's first plane in one game's flattened planes.
        self.offset = (rows * width + cells % width) * planes
        self.planes = planes
        self.pacman_start = layout.pacman_start
        self.ghost_starts = np.array(layout.ghost_starts[:num_ghosts], dtype=np.int64)
        start = GameState.initial(layout, num_ghosts)
        self.start_planes = observer.observe(start, 0).reshape(-1)
        self.start_food = int(layout.food).bit_count()
        #: Each cell's index among the open cells (-1 on walls).
        self.open_index = np.full(size, -1, dtype=np.int64)
        self.open_index[list(layout.open_cells)] = np.arange(len(layout.open_cells))
        self.best_flat: np.ndarray | None = None
        self.best_row: np.ndarray | None = None
        if distances:
            self._best_moves(layout)

    def _best_moves(self, layout: Layout) -> None:
        """A directional ghost's best moves for every (cell, last direction, Pacman's cell):
        at ``best_row[cell * 5 + last] + open_index[pacman]`` of ``best_flat``, the 4-bit set
        of the legal moves nearest Pacman (low nibble) and farthest (high nibble), compared by
        maze distance as :class:`~pacman.agents.ghosts.DirectionalGhost` compares them
        (``UNREACHABLE`` included). One byte per entry over open cells only, so the table of
        ``originalClassic`` (294 open cells) is 432 kB and a ghost's choice is one read."""
        cells = np.array(layout.open_cells, dtype=np.int64)
        count = len(cells)
        # The distances between open cells (int16: a maze here has fewer than 32,767 cells).
        rows = layout.distance_rows
        distance = np.array([np.asarray(rows[cell], dtype=np.int16)[cells] for cell in cells],
                            dtype=np.int16).reshape(count, count)
        moves = len(MOVES)
        # Per move: the distance from the cell it leads to (itself where it is a wall; never
        # read then) to every open cell.
        after = [distance[self.open_index[self.ghost_to[cells, move]].clip(0)]
                 for move in range(moves)]
        table = np.zeros((count, len(ACTIONS), count), dtype=np.uint8)
        for last in range(len(ACTIONS)):
            legal = self.ghost_legal[cells, last]  # (count, 4)
            nearest = np.full((count, count), _NEAR_FILL, dtype=np.int16)
            farthest = np.full((count, count), _FAR_FILL, dtype=np.int16)
            for move in range(moves):
                allowed = legal[:, move, None]
                np.minimum(nearest, np.where(allowed, after[move], _NEAR_FILL), out=nearest)
                np.maximum(farthest, np.where(allowed, after[move], _FAR_FILL), out=farthest)
            for move in range(moves):
                allowed = legal[:, move, None]
                table[:, last] |= ((allowed & (after[move] == nearest)).astype(np.uint8) << move)
                table[:, last] |= ((allowed & (after[move] == farthest)).astype(np.uint8)
                                   << (move + 4))
        self.best_flat = table.reshape(-1)
        best_row = np.zeros((self.size, len(ACTIONS)), dtype=np.int64)
        best_row[cells] = (np.arange(count)[:, None] * len(ACTIONS)
                           + np.arange(len(ACTIONS))) * count
        self.best_row = best_row.reshape(-1)


class PacmanVectorEnv(VectorEnv):
    """``num_envs`` games of Pacman against random or directional ghosts on one maze (see the
    module docstring). ``max_episode_steps``, what ``gymnasium.make_vec`` passes when a
    registration sets it, is another name for ``max_moves``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, layout: Layout | str = "small_classic",
                 ghosts: str | Sequence[str] = "directional", num_ghosts: int | None = None,
                 max_moves: int | None = DEFAULT_MAX_MOVES, *, observation: str = "planes",
                 illegal_action: str = "stop", copy: bool = True,
                 max_episode_steps: int | None = None, **ignored: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigurationError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        if max_episode_steps is not None:
            max_moves = max_episode_steps
        if num_ghosts is None:
            names = ghosts.split(",") if isinstance(ghosts, str) else list(ghosts)
            num_ghosts = len(names) if len(names) > 1 else None
        if ignored.get("render_mode") is not None:
            raise ConfigurationError("the batched engine does not render; use PacmanEnv")
        self.layout, count = game_setup(layout, num_ghosts, max_moves, None)
        if illegal_action != "stop":
            raise ConfigurationError("the batched engine plays an illegal action as Stop "
                                     f"(illegal_action='stop'), got {illegal_action!r}")
        if observation not in ("planes", "flat"):
            raise ConfigurationError(f"the batched engine's observation is planes or flat, "
                                     f"got {observation!r}")
        self.kinds = ghost_kinds(ghosts, count)
        #: Each kind of ghost present and its ghosts (a slice when it is every ghost).
        self._kind_rows: list[tuple[str, Any]] = (
            [(self.kinds[0], slice(None))] if len(set(self.kinds)) <= 1 else
            [(kind, np.array([g for g, k in enumerate(self.kinds) if k == kind]))
             for kind in GHOST_KINDS if kind in self.kinds])
        self.num_envs = num_envs
        self.num_ghosts = count
        self.max_moves = max_moves
        self.observation_format = observation
        self.copy = copy
        self.tables = MazeTables(self.layout, count, "directional" in self.kinds)
        self._observer = Observer(self.layout, count)
        height, width, planes = self.tables.shape
        if observation == "planes":
            single: spaces.Box = spaces.Box(0, 1, (height, width, planes), dtype=np.int8)
        else:
            single = spaces.Box(0.0, 1.0, (height * width * planes,), dtype=np.float32)
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(len(ACTIONS))
        # As batch_space would make it, without tiling the bounds first (B x H x W x C each).
        self.observation_space = spaces.Box(0, 1, (num_envs, *single.shape), dtype=single.dtype) \
            if observation == "planes" else spaces.Box(0.0, 1.0, (num_envs, *single.shape),
                                                       dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        b, k = num_envs, count
        self._stride = height * width * planes
        self._base = np.arange(b, dtype=np.int64) * self._stride
        offset = self.tables.offset
        scared_plane = planes - 2
        ghost_planes = PACMAN + 1 + np.arange(k, dtype=np.int64)
        #: Per cell, where Pacman's marks go (his plane and the self plane of his view) and,
        #: per ``cell * k + ghost``, where the ghost's go (its plane; the scared plane is
        #: ``_to_scared`` further).
        self._pacman_marks = offset[:, None] + np.array([PACMAN, planes - 1])
        self._ghost_marks = (offset[:, None] + ghost_planes).reshape(-1)
        self._to_scared = (scared_plane - ghost_planes)[:, None]
        self._rows = np.arange(k, dtype=np.int64)[:, None]
        #: Every game's planes, flat: ``(num_envs, H*W*C)``; the food and capsule planes are
        #: the games' food and capsules.
        self.buffer = np.zeros((b, self._stride), dtype=np.int8)
        self._flat = self.buffer.reshape(-1)
        self.pacman = np.zeros(b, dtype=np.int64)
        self.pacman_direction = np.zeros(b, dtype=np.int64)
        # The ghosts' arrays are ghost-major, (k, num_envs): what happens to any ghost of a
        # game is a reduction over rows, elementwise and cheap.
        self.ghosts = np.zeros((k, b), dtype=np.int64)
        self.ghost_directions = np.zeros((k, b), dtype=np.int64)
        self.scared = np.zeros((k, b), dtype=np.int64)
        self.food_left = np.zeros(b, dtype=np.int64)
        self.score = np.zeros(b, dtype=np.int64)
        self.moves = np.zeros(b, dtype=np.int64)
        self.outcome = np.zeros(b, dtype=np.int8)
        self._ghost_actions = np.full((k, b), -1, dtype=np.int64)
        self._rng = np.random.default_rng()
        self._reset_games(np.ones(b, dtype=bool))

    # --- the Gymnasium API ------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Every game from the maze's start; ``seed`` seeds the ghosts' generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._reset_games(np.ones(self.num_envs, dtype=bool))
        return self._observation(), self._info(np.zeros(self.num_envs, dtype=bool))

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be {self.num_envs} integers 0 to "
                                     f"{len(ACTIONS) - 1}, got {actions!r}")
        if actions.size and (actions.min() < 0 or actions.max() >= len(ACTIONS)):
            raise IllegalActionError(f"an action is an index 0 to {len(ACTIONS) - 1} "
                                     f"({', '.join(ACTIONS)}), got {actions!r}")
        before = self.score.copy()
        old_pacman = self.pacman  # the moves below put new arrays in place of the old
        old_ghosts = self.ghosts.copy()
        old_scared = self.scared > 0
        illegal = self._pacman_moves(actions.astype(np.int64))
        self._ghost_moves()
        self._redraw(old_pacman, old_ghosts, old_scared)
        rewards = (self.score - before).astype(np.float32)
        terminated = self.outcome != GOING
        truncated = ~terminated & (self.moves >= self.max_moves) if self.max_moves is not None \
            else np.zeros(self.num_envs, dtype=bool)
        ended = terminated | truncated
        final = None
        if ended.any():
            final = self._final(ended, terminated)
            self._reset_games(ended)
        info = self._info(illegal)
        if final is not None:
            info.update(final)
        return self._observation(), rewards, terminated, truncated, info

    @property
    def ghost_actions(self) -> np.ndarray:
        """The move each ghost played in the last step (an index of ``ACTIONS``), -1 where it
        did not move (its game had ended): ``(num_envs, num_ghosts)``."""
        return self._ghost_actions.T

    def action_masks(self) -> np.ndarray:
        """Pacman's legal actions in every game, ``(num_envs, 5)`` booleans (Stop always); a
        view of a new array, not contiguous."""
        words = self.tables.pacman_legal_words[self.pacman]
        return words.view(bool).reshape(self.num_envs, 8)[:, : len(ACTIONS)]

    def game_state(self, index: int) -> GameState:
        """Game ``index`` as a state of the scalar engine (Pacman to move)."""
        tables, planes = self.tables, self.buffer[index]
        bits = tables.offset[: tables.size]
        food = _mask_of(planes[bits + FOOD])
        capsules = _mask_of(planes[bits + CAPSULES])
        outcome = {GOING: None, WON: WIN, LOST: LOSS}[int(self.outcome[index])]
        positions = (int(self.pacman[index]), *map(int, self.ghosts[:, index]))
        directions = tuple(ACTIONS[d] for d in (self.pacman_direction[index],
                                                *self.ghost_directions[:, index]))
        return GameState((self.layout, positions, directions,
                          tuple(map(int, self.scared[:, index])), food, capsules,
                          int(self.score[index]), 0, outcome))

    def set_game(self, index: int, state: GameState) -> None:
        """Put game ``index`` in ``state`` (a default-rules state of this maze and ghost count,
        Pacman to move, still going on), its move count at 0."""
        if (state.layout is not self.layout or state.num_ghosts != self.num_ghosts
                or state.turn != 0 or state.outcome is not None or state.half_speed_scared):
            raise ConfigurationError("set_game takes a going default-rules state of this maze "
                                     "and ghost count with Pacman to move")
        self.buffer[index] = self._observer.observe(state, 0).reshape(-1)
        self.pacman[index] = state.positions[0]
        self.ghosts[:, index] = state.positions[1:]
        self.pacman_direction[index] = ACTIONS.index(state.directions[0])
        self.ghost_directions[:, index] = [ACTIONS.index(d) for d in state.directions[1:]]
        self.scared[:, index] = state.scared_timers
        self.food_left[index] = state.food_count
        self.score[index] = state.score
        self.moves[index] = 0
        self.outcome[index] = GOING

    def ghost_choices(self, ghost: int, draws: np.ndarray) -> np.ndarray:
        """The move (index of ``ACTIONS``) ghost ``ghost`` (1-based) would draw in every game
        with ``draws`` (one uniform number in [0, 1) per game), Pacman where he is now; the
        games are not changed."""
        row = ghost - 1
        key = self.ghosts[row] * len(ACTIONS) + self.ghost_directions[row]
        return self._choices(self.kinds[row], key, draws, self.scared[row] > 0,
                             self.tables.open_index[self.pacman])

    # --- the rules, batched -----------------------------------------------------------------
    def _pacman_moves(self, actions: np.ndarray) -> np.ndarray:
        """Pacman's move in every game (:func:`pacman.engine.rules.successor` for agent 0); returns
        where the action was illegal (played as Stop)."""
        tables, flat = self.tables, self._flat
        target = tables.pacman_to_flat[self.pacman * len(ACTIONS) + actions]
        illegal = target < 0
        if illegal.any():
            actions = np.where(illegal, STOP_INDEX, actions)
            target = np.where(illegal, self.pacman, target)
        cell = self._base + tables.offset[target]
        food = cell + FOOD
        ate = flat[food].view(bool)
        flat[food] = 0
        self.score += ate * FOOD_SCORE - TIME_PENALTY
        self.food_left -= ate
        won = ate & (self.food_left == 0)
        if won.any():
            self.score += won * WIN_SCORE
            self.outcome[won] = WON
        capsule = flat[cell + CAPSULES].view(bool)
        if capsule.any():
            flat[cell[capsule] + CAPSULES] = 0
            self.scared[:, capsule] = SCARED_TIME
        self.pacman = target
        self.pacman_direction = actions
        self.moves += 1
        if self.num_ghosts:
            meet = self.ghosts == target
            if meet.any():
                eaten = meet & (self.scared > 0)
                caught = np.logical_or.reduce(meet & ~eaten, axis=0) & (self.outcome == GOING)
                self._send_home(eaten)
                self.score -= caught * LOSE_PENALTY
                self.outcome[caught] = LOST
        return illegal

    def _ghost_moves(self) -> None:
        """Every ghost's move, in turn, in the games still going on.

        A ghost's choice depends on its own cell, direction and timer and on Pacman's cell,
        none of which an earlier ghost's move changes, so every ghost of every game chooses at
        once; the turn order matters only where a ghost catches Pacman: the ghosts after it do
        not move."""
        if not self.num_ghosts:
            return
        tables = self.tables
        draws = self._rng.random((self.num_ghosts, self.num_envs))
        going = self.outcome == GOING
        cells, directions, timers = self.ghosts, self.ghost_directions, self.scared
        key = cells * len(ACTIONS) + directions
        pacman = self.pacman
        scared = timers > 0
        pacman_open = tables.open_index[pacman]
        if len(self._kind_rows) == 1:
            moves = self._choices(self.kinds[0], key, draws, scared, pacman_open)
        else:
            moves = np.empty_like(key)
            for kind, rows in self._kind_rows:
                moves[rows] = self._choices(kind, key[rows], draws[rows], scared[rows],
                                            pacman_open)
        targets = tables.ghost_to_flat[cells * len(MOVES) + moves]
        meet = targets == pacman
        # A ghost whose timer runs out on this move (1 to 0) catches Pacman as a brave one does.
        catch = meet & (timers <= 1) if meet.any() else None
        if catch is not None and catch.any():
            before = np.zeros_like(catch)
            np.logical_or.accumulate(catch[:-1], axis=0, out=before[1:])
            moved = going & ~before
        elif going.all():
            moved = None
        else:
            moved = np.broadcast_to(going, key.shape)
        if moved is None:
            self.ghosts = targets
            self.ghost_directions = moves.copy()  # changed in place by later steps and resets
            self._ghost_actions = moves
            timers -= scared
        else:
            self.ghosts = np.where(moved, targets, cells)
            self.ghost_directions = np.where(moved, moves, directions)
            self._ghost_actions = np.where(moved, moves, -1)
            timers -= moved & scared
        if catch is not None:
            arrived = meet if moved is None else meet & moved
            eaten = arrived & (timers > 0)
            caught = np.logical_or.reduce(arrived & catch, axis=0)
            self._send_home(eaten)
            self.score -= caught * LOSE_PENALTY
            self.outcome[caught] = LOST

    def _choices(self, kind: str, key: np.ndarray, draws: np.ndarray, scared: np.ndarray,
                 pacman_open: np.ndarray) -> np.ndarray:
        """The moves of ghosts of ``kind`` keyed ``cell * 5 + last direction`` (any shape),
        drawn with ``draws`` (uniform in [0, 1), the same shape); ``scared`` where their
        timers run, ``pacman_open`` Pacman's open-cell index (broadcast against ``key``).

        A random ghost takes the k-th of its legal moves, k = floor(draw * their count). A
        directional ghost draws from :class:`~pacman.agents.ghosts.DirectionalGhost`'s
        distribution (the legal moves share ``1 - bias`` equally and the best, nearest Pacman
        by maze distance or farthest while scared, share ``bias``) as that mixture: below
        ``bias`` one of the best, else one of the legal moves, uniformly."""
        tables = self.tables
        if kind == "random":
            pick = (draws * tables.ghost_count[key]).astype(np.int64)
            return tables.ghost_kth_flat[key * len(MOVES) + pick]
        assert tables.best_flat is not None and tables.best_row is not None
        both = tables.best_flat[tables.best_row[key] + pacman_open]
        if scared.any():
            best = np.where(scared, both >> 4, both & 15)
        else:
            best = both & 15
        to_best = draws < DIRECTIONAL_BIAS
        bits = np.where(to_best, best, tables.ghost_bits[key])
        share = np.where(to_best, draws / DIRECTIONAL_BIAS,
                         (draws - DIRECTIONAL_BIAS) / (1.0 - DIRECTIONAL_BIAS))
        count = _POPCOUNT[bits]
        pick = np.minimum((share * count).astype(np.int64), count - 1)
        return _KTH_BIT[bits * len(MOVES) + pick]

    def _send_home(self, eaten: np.ndarray) -> None:
        """The ghosts are eaten where ``eaten`` (ghosts x games): back to their starts, no last
        direction, not scared; Pacman scores."""
        if eaten.any():
            starts = np.broadcast_to(self.tables.ghost_starts[:, None], eaten.shape)
            self.ghosts[eaten] = starts[eaten]
            self.ghost_directions[eaten] = STOP_INDEX
            self.scared[eaten] = 0
            self.score += eaten.sum(axis=0) * EAT_GHOST_SCORE

    def _redraw(self, old_pacman: np.ndarray, old_ghosts: np.ndarray, old_scared: np.ndarray
                ) -> None:
        """The agents' planes moved from their cells before the step (where the ghosts were
        scared then: ``old_scared``) to their cells now."""
        flat, base = self._flat, self._base
        k = self.num_ghosts
        # Every mark of the step's start goes, then every mark of its end is made: the scared
        # plane, the only one that several agents share, has marks on scared ghosts' cells
        # only, so two ghosts on one cell need no care.
        flat[self._pacman_marks[old_pacman] + base[:, None]] = 0
        if k:
            old = self._ghost_marks[old_ghosts * k + self._rows]
            old += base
            flat[old] = 0
            if old_scared.any():
                flat[(old + self._to_scared)[old_scared]] = 0
        flat[self._pacman_marks[self.pacman] + base[:, None]] = 1
        if k:
            marks = self._ghost_marks[self.ghosts * k + self._rows]
            marks += base
            flat[marks] = 1
            scared = self.scared > 0
            if scared.any():
                flat[(marks + self._to_scared)[scared]] = 1

    # --- resets and what a step reports ----------------------------------------------------
    def _reset_games(self, which: np.ndarray) -> None:
        tables = self.tables
        self.buffer[which] = tables.start_planes
        self.pacman[which] = tables.pacman_start
        self.pacman_direction[which] = STOP_INDEX
        self.ghosts[:, which] = tables.ghost_starts[:, None]
        self.ghost_directions[:, which] = STOP_INDEX
        self.scared[:, which] = 0
        self.food_left[which] = tables.start_food
        self.score[which] = 0
        self.moves[which] = 0
        self.outcome[which] = WON if tables.start_food == 0 else GOING

    def _observation(self) -> np.ndarray:
        height, width, planes = self.tables.shape
        if self.observation_format == "flat":
            return self.buffer.astype(np.float32)
        view = self.buffer.reshape(self.num_envs, height, width, planes)
        return view.copy() if self.copy else view

    def _info(self, illegal: np.ndarray) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "illegal_action": illegal,
                "score": self.score.copy(), "moves": self.moves.copy()}

    def _final(self, ended: np.ndarray, terminated: np.ndarray) -> dict[str, Any]:
        height, width, planes = self.tables.shape
        final_obs = np.full(self.num_envs, None, dtype=object)
        which = np.flatnonzero(ended)
        rows = self.buffer[which]
        last = rows.reshape(len(which), height, width, planes) \
            if self.observation_format == "planes" else rows.astype(np.float32)
        for index, row in zip(which.tolist(), last):
            final_obs[index] = row
        outcome = np.full(self.num_envs, "", dtype="<U9")
        outcome[ended & ~terminated] = "truncated"
        outcome[self.outcome == WON] = "win"
        outcome[self.outcome == LOST] = "loss"
        final_info = {"score": self.score.copy(), "_score": ended.copy(),
                      "outcome": outcome, "_outcome": ended.copy(),
                      "moves": self.moves.copy(), "_moves": ended.copy()}
        return {"final_obs": final_obs, "_final_obs": ended.copy(),
                "final_info": final_info, "_final_info": ended.copy()}


def _mask_of(bits: np.ndarray) -> int:
    """The int bitmask (bit ``c`` for cell ``c``) of a 0/1 array indexed by cell."""
    packed = np.packbits(bits.astype(np.uint8), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


__all__ = ["PacmanVectorEnv", "MazeTables", "GHOST_KINDS", "ghost_kinds"]
