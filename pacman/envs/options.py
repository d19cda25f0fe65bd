"""What every environment accepts: actions as libraries send them, what an illegal action does,
and the observation formats.

Actions
    An action is an index into :data:`pacman.engine.directions.ACTIONS` (North, South, East, West,
    Stop): a Python ``int``, a numpy integer, or a 0-d integer array (what Stable-Baselines3's
    ``model.predict`` returns for one observation). Anything outside the action space (``7``, a
    string, a float) raises :class:`pacman.errors.IllegalActionError`.

Illegal actions (``illegal_action=``)
    An action of the space that the agent's mask forbids (into a wall; a ghost's Stop or
    reverse) never raises. With ``"stop"`` (the default, as a wall is in every grid world) the
    move is replaced: Pacman stops where he is (and pays the usual point for the move); a ghost,
    which may never stop, keeps its course: its last direction if that is legal, else its first
    legal move in North, South, East, West order. Either way the mover's info says
    ``illegal_action: True`` for that step and ``illegal_actions`` counts them over the
    episode. With ``"end"`` (the board-game convention of PettingZoo's classic games) the
    episode ends at once: every agent is terminated, the mover receives ``illegal_reward``
    (default ``-500``, the price of being caught), the others ``0``; the game itself is left
    as it was and the episode's ``outcome`` is ``"draw"``.

Ends (``info["outcome"]``, ``info["score"]``)
    Every info holds the game ``score`` and the episode's ``outcome``: ``None`` while it goes
    on, then ``"win"`` or ``"loss"`` (the game's end), ``"truncated"`` (``max_moves``
    reached) or ``"draw"`` (ended by an illegal action under ``"end"``). Once a game is over
    every agent's mask allows Stop only (never all False: libraries that mask logits need one
    allowed action even on a terminal observation).

Observation formats (``observation=``)
    ``"image"`` is the default of every environment: it is what Stable-Baselines3's
    ``CnnPolicy`` takes as it is, and a ``Box`` as SuperSuit's vector wrappers need.
    ``"planes"``: the H x W x C int8 0/1 planes of :mod:`pacman.envs.observation`;
    ``"flat"``: the same planes as one float32 vector of H*W*C values (for MLPs and
    SuperSuit's wrappers); ``"image"``: uint8 channels-first planes, 0 or 255, every cell
    drawn as a ``cell_pixels`` x ``cell_pixels`` block (Stable-Baselines3's ``CnnPolicy``;
    by default the smallest block that makes the short side at least 36 pixels, the least
    its default network takes); ``"dict"``: ``{"observation": planes, "action_mask": mask}``.
    With any format but ``"dict"`` the action mask is in the agent's info
    (``info["action_mask"]``); the Gymnasium environment also has ``action_masks()``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from gymnasium import spaces

from pacman.engine.directions import ACTIONS
from pacman.errors import ConfigurationError, IllegalActionError
from pacman.engine.rules import LOSE_PENALTY

ILLEGAL_ACTIONS = ("stop", "end")
#: What an illegal action does unless told otherwise.
DEFAULT_ILLEGAL_ACTION = "stop"
#: The observation format of every environment unless told otherwise.
DEFAULT_OBSERVATION = "image"
#: The reward of the agent whose illegal action ends the episode, unless told otherwise.
DEFAULT_ILLEGAL_REWARD = -float(LOSE_PENALTY)
OBSERVATION_FORMATS = ("planes", "flat", "image", "dict")
#: The least side, in pixels, of Stable-Baselines3's default image network (NatureCNN).
MIN_IMAGE_SIDE = 36


def action_index(action: Any) -> int:
    """``action`` as an index of :data:`ACTIONS`; a clear error for anything outside the
    space."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        if 0 <= action < len(ACTIONS):
            return int(action)
    raise IllegalActionError(f"an action is an index 0 to {len(ACTIONS) - 1} "
                             f"({', '.join(ACTIONS)}), got {action!r}")


def check_illegal_action(mode: str, reward: float) -> None:
    """A clear error for an unknown ``illegal_action`` mode or a reward that is not a number."""
    if mode not in ILLEGAL_ACTIONS:
        raise ConfigurationError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                                 f"got {mode!r}")
    if isinstance(reward, bool) or not isinstance(reward, (int, float)) or not math.isfinite(reward):
        raise ConfigurationError(f"illegal_reward must be a finite number, got {reward!r}")


def replacement(agent: int, legal: tuple[str, ...], last: str) -> str:
    """The action played instead of an illegal one with ``illegal_action="stop"``: Stop for
    Pacman; for a ghost its ``last`` direction if legal, else its first legal move."""
    if agent == 0:
        return "Stop"
    return last if last in legal else legal[0]


class Encoding:
    """One observation format for planes of ``shape`` (H, W, C): its space and its encoder."""

    def __init__(self, name: str, shape: tuple[int, int, int], cell_pixels: int | None = None
                 ) -> None:
        if name not in OBSERVATION_FORMATS:
            raise ConfigurationError(f"observation must be one of "
                                     f"{', '.join(OBSERVATION_FORMATS)}, got {name!r}")
        if cell_pixels is not None and (isinstance(cell_pixels, bool)
                                        or not isinstance(cell_pixels, int) or cell_pixels < 1):
            raise ConfigurationError(f"cell_pixels must be a whole number of at least 1, "
                                     f"got {cell_pixels!r}")
        height, width, count = shape
        self.name = name
        self.scale = cell_pixels or max(1, math.ceil(MIN_IMAGE_SIDE / min(height, width)))
        planes = spaces.Box(0, 1, shape, dtype=np.int8)
        if name == "planes":
            self.space: spaces.Space = planes
        elif name == "flat":
            self.space = spaces.Box(0.0, 1.0, (height * width * count,), dtype=np.float32)
        elif name == "image":
            self.space = spaces.Box(0, 255, (count, height * self.scale, width * self.scale),
                                    dtype=np.uint8)
        else:
            self.space = spaces.Dict({
                "observation": planes,
                "action_mask": spaces.Box(0, 1, (len(ACTIONS),), dtype=np.int8)})

    @property
    def mask_in_observation(self) -> bool:
        return self.name == "dict"

    def encode(self, planes: np.ndarray, mask: np.ndarray | None = None) -> Any:
        """The observation of ``planes`` (an agent's own, which the encoder may keep) and, for
        ``"dict"``, its action ``mask``."""
        if self.name == "planes":
            return planes
        if self.name == "flat":
            return planes.reshape(-1).astype(np.float32)
        if self.name == "image":
            image = planes.transpose(2, 0, 1).astype(np.uint8) * np.uint8(255)
            if self.scale > 1:
                image = image.repeat(self.scale, axis=1).repeat(self.scale, axis=2)
            return image
        return {"observation": planes, "action_mask": mask}
