"""The part of a traceback a student can act on: the frames in the submission's own files.

The worker (:mod:`pacman.grading.worker`) remembers the files it loaded (:func:`remember`); for
an exception raised while the submission runs, :func:`student_traceback` keeps only the frames
of those files, named by their file name (``multiAgents.py``, line 42), with the exception's
last line, so that the student sees their file and line and none of the grader's paths.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: How a worker's line of where the submission's code is begins (in the worker's log, which
#: the grader reads when a request outlasts its limit; see :func:`pacman.grading.sandbox`).
WHERE_MARK = "@where "
#: How often a request still running past its limit says where it is (seconds).
WHERE_EVERY = 0.5
#: Frames shown at most (the innermost ones).
SHOWN_FRAMES = 8
_OWN_FILES: set[str] = set()


def remember(files: Iterable[Path]) -> None:
    """The submission's files: their frames are the ones shown."""
    _OWN_FILES.update(os.path.realpath(str(f)) for f in files)


def student_traceback(error: BaseException) -> str:
    """The frames of ``error`` in the submission's files and the exception's line, or ``""``
    when none of its frames is in them. An error the loader wrapped (its cause) is looked at
    too: the cause is the student's."""
    frames: list[traceback.FrameSummary] = []
    seen = 0
    while error is not None and not frames and seen < 5:
        frames = [f for f in traceback.extract_tb(error.__traceback__)
                  if os.path.realpath(f.filename) in _OWN_FILES]
        if not frames:
            error, seen = error.__cause__ or error.__context__, seen + 1  # type: ignore[assignment]
    if not frames or error is None:
        return ""
    lines = ["Traceback (your code, most recent call last):"]
    if len(frames) > SHOWN_FRAMES:
        lines.append(f"  ... {len(frames) - SHOWN_FRAMES} more calls of your code ...")
    for frame in frames[-SHOWN_FRAMES:]:
        lines.append(f'  File "{os.path.basename(frame.filename)}", line {frame.lineno}, in {frame.name}')
        if frame.line:
            lines.append(f"    {frame.line.strip()}")
    lines.append("".join(traceback.format_exception_only(error)).strip()[:500])
    return "\n".join(lines)


def student_place(frame: Any) -> str:
    """Where in the submission's files the stack of ``frame`` is, innermost first:
    ``"in multiAgents.py line 50, in getAction"``; ``""`` when no frame of the stack is in
    them (the grader's own code was running)."""
    while frame is not None:
        code = frame.f_code
        if os.path.realpath(code.co_filename) in _OWN_FILES:
            return f"in {os.path.basename(code.co_filename)} line {frame.f_lineno}, in {code.co_name}"
        frame = frame.f_back
    return ""
