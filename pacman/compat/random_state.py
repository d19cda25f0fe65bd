"""Python's :mod:`random` state as JSON data, and how far one state is from another.

The grader lends its random stream to the submission's process with each request and takes
it back after (see :mod:`pacman.grading.classic_stream`); this module is what both sides need:
:func:`encode_state` / :func:`decode_state` carry a :meth:`random.Random.getstate` compactly
(625 numbers as base64 of 32-bit words, about 3.4 kB), and :func:`words_between` says whether
one state follows from another by drawing 32-bit words. Every draw of :mod:`random`
(``random()``, ``choice``, ``randint``, ``shuffle``, ``uniform``, ``getrandbits``...) consumes
whole words of the Mersenne Twister, whose state is its 624 words and a position, so a state
some draws lead to is one that drawing ``k`` words leads to.
"""

from __future__ import annotations

import base64
import random
import sys
from array import array
from typing import Any

#: Words (32 bits) a submission may draw in one call before its state counts as unreachable.
MAX_WORDS_PER_CALL = 1 << 22

_WORDS = 624                 # the Mersenne Twister's words; its state adds a position (0-624)
_STATE_VERSION = 3           # random.Random.VERSION


def encode_state(state: tuple[Any, ...]) -> dict[str, Any]:
    """A :meth:`random.Random.getstate` as compact JSON data: the 625 numbers as base64 of
    little-endian 32-bit words, and the cached Gaussian (``None`` or a float)."""
    words = array("I", state[1])  # 'I' is 32 bits on every platform the grader runs on
    raw = words.tobytes() if sys.byteorder == "little" else _swapped(words).tobytes()
    return {"words": base64.b64encode(raw).decode("ascii"), "gauss": state[2]}


def decode_state(data: Any) -> tuple[Any, ...]:
    """The :meth:`random.Random.getstate` tuple of :func:`encode_state`'s data; ``ValueError``
    if it is not one (wrong size, a position out of range, a Gaussian that is not a number)."""
    if not isinstance(data, dict) or not isinstance(data.get("words"), str):
        raise ValueError("not a random state")
    try:
        raw = base64.b64decode(data["words"], validate=True)
    except (ValueError, TypeError):
        raise ValueError("not a random state") from None
    if len(raw) != 4 * (_WORDS + 1):
        raise ValueError("not a random state")
    words = array("I")
    words.frombytes(raw)
    if sys.byteorder != "little":
        words = _swapped(words)
    gauss = data.get("gauss")
    if gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, (int, float))):
        raise ValueError("not a random state")
    if not 0 <= words[-1] <= _WORDS:
        raise ValueError("not a random state")
    return (_STATE_VERSION, tuple(words), None if gauss is None else float(gauss))


def words_between(start: tuple[Any, ...], end: tuple[Any, ...], bound: int) -> int | None:
    """How many 32-bit words a generator in state ``start`` must draw to reach ``end`` (its
    Gaussian cache aside), or ``None`` if more than ``bound`` or never."""
    if start[0] != end[0]:
        return None
    target, position = end[1][:_WORDS], end[1][_WORDS]
    words, at = start[1][:_WORDS], start[1][_WORDS]
    if words == target and position >= at:  # the same block of words: no need to step
        return position - at if position - at <= bound else None
    generator = random.Random(0)
    generator.setstate(start)
    drawn = 0
    while drawn <= bound:
        if words == target and position >= at:
            k = drawn + position - at
            return k if k <= bound else None
        # draw to the end of this block and one more word: the generator regenerates its words
        step = _WORDS - at + 1
        generator.getrandbits(32 * step)
        drawn += step
        state = generator.getstate()[1]
        words, at = state[:_WORDS], state[_WORDS]
    return None


def _swapped(words: array) -> array:
    copy = array(words.typecode, words)
    copy.byteswap()
    return copy


class LentRandom:
    """The grader's random stream as the global :mod:`random` while the submission runs: the
    submission's side of :class:`pacman.grading.classic_stream.SharedStream`.

    A request carries either the stream's whole state (``{"state": ...}``, see
    :func:`encode_state`) or how many words the grader drew since the state this process last
    had (``{"advance": n}``). After the call :meth:`reply` says how many words the submission
    drew (``{"words": k}``, ``k`` ``None`` if its state is not reachable within
    :data:`MAX_WORDS_PER_CALL` words: it seeded or set the generator). Nothing here needs to be
    trusted: whatever ``k`` a submission reports, it could as well have drawn that many words.
    """

    #: The global generator's state after the last call (the base of the next ``advance``).
    kept: tuple[Any, ...] | None = None

    def __init__(self, data: Any) -> None:
        self.data = data
        self.start: tuple[Any, ...] | None = None
        self.drawn: int | None = None

    def __enter__(self) -> LentRandom:
        if self.data is None:
            return self
        if "state" in self.data:
            random.setstate(decode_state(self.data["state"]))
        elif LentRandom.kept is not None:
            random.setstate(LentRandom.kept)
            advance = int(self.data.get("advance", 0))
            if advance > 0:
                random.getrandbits(32 * advance)
        self.start = random.getstate()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.finish()

    def finish(self) -> None:
        if self.start is None or self.drawn is not None:
            return
        end = random.getstate()
        LentRandom.kept = end
        self.drawn = words_between(self.start, end, MAX_WORDS_PER_CALL)
        self.drawn = -1 if self.drawn is None else self.drawn

    def reply(self) -> dict[str, Any]:
        """The reply's ``random`` entry (none when the request lent no stream)."""
        if self.start is None:
            return {}
        self.finish()
        return {"random": {"words": None if self.drawn == -1 else self.drawn}}
