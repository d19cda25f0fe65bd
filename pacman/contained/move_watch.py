"""Where an agent's code was when its move outlasted the limit.

A contained agent's process (:mod:`pacman.contained.child`) arms a :class:`MoveWatch` before
each move. If the move is still running when its limit passes, the watch's own thread reads
the stack of the thread running the move and hands it, formatted as a traceback, to ``say``
(which sends it to the game, whose side then ends the process); the move's own answer, should
it come later, is then not to be sent (:meth:`MoveWatch.disarm` says so). A move that ends in
time costs two lock round trips and no thread start: the watch's thread lives as long as the
process.

The stack is read between two bytecodes of the moving thread, so a move stuck inside one long
call of a C extension that holds the interpreter lock is reported only when that call returns
(the game's hard limit then ends it without a place).
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable

from pacman.contained.protocol import MAX_TRACE

#: The last line of the traceback a watch says (the place is in the lines above it).
LATE = "still thinking when the move's time limit passed"


def stack_text(thread: int) -> str:
    """The stack of thread ``thread`` as a traceback (``Traceback (most recent call last):``,
    its innermost frames within :data:`~pacman.contained.protocol.MAX_TRACE` characters, then
    :data:`LATE`); only the header and that line when it has no frame."""
    frame = sys._current_frames().get(thread)
    frames = traceback.format_list(traceback.extract_stack(frame)) if frame is not None else []
    kept: list[str] = []
    size = 0
    for text in reversed(frames):  # a deep recursion keeps its innermost calls
        size += len(text)
        if size > MAX_TRACE:
            break
        kept.append(text)
    return "Traceback (most recent call last):\n" + "".join(reversed(kept)) + LATE


class MoveWatch:
    """Calls ``say(stack_text(...))`` once if a move armed with :meth:`arm` is still running
    ``seconds`` later (see the module docstring)."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self._say = say
        self._changed = threading.Condition()
        self._deadline: float | None = None
        self._thread = 0
        self._spoke = False
        self._watcher: threading.Thread | None = None

    def arm(self, seconds: float | None) -> None:
        """Watch the calling thread's move for ``seconds`` (``None``: no limit, not watched)."""
        if seconds is None:
            return
        with self._changed:
            self._deadline = time.monotonic() + seconds
            self._thread = threading.get_ident()
            self._spoke = False
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="move-watch",
                                                 daemon=True)
                self._watcher.start()
            self._changed.notify()

    def disarm(self) -> bool:
        """Stop watching; whether the watch already said the move was late (then the game has
        its answer for this move and the move's own must not be sent)."""
        with self._changed:
            self._deadline = None
            return self._spoke

    def _watch(self) -> None:
        with self._changed:
            while True:
                if self._deadline is None:
                    self._changed.wait()
                    continue
                left = self._deadline - time.monotonic()
                if left > 0:  # a day at most a wait: a lock's wait takes no years
                    self._changed.wait(min(left, 86_400.0))
                    continue
                self._deadline = None
                self._spoke = True
                # said under the lock: the move's own answer (disarm first) cannot cross it
                self._say(stack_text(self._thread))
