"""The game as a Gymnasium environment: Pacman alone, against ghost agents of the catalog.

``gymnasium.make("PacmanArena/Pacman-v0", layout="small_classic", ghosts="directional")``.
One step is one round: Pacman plays the action, then every ghost plays its own agent's move.
The observation is Pacman's planes (:mod:`pacman.envs.observation`); ``info["action_mask"]``
marks his legal actions. An action into a wall is played as Stop (Pacman bumps and stays), so
any action of the space is accepted; the mask says which ones move him. The reward is the
change of the game score over the round. A win or a loss terminates the episode; Pacman's
``max_moves``-th move truncates it.

The ghosts are built anew at every reset with random generators derived from the game seed
(drawn from the environment's generator, which ``reset(seed=...)`` seeds), so a seed fixes the
episode exactly, as it fixes a game of ``pacman-arena --seed``; ``info["seed"]`` is that game
seed.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from pacman.directions import ACTIONS, STOP
from pacman.envs.aec import action_name, game_setup
from pacman.envs.observation import Observer
from pacman.envs.rendering import RENDER_MODES, Screen
from pacman.game import agent_rng
from pacman.layout import Layout
from pacman.state import GameState

#: Game seeds drawn at reset lie below this bound.
SEED_BOUND = 2**31


class PacmanEnv(gymnasium.Env):
    """Pacman against ghosts named as ``--ghosts`` names them (one name, or one per ghost).

    ``ghost_options`` are ``key=value`` options for every ghost agent, as ``--ghost-opt``.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 10}

    def __init__(self, layout: Layout | str = "small_classic",
                 ghosts: str | Sequence[str] = "directional", num_ghosts: int | None = None,
                 max_moves: int | None = 1000, render_mode: str | None = None,
                 ghost_options: Mapping[str, str] | None = None) -> None:
        from pacman.lineup import lineup

        names = [g.strip() for g in ghosts.split(",")] if isinstance(ghosts, str) else list(ghosts)
        if num_ghosts is None and len(names) > 1:
            num_ghosts = len(names)
        self.layout, count = game_setup(layout, num_ghosts, max_moves, render_mode)
        self.ghost_specs = lineup(self.layout, "random", names, count, None, ghost_options)[1:]
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.observer = Observer(self.layout, count)
        self.observation_space = spaces.Box(0, 1, self.observer.shape, dtype=np.int8)
        self.action_space = spaces.Discrete(len(ACTIONS))
        self.game = GameState.initial(self.layout, count)
        self.moves = 0
        self.seed_of_game = 0
        self._ghosts: list[Any] = []
        self._screen = Screen(self.layout, ["env"] + [spec.name for spec in self.ghost_specs],
                              render_mode, self.metadata["render_fps"], "gymnasium.make")

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.seed_of_game = int(self.np_random.integers(SEED_BOUND))
        self.game = GameState.initial(self.layout, len(self.ghost_specs))
        self.moves = 0
        self._ghosts = [spec.build(index, agent_rng(self.seed_of_game, index))
                        for index, spec in enumerate(self.ghost_specs, start=1)]
        for ghost in self._ghosts:
            start_game = getattr(ghost, "start_game", None)
            if callable(start_game):
                start_game(self.game)
        if self.render_mode == "human":
            self.render()
        return self.observer.observe(self.game, 0), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        name = action_name(action)
        game = self.game
        before = game.score
        if name not in game.legal_actions(0):
            name = STOP
        game = game.successor(name, 0)
        self.moves += 1
        while game.outcome is None and game.turn != 0:
            game = game.successor(self._ghosts[game.turn - 1].get_action(game))
        self.game = game
        terminated = game.outcome is not None
        truncated = (not terminated and self.max_moves is not None
                     and self.moves >= self.max_moves)
        if self.render_mode == "human":
            self.render()
        return (self.observer.observe(game, 0), float(game.score - before), terminated,
                truncated, self._info())

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.observer.action_mask(self.game, 0),
                "seed": self.seed_of_game, "score": self.game.score, "moves": self.moves}

    def render(self) -> str | np.ndarray | None:
        return self._screen.render(self.game, self.moves)

    def close(self) -> None:
        self._screen.close()
