"""The game as a Gymnasium environment: Pacman alone, against ghost agents of the catalog.

``gymnasium.make("PacmanArena/Pacman-v0", layout="small_classic", ghosts="directional")``.
One step is one round: Pacman plays the action, then every ghost plays its own agent's move.
The observation is Pacman's planes (:mod:`pacman.envs.observation`) as an ``"image"`` (what
``CnnPolicy`` takes), or another format with ``observation=`` (``"planes"``, ``"flat"``,
``"dict"``: :mod:`pacman.envs.options`); ``info["action_mask"]`` and
:meth:`PacmanEnv.action_masks` (sb3-contrib's ``MaskablePPO`` protocol) mark his legal actions.
An action into a wall is played as Stop (Pacman bumps and stays, ``info["illegal_action"]``
says so and ``info["illegal_actions"]`` counts them); with ``illegal_action="end"`` it ends the
episode with ``illegal_reward`` (default -500). The reward is the change of the game score over
the round. A win or a loss terminates the episode; Pacman's ``max_moves``-th move truncates it
(the environment does it itself: the registration sets no ``max_episode_steps``, so
``max_moves`` is the one limit). ``info["outcome"]`` and ``info["score"]`` say how it ended.
:meth:`PacmanEnv.get_keys_to_action` maps the arrow keys and WASD to moves, for
``gymnasium.utils.play.play`` (give it ``noop=4``, Stop).

The ghosts are built anew at every reset with random generators derived from the game seed
(drawn from the environment's generator, which ``reset(seed=...)`` seeds), so a seed fixes the
episode exactly, as it fixes a game of ``pacman-arena --seed``; ``info["seed"]`` is that game
seed. The start (a maze of a list, random start cells: :mod:`pacman.envs.starts`) is drawn
from the same generator, before the game seed.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from pacman.engine.directions import ACTIONS, STOP
from pacman.envs.aec import DEFAULT_MAX_MOVES, action_name, game_setup
from pacman.envs.observation import ACTION_INDEX, Observer
from pacman.envs.options import (DEFAULT_ILLEGAL_ACTION, DEFAULT_ILLEGAL_REWARD,
                                 DEFAULT_OBSERVATION, Encoding, check_illegal_action)
from pacman.envs.rendering import RENDER_MODES, Screen
from pacman.envs.starts import MazeArgument, Starts, maze_list
from pacman.engine.game import agent_rng
from pacman.engine.state import GameState

#: Game seeds drawn at reset lie below this bound.
SEED_BOUND = 2**31


class PacmanEnv(gymnasium.Env):
    """Pacman against ghosts named as ``--ghosts`` names them (one name, or one per ghost).

    ``ghost_options`` are ``key=value`` options for every ghost agent, as ``--ghost-opt``;
    ``observation``, ``cell_pixels``, ``illegal_action`` and ``illegal_reward`` are described in
    :mod:`pacman.envs.options`.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 10}

    def __init__(self, layout: MazeArgument = "small_classic",
                 ghosts: str | Sequence[str] = "directional", num_ghosts: int | None = None,
                 max_moves: int | None = DEFAULT_MAX_MOVES, render_mode: str | None = None,
                 ghost_options: Mapping[str, str] | None = None, *,
                 observation: str = DEFAULT_OBSERVATION, cell_pixels: int | None = None,
                 illegal_action: str = DEFAULT_ILLEGAL_ACTION,
                 illegal_reward: float = DEFAULT_ILLEGAL_REWARD, random_starts: bool = False
                 ) -> None:
        from pacman.lineup.build import lineup

        names = [g.strip() for g in ghosts.split(",")] if isinstance(ghosts, str) else list(ghosts)
        if num_ghosts is None and len(names) > 1:
            num_ghosts = len(names)
        mazes = maze_list(layout)
        self.layout, count = game_setup(mazes[0], num_ghosts, max_moves, render_mode)
        self.starts = Starts(mazes, count, random_starts)
        self.ghost_specs = lineup(self.layout, "random", names, count, None, ghost_options)[1:]
        check_illegal_action(illegal_action, illegal_reward)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.observer: Observer = self.starts.observer(self.layout)
        self.encoding = Encoding(observation, self.observer.shape, cell_pixels)
        self.observation_space = self.encoding.space
        self.action_space = spaces.Discrete(len(ACTIONS))
        self.game = GameState.initial(self.layout, count)
        self.moves = 0
        self.seed_of_game = 0
        #: How the episode ended (``None`` while it goes on): see :mod:`pacman.envs.options`.
        self.outcome: str | None = None
        self.illegal_actions = 0
        self._ghosts: list[Any] = []
        self._screen = Screen(self.layout, ["env"] + [spec.name for spec in self.ghost_specs],
                              render_mode, self.metadata["render_fps"], "gymnasium.make")

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        start = self.starts.draw(self.np_random, options)
        self.seed_of_game = int(self.np_random.integers(SEED_BOUND))
        self.game = start
        self.layout = start.layout
        self.observer = self.starts.observer(self.layout)
        self.moves = 0
        self.illegal_actions = 0
        self.outcome = str(start.outcome) if start.outcome is not None else None
        self._ghosts = [spec.build(index, agent_rng(self.seed_of_game, index))
                        for index, spec in enumerate(self.ghost_specs, start=1)]
        for ghost in self._ghosts:
            start_game = getattr(ghost, "start_game", None)
            if callable(start_game):
                start_game(self.game)
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info(False)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        name = action_name(action)
        game = self.game
        before = game.score
        illegal = name not in game.legal_actions(0)
        if illegal:
            self.illegal_actions += 1
            if self.illegal_action == "end":
                self.outcome = "draw"
                return self._observation(), self.illegal_reward, True, False, self._info(True)
            name = STOP
        game = game.successor(name, 0)
        self.moves += 1
        while game.outcome is None and game.turn != 0:
            game = game.successor(self._ghosts[game.turn - 1].get_action(game))
        self.game = game
        terminated = game.outcome is not None
        truncated = (not terminated and self.max_moves is not None
                     and self.moves >= self.max_moves)
        if terminated:
            self.outcome = str(game.outcome)
        elif truncated:
            self.outcome = "truncated"
        if self.render_mode == "human":
            self.render()
        return (self._observation(), float(game.score - before), terminated, truncated,
                self._info(illegal))

    def action_masks(self) -> np.ndarray:
        """Pacman's legal actions now, as booleans in action order (``MaskablePPO``'s
        protocol; Stop only once the game is over)."""
        return self.observer.action_mask(self.game, 0).astype(bool)

    def get_keys_to_action(self) -> dict[tuple[int, ...], int]:
        """The arrow keys and W, A, S, D to North, West, South, East, and the space bar to
        Stop, as ``gymnasium.utils.play.play`` reads them."""
        from pacman.display._pygame import pygame

        keys = {"North": (pygame.K_UP, ord("w")), "South": (pygame.K_DOWN, ord("s")),
                "East": (pygame.K_RIGHT, ord("d")), "West": (pygame.K_LEFT, ord("a")),
                "Stop": (pygame.K_SPACE,)}
        return {(key,): ACTION_INDEX[action] for action, codes in keys.items() for key in codes}

    def _observation(self) -> Any:
        mask = self.observer.action_mask(self.game, 0) if self.encoding.mask_in_observation \
            else None
        return self.encoding.encode(self.observer.observe(self.game, 0), mask)

    def _info(self, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self.observer.action_mask(self.game, 0),
                "seed": self.seed_of_game, "score": self.game.score, "moves": self.moves,
                "outcome": self.outcome, "illegal_action": illegal,
                "illegal_actions": self.illegal_actions}

    def render(self) -> str | np.ndarray | None:
        return self._screen.render(self.game, self.moves)

    def close(self) -> None:
        self._screen.close()
