"""Implicit uniform random game trees for benchmarks and scaling experiments.

The tree is never stored: a state is ``(index, ply)`` where the root is
``(0, 0)`` and child ``i`` of node ``n`` is ``n * b + i + 1`` (heap
numbering).  Leaf values and static evaluations are fixed pseudo-random
integers derived from the index and the seed, so the same tree can be
searched many times and by different algorithms.
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import Game, NodeKind

_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    # splitmix64 finaliser: a cheap, well-spread hash of the node index.
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class UniformTree(Game[tuple, int]):
    """A uniform tree of branching ``b`` and ``height`` plies.

    Ply ``k`` is a MAX node when ``k`` is even and a MIN node when odd, except
    that with ``chance_every=m`` every ``m``-th ply (``k % m == m - 1``) is a
    uniform CHANCE node.  Leaf values and evaluations are integers in
    ``[-spread, spread]``.  Every ply is a depth unit.
    """

    def __init__(self, b: int, height: int, seed: int = 0, spread: int = 1000, chance_every: int | None = None) -> None:
        if b < 1 or height < 0:
            raise ValueError("need b >= 1 and height >= 0")
        self.b = b
        self.height = height
        self.seed = seed
        self.spread = spread
        self.chance_every = chance_every
        self._actions = tuple(range(b))
        self._salt = _mix(seed) & 0xFFFFFFFF

    root: tuple = (0, 0)

    def kind(self, state: tuple) -> NodeKind:
        ply = state[1]
        m = self.chance_every
        if m is not None and ply % m == m - 1:
            return NodeKind.CHANCE
        return NodeKind.MAX if ply % 2 == 0 else NodeKind.MIN

    def is_end(self, state: tuple) -> bool:
        return state[1] >= self.height

    def utility(self, state: tuple) -> int:
        return _mix(state[0] ^ self._salt) % (2 * self.spread + 1) - self.spread

    def evaluate(self, state: tuple) -> int:
        return _mix(state[0] ^ self._salt ^ 0x5555) % (2 * self.spread + 1) - self.spread

    def actions(self, state: tuple) -> Sequence[int]:
        return self._actions

    def successor(self, state: tuple, action: int) -> tuple:
        return (state[0] * self.b + action + 1, state[1] + 1)

    def ends_depth_unit(self, state: tuple) -> bool:
        return True

    def state_key(self, state: tuple) -> int:
        return state[0]
