"""Stochastic policies, playouts and Monte Carlo evaluation (the Games I notes).

A policy is a callable ``policy(state, rng) -> action``; all randomness
comes from the ``random.Random`` passed in.  Chance states are always
sampled from the game's own probabilities.

Seed 000 approximates the game value under two stochastic policies by
simulating ``n`` paths and averaging their utilities; with a playout cap
the path stops after that many moves and is scored by the evaluation
function instead.  :class:`MonteCarloEvaluator` packages this as an
evaluation function that depth-limited searches accept as ``evaluate=``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from .game import Game, NodeKind

Policy = Callable[[Any, random.Random], Any]


def uniform_policy(game: Game) -> Policy:
    """A policy choosing uniformly among the legal actions."""
    actions = game.actions

    def policy(state: Any, rng: random.Random) -> Any:
        acts = actions(state)
        return acts[rng.randrange(len(acts))]

    return policy


def sample_outcome(game: Game, state: Any, rng: random.Random) -> Any:
    """An action of a CHANCE state drawn from the game's probabilities."""
    acts = game.actions(state)
    probs = game.probabilities(state)
    r = rng.random()
    acc = 0.0
    for a, p in zip(acts, probs):
        acc += p
        if r < acc:
            return a
    return acts[-1]  # rounding left r above the running sum


class PlayoutCounts:
    """Work done by playouts (successors generated, leaves valued)."""

    __slots__ = ("generated", "terminal_utilities", "static_evaluations")

    def __init__(self) -> None:
        self.generated = 0
        self.terminal_utilities = 0
        self.static_evaluations = 0


def playout(
    game: Game,
    state: Any,
    policies: Mapping[NodeKind, Policy],
    rng: random.Random,
    *,
    max_moves: int | None = None,
    evaluate: Callable[[Any], float] | None = None,
    counts: PlayoutCounts | None = None,
) -> float:
    """Play from ``state`` with ``policies[kind]`` choosing at MAX and MIN
    states until the game ends (return the utility) or ``max_moves`` moves
    were made (return ``evaluate(state)``, default ``game.evaluate``)."""
    is_end = game.is_end
    kind = game.kind
    succ = game.successor
    moves = 0
    while not is_end(state):
        if max_moves is not None and moves >= max_moves:
            if counts is not None:
                counts.static_evaluations += 1
            return (evaluate or game.evaluate)(state)
        k = kind(state)
        a = sample_outcome(game, state, rng) if k is NodeKind.CHANCE else policies[k](state, rng)
        state = succ(state, a)
        moves += 1
        if counts is not None:
            counts.generated += 1
    if counts is not None:
        counts.terminal_utilities += 1
    return game.utility(state)


class MonteCarloEvaluator:
    """Eval(s) = mean utility of ``playouts`` simulated games from ``s``.

    ``policies`` maps ``NodeKind.MAX`` / ``NodeKind.MIN`` to policies (the
    missing ones are uniform).  Playouts stop after ``max_moves`` moves and
    are then scored with ``evaluate`` (default ``game.evaluate``).  The
    ``counts`` attribute accumulates the playouts' work.
    """

    def __init__(
        self,
        game: Game,
        *,
        playouts: int,
        rng: random.Random,
        policies: Mapping[NodeKind, Policy] | None = None,
        max_moves: int | None = None,
        evaluate: Callable[[Any], float] | None = None,
    ) -> None:
        if playouts < 1:
            raise ValueError("playouts must be >= 1")
        uniform = uniform_policy(game)
        chosen = dict(policies or {})
        self.policies = {NodeKind.MAX: chosen.get(NodeKind.MAX, uniform),
                         NodeKind.MIN: chosen.get(NodeKind.MIN, uniform)}
        self.game = game
        self.playouts = playouts
        self.rng = rng
        self.max_moves = max_moves
        self.evaluate = evaluate
        self.counts = PlayoutCounts()

    def __call__(self, state: Any) -> float:
        total = 0.0
        for _ in range(self.playouts):
            total += playout(
                self.game,
                state,
                self.policies,
                self.rng,
                max_moves=self.max_moves,
                evaluate=self.evaluate,
                counts=self.counts,
            )
        return total / self.playouts
