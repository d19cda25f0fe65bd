"""The game as a PettingZoo AEC environment: agents take turns, as they do in the game.

Agents are ``pacman_0`` and ``ghost_1`` .. ``ghost_k``, acting in that order every round.
Every agent has the action space ``Discrete(5)`` (North, South, East, West, Stop, as in
:data:`pacman.engine.directions.ACTIONS`) and, by default, observes the ``image`` planes of
:mod:`pacman.envs.options` with its action mask (its legal actions in the current position;
ghosts may never stop nor, except at a dead end, reverse) in ``info["action_mask"]``;
``observation=`` chooses another format (``"dict"`` puts the mask in the observation). Actions
may be numpy integers or 0-d arrays; an action the mask forbids is played as Stop by Pacman
and as its course by a ghost, or, with ``illegal_action="end"``, ends the episode with
``illegal_reward`` for the mover (see :mod:`pacman.envs.options`, which also lists what every
info holds).

Rewards are score changes: after each move Pacman gets the change of the game score and every
ghost its negation (so over a round, each agent collects the change since its own last move).
A win or a loss terminates every agent; reaching ``max_moves`` of Pacman's moves (at the end of
a round) truncates every agent (``max_cycles``, PettingZoo's name, is the same limit). The
environment is not parallelizable in PettingZoo's sense (a game can end, and a ghost's legal
moves change, in the middle of a round), so ``aec_to_parallel`` refuses it; use
:class:`pacman.envs.parallel_env`, which plays rounds. The game has no chance of its own:
the same start and actions always give the same game. ``reset(seed=...)`` seeds what a start
may draw (a maze of a list, random start cells: :mod:`pacman.envs.starts`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from pacman.engine.directions import ACTIONS
from pacman.errors import ConfigurationError
from pacman.envs.observation import Observer
from pacman.envs.options import (DEFAULT_ILLEGAL_ACTION, DEFAULT_ILLEGAL_REWARD,
                                 DEFAULT_OBSERVATION, Encoding, action_index,
                                 check_illegal_action, replacement)
from pacman.envs.rendering import RENDER_MODES, Screen
from pacman.envs.starts import MazeArgument, Starts, maze_list
from pacman.engine.layout import Layout, load_layout
from pacman.engine.state import GameState

PACMAN_AGENT = "pacman_0"
RENDER_FPS = 10
#: Pacman's moves before an episode is truncated, unless told otherwise (as ``pacman-arena``).
DEFAULT_MAX_MOVES = 1000


def agent_names(num_ghosts: int) -> list[str]:
    """The agents of a game with ``num_ghosts`` ghosts, in turn order."""
    return [PACMAN_AGENT] + [f"ghost_{index}" for index in range(1, num_ghosts + 1)]


def move_limit(max_moves: int | None, max_cycles: int | None) -> int | None:
    """The one limit of ``max_moves`` and its PettingZoo spelling ``max_cycles`` (which, when
    given, replaces the default ``max_moves``)."""
    if max_cycles is None:
        return max_moves
    if max_moves not in (max_cycles, DEFAULT_MAX_MOVES):
        raise ConfigurationError(f"max_cycles ({max_cycles!r}) and max_moves ({max_moves!r}) "
                                 "name the same limit; give one of them")
    return max_cycles


def game_setup(layout: Layout | str, num_ghosts: int | None, max_moves: int | None,
               render_mode: str | None) -> tuple[Layout, int]:
    """The maze and ghost count of an environment; a clear error for any bad argument."""
    maze = layout if isinstance(layout, Layout) else load_layout(layout)
    available = maze.num_ghosts
    count = available if num_ghosts is None else num_ghosts
    if not isinstance(count, int) or not 0 <= count <= available:
        raise ConfigurationError(f"num_ghosts must be 0 to {available} on {maze.name!r}, "
                                 f"got {num_ghosts!r}")
    if max_moves is not None and (not isinstance(max_moves, int) or max_moves < 1):
        raise ConfigurationError(f"max_moves must be a whole number of at least 1, "
                                 f"got {max_moves!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigurationError(f"render_mode must be one of {', '.join(RENDER_MODES)} or "
                                 f"None, got {render_mode!r}")
    return maze, count


def action_name(action: Any) -> str:
    """The action string of an action index; a clear error for anything else."""
    return ACTIONS[action_index(action)]


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's naming convention)
    """The AEC environment without PettingZoo's order-enforcing wrapper (see :func:`env`)."""

    metadata: dict[str, Any] = {"name": "pacman_arena_v0", "render_modes": RENDER_MODES,
                                "render_fps": RENDER_FPS, "is_parallelizable": False}

    def __init__(self, layout: MazeArgument = "small_classic", num_ghosts: int | None = None,
                 max_moves: int | None = DEFAULT_MAX_MOVES, render_mode: str | None = None, *,
                 max_cycles: int | None = None, observation: str = DEFAULT_OBSERVATION,
                 illegal_action: str = DEFAULT_ILLEGAL_ACTION,
                 illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
                 cell_pixels: int | None = None, random_starts: bool = False) -> None:
        super().__init__()
        max_moves = move_limit(max_moves, max_cycles)
        mazes = maze_list(layout)
        self.layout, count = game_setup(mazes[0], num_ghosts, max_moves, render_mode)
        self.starts = Starts(mazes, count, random_starts)
        self.np_random, _ = seeding.np_random()
        check_illegal_action(illegal_action, illegal_reward)
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = agent_names(count)
        self.agent_name_mapping = {name: index for index, name in enumerate(self.possible_agents)}
        self.observer: Observer = self.starts.observer(self.layout)
        shape = self.observer.shape
        self.encoding = Encoding(observation, shape, cell_pixels)
        self.observation_spaces = {name: self.encoding.space for name in self.possible_agents}
        self.action_spaces = {name: spaces.Discrete(len(ACTIONS)) for name in self.possible_agents}
        self.state_space = spaces.Box(0, 1, shape[:2] + (shape[2] - 1,), dtype=np.int8)
        #: The engine's state of the game; valid after :meth:`reset`.
        self.game = GameState.initial(self.layout, count)
        #: Pacman's moves so far.
        self.moves = 0
        #: How the episode ended (``None`` while it goes on): see :mod:`pacman.envs.options`.
        self.outcome: str | None = None
        self.illegal_counts: dict[str, int] = {}
        self._screen = Screen(self.layout, self.possible_agents, render_mode, RENDER_FPS,
                              "the environment")

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: the maze's start, or what :mod:`pacman.envs.starts` draws with the
        generator that ``seed`` seeds (``options``: ``{"random_starts": bool}``)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.game = self.starts.draw(self.np_random, options)
        self.layout = self.game.layout
        self.observer = self.starts.observer(self.layout)
        self.moves = 0
        self.outcome = str(self.game.outcome) if self.game.outcome is not None else None
        self.agents = self.possible_agents[:]
        over = self.game.outcome is not None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, over)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}
        self.illegal_counts = dict.fromkeys(self.agents, 0)
        self._note_infos()
        self.agent_selection = self.agents[self.game.turn]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Any:
        index = self.agent_name_mapping[agent]
        mask = self.observer.action_mask(self.game, index) if self.encoding.mask_in_observation \
            else None
        return self.encoding.encode(self.observer.observe(self.game, index), mask)

    def state(self) -> np.ndarray:
        """The whole board: every plane but the observer's own."""
        return self.observer.board(self.game)[:, :, :-1].copy()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = self.agent_name_mapping[agent]
        name = action_name(action)
        legal = self.game.legal_actions(index)
        illegal = name not in legal
        if illegal:
            self.illegal_counts[agent] += 1
            if self.illegal_action == "end":
                self._end_by_illegal_action(agent, index)
                return
            name = replacement(index, legal, self.game.directions[index])
        before = self.game.score
        self.game = self.game.successor(name, index)
        if index == 0:
            self.moves += 1
        change = float(self.game.score - before)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: change if name == PACMAN_AGENT else -change
                        for name in self.agents}
        if self.game.outcome is not None:
            self.terminations = dict.fromkeys(self.agents, True)
            self.outcome = str(self.game.outcome)
        elif self.max_moves is not None and self.moves >= self.max_moves and self.game.turn == 0:
            self.truncations = dict.fromkeys(self.agents, True)
            self.outcome = "truncated"
        self._note_infos(agent if illegal else None)
        self.agent_selection = self.possible_agents[self.game.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_by_illegal_action(self, agent: str, index: int) -> None:
        """End the episode: the mover gets the illegal reward, the others nothing."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.outcome = "draw"
        self._note_infos(agent)
        self.agent_selection = self.possible_agents[(index + 1) % len(self.possible_agents)]
        self._accumulate_rewards()

    def _note_infos(self, illegal_mover: str | None = None) -> None:
        """Every agent's info: the score, the outcome, its illegal actions (this move's and the
        episode's) and, with a format that has no mask, its mask."""
        for name in self.agents:
            info: dict[str, Any] = {"score": self.game.score, "outcome": self.outcome,
                                    "illegal_action": name == illegal_mover,
                                    "illegal_actions": self.illegal_counts[name]}
            if not self.encoding.mask_in_observation:
                info["action_mask"] = self.observer.action_mask(
                    self.game, self.agent_name_mapping[name])
            self.infos[name] = info

    def render(self) -> str | np.ndarray | None:
        return self._screen.render(self.game, self.moves)

    def close(self) -> None:
        self._screen.close()


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment (arguments as :class:`raw_env`), wrapped as PettingZoo recommends
    so that calls out of order fail clearly."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
