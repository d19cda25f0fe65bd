"""The game as a PettingZoo parallel environment: one ``step`` is one round.

Every live agent chooses an action from its observation at the start of the round; the round is
then played in turn order (Pacman, then ghost 1, 2, ...) on the AEC environment, stopping where
the game ends. Rewards are the score change of the round for Pacman and its negation for each
ghost. One case needs a rule, since a ghost's legal moves can change within a round: a ghost
that Pacman eats earlier in the same round is back at its start, where its chosen action may
lead into a wall; it then keeps its course as :func:`pacman.envs.options.replacement` says (not
counted as illegal). An action that was not legal at the start of the round is an illegal
action, handled as the AEC environment handles it (:mod:`pacman.envs.options`): by default it
is played as Stop (Pacman) or the ghost's course; with ``illegal_action="end"`` it ends the
episode and the round's reward of its mover is ``illegal_reward`` added to what the round gave
before.

Every dict a step returns (observations, rewards, terminations, truncations, infos) has the
same keys: the agents that were live when the step began. Once every agent is done, ``agents``
is empty and ``step({})`` returns five empty dicts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from pacman.envs.aec import action_name, raw_env
from pacman.envs.observation import ACTION_INDEX
from pacman.envs.options import replacement
from pacman.errors import IllegalActionError


class parallel_env(ParallelEnv):  # noqa: N801  (PettingZoo's naming convention)
    """Rounds of the game as simultaneous choices; arguments as :class:`raw_env`."""

    metadata = {**raw_env.metadata, "is_parallelizable": True}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.aec = raw_env(*args, **kwargs)
        self.render_mode = self.aec.render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []
        self.state_space = self.aec.state_space
        self._masks: dict[str, np.ndarray] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = [name for name in self.aec.agents
                       if not (self.aec.terminations[name] or self.aec.truncations[name])]
        return self._observations(), self._infos({})

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        aec = self.aec
        rewards = dict.fromkeys(self.agents, 0.0)
        illegal_before = dict(aec.illegal_counts)
        for name in self.agents:
            if aec.terminations[name] or aec.truncations[name]:
                break
            if name not in actions:
                raise IllegalActionError(f"no action for {name}; every live agent acts "
                                         "each round")
            aec.step(self._playable(name, actions[name]))
            for other in rewards:
                rewards[other] += aec.rewards[other]
        terminations = {name: aec.terminations[name] for name in self.agents}
        truncations = {name: aec.truncations[name] for name in self.agents}
        observations = self._observations()
        infos = self._infos(illegal_before)
        self.agents = [name for name in self.agents
                       if not (terminations[name] or truncations[name])]
        return observations, rewards, terminations, truncations, infos

    def _playable(self, agent: str, action: Any) -> Any:
        """``action``, unless it was legal at the start of the round and is not now (a ghost
        sent home this round): then the move :func:`replacement` gives."""
        name = action_name(action)
        index = self.aec.agent_name_mapping[agent]
        game = self.aec.game
        legal = game.legal_actions(index)
        if name in legal or not self._masks[agent][ACTION_INDEX[name]]:
            return action
        return ACTION_INDEX[replacement(index, legal, game.directions[index])]

    def _observations(self) -> dict[str, Any]:
        aec = self.aec
        self._masks = {name: aec.observer.action_mask(aec.game, aec.agent_name_mapping[name])
                       for name in self.agents}
        return {name: aec.observe(name) for name in self.agents}

    def _infos(self, illegal_before: dict[str, int]) -> dict[str, dict[str, Any]]:
        """Each agent's info, ``illegal_action`` saying whether its action of this round was
        illegal."""
        counts = self.aec.illegal_counts
        return {name: {**self.aec.infos.get(name, {}),
                       "illegal_action": counts[name] > illegal_before.get(name, counts[name])}
                for name in self.agents}

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


__all__ = ["parallel_env"]
