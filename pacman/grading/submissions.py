"""What a folder of submissions holds, entry by entry, and what to grade in each entry.

A class's folder is whatever the instructor downloaded: students' Python files, folders (a
whole classic project, a GitHub-style nested ``multiagent/multiAgents.py``, an empty folder),
and things this grader does not take (zip archives, notes). :func:`entries` lists every entry
with what to grade in it or why it cannot be graded, so that the gradebook has a row for each
(:mod:`pacman.grading.batch`). Names starting with ``.`` or ``_`` (``.DS_Store``,
``__MACOSX``, ``__pycache__``) are not students and are left out.

:func:`python2_reason` recognises a Python 2 file, which Python 3 cannot load: the reason is
given to the student instead of a bare ``SyntaxError``.
"""

from __future__ import annotations

import ast
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from pacman.grading.uploads import kind_of, read_regular

#: The file a classic project is graded by.
CLASSIC_FILE = "multiAgents.py"
#: How deep a GitHub-style layout may nest the classic file (``repo/multiagent/multiAgents.py``).
NESTING = 3
_PYTHON2 = re.compile(rb"^\s*(print\s+[^\s(=.,)]|exec\s+[\"'\w]|except\s+[\w.]+\s*,\s*\w+\s*:)|"
                      rb"\bxrange\s*\(|\.has_key\s*\(|\braw_input\s*\(|\biteritems\s*\(", re.M)


@dataclass(frozen=True)
class Entry:
    """One entry of a folder of submissions: the student's id (the entry's full name), the
    file or folder to grade (``None``: nothing to grade) and the status when there is none."""

    student: str
    path: Path
    target: Path | None
    status: str = ""


def entries(folder: Path) -> list[Entry]:
    """Every entry of ``folder`` but hidden ones (see the module docstring), sorted by name."""
    found = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith((".", "_")):
            continue
        found.append(_entry(path))
    return found


def _entry(path: Path) -> Entry:
    name = path.name
    try:
        what = kind_of(path.lstat().st_mode)
        if what is not None:
            return Entry(name, path, None, f"unsupported: {what}")
        if path.is_dir():
            target = find_submission(path)
            if target is None:
                return Entry(name, path, None, "missing: no Python file in the folder")
            return Entry(name, path, target)
        if not path.is_file():
            return Entry(name, path, None, "unsupported: not a regular file or folder")
        if path.suffix == ".py":
            if not os.access(path, os.R_OK):
                return Entry(name, path, None, "unreadable: permission denied")
            if path.stat().st_size == 0:
                return Entry(name, path, None, "missing: the file is empty")
            return Entry(name, path, path)
        if path.suffix.lower() in (".zip", ".tar", ".gz", ".tgz", ".7z", ".rar"):
            return Entry(name, path, None, "unsupported: an archive; unpack it into a folder "
                                           "of the same name to grade it")
        return Entry(name, path, None, "unsupported: not a Python file or a folder")
    except OSError as error:
        return Entry(name, path, None, f"unreadable: {error.strerror or error}")


def find_submission(folder: Path) -> Path | None:
    """What to grade in a student's folder: its ``multiAgents.py``, or the only one nested at
    most :data:`NESTING` folders down; else the folder itself if it holds Python files; else
    ``None`` (nothing to grade)."""
    if _regular(folder / CLASSIC_FILE):
        return folder / CLASSIC_FILE
    nested = [p for p in _walk(folder, NESTING) if p.name == CLASSIC_FILE]
    if len(nested) == 1:
        return nested[0]
    if any(p.suffix == ".py" and _regular(p) and p.stat().st_size > 0 for p in folder.iterdir()):
        return folder
    if nested:
        return nested[0]
    return None


def _walk(folder: Path, depth: int) -> list[Path]:
    found = []
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return []
    for child in children:
        if child.name.startswith((".", "_")) or child.is_symlink():
            continue
        if child.is_dir() and depth > 0:
            found.extend(_walk(child, depth - 1))
        elif _regular(child):
            found.append(child)
    return found


def _regular(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (a link to one is not)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def python2_reason(path: Path) -> str | None:
    """Why ``path`` does not load if it is written in Python 2 (it does not parse as Python 3
    and uses Python 2's statements or names), else ``None``."""
    try:
        source = read_regular(path)
        ast.parse(source)
    except SyntaxError:
        if _PYTHON2.search(source):
            return ("the file is written in Python 2 (print statements, xrange, has_key, ...); "
                    "the course uses Python 3: port it (e.g. print(...), range) and resubmit")
    except (OSError, ValueError):
        return None
    return None
