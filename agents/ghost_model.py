"""What an expectimax Pacman expects the ghosts to do: :class:`GhostModel`.

A model is an object an agent receives, not a name: ``uniform`` (every legal move alike) or a
ghost agent's own move distribution (the Pacman slides' "informed probabilities"). Names such as
``model=directional`` become models at the boundary (:func:`pacman.lineup.ghost_model`).

Each modelled ghost gets a generator of its own, derived from the searching agent's generator
(which the game seeds from the game seed): the same game seed gives the same model draws, a
different one different draws, and the searching agent's own stream is left untouched.
"""

from __future__ import annotations

import random
from typing import Any
from collections.abc import Callable, Mapping

from pacman.errors import ConfigurationError


class GhostModel:
    """``uniform`` (``factory`` ``None``), or the distribution of the ghost agent
    ``factory(index=ghost, rng=..., **options)``, which must have a ``distribution`` method.
    ``name`` is how the model is shown."""

    __slots__ = ("name", "factory", "options")

    def __init__(self, name: str = "uniform", factory: Callable[..., Any] | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        if factory is not None and not hasattr(factory, "distribution"):
            raise ConfigurationError(f"ghost model {name!r} does not expose a move "
                                     "distribution")
        if factory is None and options:
            raise ConfigurationError(f"ghost model {name!r} takes no options")
        self.name = name
        self.factory = factory
        self.options = dict(options or {})

    @property
    def uniform(self) -> bool:
        """Whether every legal ghost move is taken as equally likely."""
        return self.factory is None

    def build(self, ghost: int, rng: random.Random) -> Any:
        """The model agent of ghost ``ghost`` (agent index), drawing from ``rng``."""
        if self.factory is None:
            raise ValueError("the uniform model has no agent")
        return self.factory(index=ghost, rng=rng, **self.options)

    def __repr__(self) -> str:
        return f"GhostModel({self.name!r})"


#: Every legal ghost move alike.
UNIFORM = GhostModel()


def derived_seed(rng: random.Random) -> int:
    """A 64-bit seed fixed by ``rng``'s current state, without drawing from ``rng``."""
    probe = random.Random()
    probe.setstate(rng.getstate())
    return probe.getrandbits(64)


def model_rng(seed: int, ghost: int) -> random.Random:
    """The generator of the model of ghost ``ghost`` under the derived ``seed``."""
    return random.Random(f"ghost-model:{seed}:{ghost}")


__all__ = ["GhostModel", "UNIFORM", "derived_seed", "model_rng"]
