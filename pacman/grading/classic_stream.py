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
* the submission's process gets the stream's state with each request, sets its global
  ``random`` to it before calling the agent and sends back the state after
  (:func:`encode_state`, :func:`decode_state`). The grader takes the state back only if it is
  reachable from the state it sent by drawing at most :data:`MAX_WORDS_PER_CALL` 32-bit words
  (every draw of :mod:`random` consumes whole words: the Mersenne Twister's state is its 624
  words and a position). A state that is not reachable (the submission seeded or set the
  generator, or forged the answer) is refused: the stream goes on from the grader's own state
  and the test says so once; from then on the submission's draws are its own.

The submission can still steer the ghost by how many numbers it draws (as it can in the classic
autograder, where it shares the very same generator); it cannot put the generator in a state of
its choice.
"""

from __future__ import annotations

import random
from typing import Any

from pacman.compat.random_state import decode_state, encode_state, words_between

#: Words (32 bits) a submission may draw in one call before its state is refused as unreachable.
MAX_WORDS_PER_CALL = 1 << 22
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

    def lend(self) -> dict[str, Any] | None:
        """The state to send with a request (``None`` once sharing stopped)."""
        return encode_state(self.generator.getstate()) if self.shared else None

    def take_back(self, sent: dict[str, Any] | None, returned: Any) -> None:
        """Continue from the submission's ``returned`` state if it is reachable from ``sent``;
        otherwise stop sharing (and note the refusal)."""
        if sent is None or not self.shared:
            return
        try:
            state = decode_state(returned)
        except ValueError:
            state = None
        if state is None or words_between(self.generator.getstate(), state, self.bound) is None:
            self.shared, self.refused = False, True
            return
        self.generator.setstate(state)

    def random(self) -> float:
        """One draw, as ``random.random()`` of the classic autograder."""
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
