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
    ghosts) the maze distances. Each game has Pacman's cell and last action, each ghost's cell,
    last direction and scared timer, its score, its move count and its food and capsules. The
    food and capsules *are* planes of the observation buffer: a step writes only the cells that
    changed (Pacman's old and new cell, each ghost's), so the ``planes`` observation is built
    in place.

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
from pacman.engine.layout import UNREACHABLE, Layout
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
        self.distance_flat: np.ndarray | None = None
        if distances:
            # The values DirectionalGhost compares, UNREACHABLE included; int16 (a maze has
            # fewer than 32,767 cells here) keeps the table in cache.
            distance = np.full((size, size), UNREACHABLE, dtype=np.int16)
            distance_rows = layout.distance_rows
            for cell in layout.open_cells:
                distance[cell] = np.asarray(distance_rows[cell], dtype=np.int16)
            self.distance_flat = distance.reshape(-1)


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
        self.observation_space = batch_space(single, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        b, k = num_envs, count
        self._stride = height * width * planes
        self._base = np.arange(b, dtype=np.int64) * self._stride
        self._ghost_planes = PACMAN + 1 + np.arange(k, dtype=np.int64)
        #: Every game's planes, flat: ``(num_envs, H*W*C)``; the food and capsule planes are
        #: the games' food and capsules.
        self.buffer = np.zeros((b, self._stride), dtype=np.int8)
        self._flat = self.buffer.reshape(-1)
        self.pacman = np.zeros(b, dtype=np.int64)
        self.pacman_direction = np.zeros(b, dtype=np.int64)
        self.ghosts = np.zeros((b, k), dtype=np.int64)
        self.ghost_directions = np.zeros((b, k), dtype=np.int64)
        self.scared = np.zeros((b, k), dtype=np.int64)
        self.food_left = np.zeros(b, dtype=np.int64)
        self.score = np.zeros(b, dtype=np.int64)
        self.moves = np.zeros(b, dtype=np.int64)
        self.outcome = np.zeros(b, dtype=np.int8)
        #: The move each ghost played in the last step (an index of ``ACTIONS``), -1 where it
        #: did not move (its game had ended).
        self.ghost_actions = np.full((b, k), -1, dtype=np.int64)
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
        old_pacman = self.pacman.copy()
        old_ghosts = self.ghosts.copy()
        illegal = self._pacman_moves(actions.astype(np.int64))
        self._ghost_moves()
        self._redraw(old_pacman, old_ghosts)
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

    def action_masks(self) -> np.ndarray:
        """Pacman's legal actions in every game, ``(num_envs, 5)`` booleans (Stop always)."""
        return self.tables.pacman_legal[self.pacman]

    def game_state(self, index: int) -> GameState:
        """Game ``index`` as a state of the scalar engine (Pacman to move)."""
        tables, planes = self.tables, self.buffer[index]
        bits = tables.offset[: tables.size]
        food = _mask_of(planes[bits + FOOD])
        capsules = _mask_of(planes[bits + CAPSULES])
        outcome = {GOING: None, WON: WIN, LOST: LOSS}[int(self.outcome[index])]
        positions = (int(self.pacman[index]), *map(int, self.ghosts[index]))
        directions = tuple(ACTIONS[d] for d in (self.pacman_direction[index],
                                                *self.ghost_directions[index]))
        return GameState((self.layout, positions, directions,
                          tuple(map(int, self.scared[index])), food, capsules,
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
        self.ghosts[index] = state.positions[1:]
        self.pacman_direction[index] = ACTIONS.index(state.directions[0])
        self.ghost_directions[index] = [ACTIONS.index(d) for d in state.directions[1:]]
        self.scared[index] = state.scared_timers
        self.food_left[index] = state.food_count
        self.score[index] = state.score
        self.moves[index] = 0
        self.outcome[index] = GOING

    def ghost_choices(self, ghost: int, draws: np.ndarray) -> np.ndarray:
        """The move (index of ``ACTIONS``) ghost ``ghost`` (1-based) would draw in every game
        with ``draws`` (one uniform number in [0, 1) per game), Pacman where he is now; the
        games are not changed."""
        tables, column = self.tables, ghost - 1
        cell = self.ghosts[:, column]
        key = cell * len(ACTIONS) + self.ghost_directions[:, column]
        if self.kinds[column] == "random":
            pick = (draws * tables.ghost_count[key]).astype(np.int64)
            return tables.ghost_kth_flat[key * len(MOVES) + pick]
        return self._directional_moves(cell, key, column, draws)

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
        ate = flat[cell + FOOD].astype(bool)
        flat[cell + FOOD] = 0
        self.score += ate * FOOD_SCORE - TIME_PENALTY
        self.food_left -= ate
        won = ate & (self.food_left == 0)
        self.score += won * WIN_SCORE
        self.outcome[won] = WON
        capsule = flat[cell + CAPSULES].astype(bool)
        if capsule.any():
            flat[cell[capsule] + CAPSULES] = 0
            self.scared[capsule] = SCARED_TIME
        self.pacman = target
        self.pacman_direction = actions
        self.moves += 1
        for ghost in range(self.num_ghosts):
            meet = self.ghosts[:, ghost] == target
            if meet.any():
                eaten = meet & (self.scared[:, ghost] > 0)
                caught = meet & ~eaten & (self.outcome == GOING)
                self._send_home(eaten, ghost)
                self.score -= caught * LOSE_PENALTY
                self.outcome[caught] = LOST
        return illegal

    def _ghost_moves(self) -> None:
        """Every ghost's move, in turn, in the games still going on."""
        tables = self.tables
        draws = self._rng.random((self.num_ghosts, self.num_envs))
        self.ghost_actions.fill(-1)
        for ghost in range(self.num_ghosts):
            going = self.outcome == GOING
            every = bool(going.all())
            cell = self.ghosts[:, ghost]
            move = self.ghost_choices(ghost + 1, draws[ghost])
            target = tables.ghost_to_flat[cell * len(MOVES) + move]
            if every:
                self.ghost_actions[:, ghost] = move
            else:
                self.ghost_actions[going, ghost] = move[going]
                move = np.where(going, move, self.ghost_directions[:, ghost])
                target = np.where(going, target, cell)
            self.ghosts[:, ghost] = target
            self.ghost_directions[:, ghost] = move
            timer = self.scared[:, ghost]
            timer -= going & (timer > 0)
            meet = going & (target == self.pacman)
            if meet.any():
                eaten = meet & (timer > 0)
                caught = meet & ~eaten
                self._send_home(eaten, ghost)
                self.score -= caught * LOSE_PENALTY
                self.outcome[caught] = LOST

    def _directional_moves(self, cell: np.ndarray, key: np.ndarray, ghost: int,
                           draw: np.ndarray) -> np.ndarray:
        """Moves drawn from :class:`~pacman.agents.ghosts.DirectionalGhost`'s distribution with
        ``draw`` (uniform in [0, 1)): the legal moves share ``1 - bias`` equally and the best
        (nearest Pacman by maze distance, farthest while scared) share ``bias``; drawn as that
        mixture: below ``bias`` one of the best, else one of the legal moves, uniformly."""
        tables = self.tables
        assert tables.distance_flat is not None
        legal_bits = tables.ghost_bits[key]
        pacman = self.pacman
        scared = self.scared[:, ghost] > 0
        base = cell * len(MOVES)
        distances, legal = [], []
        nearest = np.full(self.num_envs, _NEAR_FILL, dtype=np.int16)
        farthest = np.full(self.num_envs, _FAR_FILL, dtype=np.int16)
        for move in range(len(MOVES)):
            target = tables.ghost_to_flat[base + move]
            distance = tables.distance_flat[target * tables.size + pacman]
            allowed = ((legal_bits >> move) & 1).astype(bool)
            np.minimum(nearest, np.where(allowed, distance, _NEAR_FILL), out=nearest)
            np.maximum(farthest, np.where(allowed, distance, _FAR_FILL), out=farthest)
            distances.append(distance)
            legal.append(allowed)
        aim = np.where(scared, farthest, nearest)
        best_bits = np.zeros(self.num_envs, dtype=np.int64)
        for move in range(len(MOVES)):
            best_bits |= (legal[move] & (distances[move] == aim)).astype(np.int64) << move
        to_best = draw < DIRECTIONAL_BIAS
        bits = np.where(to_best, best_bits, legal_bits)
        share = np.where(to_best, draw / DIRECTIONAL_BIAS,
                         (draw - DIRECTIONAL_BIAS) / (1.0 - DIRECTIONAL_BIAS))
        pick = np.minimum((share * _POPCOUNT[bits]).astype(np.int64), _POPCOUNT[bits] - 1)
        return _KTH_BIT[bits * len(MOVES) + pick]

    def _send_home(self, eaten: np.ndarray, ghost: int) -> None:
        """Ghost ``ghost`` is eaten where ``eaten``: back to its start, no last direction, not
        scared; Pacman scores."""
        if eaten.any():
            self.ghosts[eaten, ghost] = self.tables.ghost_starts[ghost]
            self.ghost_directions[eaten, ghost] = STOP_INDEX
            self.scared[eaten, ghost] = 0
            self.score += eaten * EAT_GHOST_SCORE

    def _redraw(self, old_pacman: np.ndarray, old_ghosts: np.ndarray) -> None:
        """The agents' planes moved from their cells before the step to their cells now."""
        flat, offset, base = self._flat, self.tables.offset, self._base
        selfplane = self.tables.planes - 1
        scared = selfplane - 1
        old = base + offset[old_pacman]
        new = base + offset[self.pacman]
        if not self.num_ghosts:
            flat[np.concatenate((old + PACMAN, old + selfplane))] = 0
            flat[np.concatenate((new + PACMAN, new + selfplane))] = 1
            return
        old_cells = base[:, None] + offset[old_ghosts]
        new_cells = base[:, None] + offset[self.ghosts]
        # Every mark of the step's start goes, then every mark of its end is made: the scared
        # plane has marks on ghost cells only, so two ghosts on one cell need no care.
        flat[np.concatenate((old + PACMAN, old + selfplane, (old_cells + scared).reshape(-1),
                             (old_cells + self._ghost_planes).reshape(-1)))] = 0
        flat[np.concatenate((new + PACMAN, new + selfplane,
                             (new_cells + self._ghost_planes).reshape(-1)))] = 1
        if self.scared.any():
            flat[new_cells[self.scared > 0] + scared] = 1

    # --- resets and what a step reports ----------------------------------------------------
    def _reset_games(self, which: np.ndarray) -> None:
        tables = self.tables
        self.buffer[which] = tables.start_planes
        self.pacman[which] = tables.pacman_start
        self.pacman_direction[which] = STOP_INDEX
        self.ghosts[which] = tables.ghost_starts
        self.ghost_directions[which] = STOP_INDEX
        self.scared[which] = 0
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
        shape = (height, width, planes)
        for index in np.flatnonzero(ended):
            row = self.buffer[index]
            final_obs[index] = row.reshape(shape).copy() if self.observation_format == "planes" \
                else row.astype(np.float32)
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
