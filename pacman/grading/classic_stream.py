"""The classic autograder's random numbers: one stream for a whole game test.

The classic course's autograder seeds Python's global :mod:`random` once (``random.seed(seed)``)
and then plays all of a test's games in a row: its random ghost and the student's agent (which
calls ``random.choice`` and the like) draw from that one stream, never re-seeded between games.
A game test with ``random = "shared"`` plays the same games:

* :class:`SharedStream` is that stream, a :class:`random.Random` seeded with the test's seed
  (exactly what ``random.seed(seed)`` gives the global generator), held by the grader;
* :class:`ClassicRandomGhost` draws from it exactly as the classic random ghost does (one
  ``random()`` per move, scanned over its legal actions sorted by name), even when it has a
  single legal action (a scared ghost between two cells);
* the submission's process gets the stream with each request (its whole state at a game's
  start, then the number of words the ghosts drew since), sets its global ``random`` to it
  before calling the agent and answers how many 32-bit words the agent drew
  (:class:`pacman.compat.random_state.LentRandom`): every draw of :mod:`random` consumes whole
  words, so the state it left is reachable from the one it was lent by drawing ``k`` words, and
  the grader draws the same ``k`` (at most :data:`MAX_WORDS_PER_CALL`). A state that is not
  reachable (the submission seeded or set the generator) or an answer that is not such a count
  is refused: the stream goes on from the grader's own state and the test says so once; from
  then on the submission's draws are its own.

The submission's answer need not be trusted: whatever count it reports, it could have drawn
that many words. It can steer the ghost by how many numbers it draws (as it can in the classic
autograder, where it shares the very same generator), but it cannot put the generator in a
state of its choice.
"""

from __future__ import annotations

import random
from typing import Any

from pacman.compat.random_state import MAX_WORDS_PER_CALL, encode_state

#: What the test's output says when the submission's state is refused.
RESEEDED = ("the submission reseeded Python's random numbers (or drew more than "
            f"{MAX_WORDS_PER_CALL} of them in one move); its games no longer follow the classic "
            "autograder's")

class SharedStream:
    """The test's one random stream: the grader's generator, lent to the submission for each
    of its calls (see the module docstring)."""

    def __init__(self, seed: int, bound: int = MAX_WORDS_PER_CALL) -> None:
        self.generator = random.Random(seed)
        self.bound = bound
        self.shared = True      # False once the submission's state was refused
        self.refused = False    # True once, for the test's output
        self.synced = False     # whether the submission's process holds the stream's state
        self.pending = 0        # words drawn here since the submission's process last had it

    def lend(self, whole: bool = False) -> dict[str, Any] | None:
        """What to send with a request: the whole state (``whole``, or when the submission's
        process may not hold it), else the words drawn here since; ``None`` once sharing
        stopped."""
        if not self.shared:
            return None
        if whole or not self.synced:
            lent: dict[str, Any] = {"state": encode_state(self.generator.getstate())}
        else:
            lent = {"advance": self.pending}
        self.pending = 0
        return lent

    def take_back(self, returned: Any) -> None:
        """Continue from the submission's draws: ``returned`` says how many words it drew
        (``{"words": k}``; ``k`` at most the bound). ``k`` ``None`` (its state is not reachable:
        it seeded or set its generator) or anything else stops the sharing."""
        if not self.shared:
            return
        words = returned.get("words", -1) if isinstance(returned, dict) else -1
        if isinstance(words, bool) or not isinstance(words, int) or not 0 <= words <= self.bound:
            self.shared, self.refused = False, True
            return
        if words:
            self.generator.getrandbits(32 * words)
        self.synced = True

    def lost(self) -> None:
        """The submission's process did not answer (it will get the whole state next time)."""
        self.synced = False

    def random(self) -> float:
        """One draw, as ``random.random()`` of the classic autograder (two words)."""
        self.pending += 2
        return self.generator.random()


