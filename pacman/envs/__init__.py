"""Standard environments over the engine, for reinforcement learning libraries.

* :func:`env` / :class:`raw_env`: a PettingZoo AEC environment, every agent taking its turn;
* :class:`parallel_env`: the same game in rounds, as a PettingZoo parallel environment;
* ``gymnasium.make("PacmanArena/Pacman-v0", layout=..., ghosts=...)``: Pacman alone against
  ghost agents of the catalog (:class:`PacmanEnv`), registered when this package is imported.
  The registration sets no ``max_episode_steps``: the environment truncates itself at its own
  ``max_moves`` (default 1,000), so ``max_moves=2000`` plays 2,000 moves;
* ``gymnasium.make_vec("PacmanArena/Pacman-v0", num_envs=B,
  vectorization_mode="vector_entry_point", ...)``: ``B`` games stepped together by the batched
  engine (:class:`PacmanVectorEnv`, random or directional ghosts).

Actions, illegal actions and observation formats, the same in all three: :mod:`pacman.envs.options`.

They need the ``rl`` extra: ``pip install 'pacman-arena[rl]'`` (PettingZoo and Gymnasium).
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the installation
    raise ImportError(f"pacman.envs needs the rl extra ({missing.name} is not installed): "
                      "pip install 'pacman-arena[rl]'") from missing

from pacman.envs.aec import DEFAULT_MAX_MOVES, env, raw_env
from pacman.envs.observation import Observer, plane_count
from pacman.envs.parallel import parallel_env
from pacman.envs.single import PacmanEnv
from pacman.envs.vector import PacmanVectorEnv

GYMNASIUM_ID = "PacmanArena/Pacman-v0"

if GYMNASIUM_ID not in gymnasium.registry:
    gymnasium.register(id=GYMNASIUM_ID, entry_point="pacman.envs.single:PacmanEnv",
                       vector_entry_point="pacman.envs.vector:PacmanVectorEnv")

__all__ = ["env", "raw_env", "parallel_env", "PacmanEnv", "PacmanVectorEnv", "Observer", "plane_count",
           "GYMNASIUM_ID", "DEFAULT_MAX_MOVES"]