class ClassicRandomGhost:
    """The classic random ghost: uniform over its legal actions, drawn as the classic
    ``util.sample`` draws (the actions sorted by name, one ``random()``, a running total)."""

    def __init__(self, index: int, stream: SharedStream) -> None:
        self.index = index
        self.stream = stream

    def get_action(self, state: Any) -> str:
        actions = sorted(state.legal_actions(self.index))
        if not actions:
            return "Stop"
        share = 1.0 / float(len(actions))           # Counter.normalize
        distribution = [share] * len(actions)
        total_weight = sum(distribution)
        if total_weight != 1:                       # sample() normalises again
            distribution = [p / float(total_weight) for p in distribution]
        choice = self.stream.random()
        i, total = 0, distribution[0]
        while choice > total and i + 1 < len(distribution):
            i += 1
            total += distribution[i]
        return actions[i]


class SteppedStream:
    """The classic position test's random numbers: the classic grading Pacman seeds Python's
    ``random`` with ``seed + k`` after its ``k``-th move (``random.seed(self.seed +
    self.stepCount)``), so the ghosts' draws after that move come from a fresh stream seeded
    with ``seed + k``, whatever the student's agent drew while it searched."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.generator = random.Random(seed)

    def reseed(self, steps: int) -> None:
        """As ``random.seed(seed + steps)``, after Pacman's ``steps``-th move."""
        self.generator.seed(self.seed + steps)

    def random(self) -> float:
        return self.generator.random()


def classic_sample(weights: dict[str, float], stream: Any) -> str:
    """One action drawn from ``weights`` (action to weight, in the order the classic ghost built
    them) as the classic ``util.sample`` draws: normalised in that order, sorted by action name,
    normalised again if the sum is not exactly 1, one ``random()``, a running total."""
    total_count = float(sum(weights.values()))               # Counter.normalize
    if total_count != 0:
        weights = {a: w / total_count for a, w in weights.items()}
    actions = sorted(weights)
    distribution = [weights[a] for a in actions]
    if sum(distribution) != 1:                                # sample() normalises again
        total = float(sum(distribution))
        distribution = [p / total for p in distribution]
    choice = stream.random()
    i, running = 0, distribution[0]
    while choice > running and i + 1 < len(distribution):
        i += 1
        running += distribution[i]
    return actions[i]


class ClassicDirectionalGhost:
    """The classic directional ghost: with probability 0.8 (spread over the ties) it takes a move
    that brings it closest to Pacman (farthest while scared, moving half a cell), else any legal
    move; the distribution is built over its legal actions in the classic order and drawn by
    :func:`classic_sample` from ``stream``. Positions and distances are the classic engine's
    (a scared ghost between cells is half way, :func:`pacman.engine.rules.agent_xy`)."""

    def __init__(self, index: int, stream: Any, prob_attack: float = 0.8,
                 prob_scared_flee: float = 0.8) -> None:
        self.index = index
        self.stream = stream
        self.prob_attack = prob_attack
        self.prob_scared_flee = prob_scared_flee

    def get_action(self, state: Any) -> str:
        from pacman.compat.state import CLASSIC_ORDER
        from pacman.engine.directions import VECTORS
        from pacman.engine.rules import agent_xy

        legal = sorted(state.legal_actions(self.index), key=CLASSIC_ORDER.index)
        if not legal:
            return "Stop"
        scared = state.scared_timers[self.index - 1] > 0
        speed = 0.5 if scared else 1
        x, y = agent_xy(state, self.index)
        px, py = agent_xy(state, 0)
        distances = [abs(x + VECTORS[a][0] * speed - px) + abs(y + VECTORS[a][1] * speed - py)
                     for a in legal]
        best_score = max(distances) if scared else min(distances)
        best_prob = self.prob_scared_flee if scared else self.prob_attack
        best = [a for a, d in zip(legal, distances) if d == best_score]
        weights: dict[str, float] = {}
        for a in best:
            weights[a] = weights.get(a, 0) + best_prob / len(best)
        for a in legal:
            weights[a] = weights.get(a, 0) + (1 - best_prob) / len(legal)
        return classic_sample(weights, self.stream)
