"""A student's own file: classic class names given to ``-p`` run the student's class.

In a folder holding the classic course's ``multiAgents.py`` (or the file ``--student`` names),
``-p AlphaBetaAgent`` plays the ``AlphaBetaAgent`` that file defines, contained like every
agent from a file, instead of the project's own. Which classes a file defines is read with
:mod:`ast`: the file is never run in the program's process.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from pacman.errors import ConfigurationError

#: The classic course's file of multi-agent search agents, looked for in the current folder.
DEFAULT_STUDENT_FILE = "multiAgents.py"
_AGENT_METHODS = {"getAction", "get_action"}


def defined_classes(path: Path) -> list[str]:
    """The names of the classes ``path`` defines at its top level, those with an action method
    (``getAction`` or ``get_action``) first; raises :class:`ConfigurationError` for a file that
    cannot be read or parsed."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"), filename=str(path))
    except (OSError, ValueError) as error:
        raise ConfigurationError(f"{path}: cannot be read ({error})") from None
    except SyntaxError as error:
        raise ConfigurationError(f"{path}: not valid Python (line {error.lineno}: "
                                 f"{error.msg})") from None
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]

    def acts(node: ast.ClassDef) -> bool:
        return any(isinstance(item, ast.FunctionDef) and item.name in _AGENT_METHODS
                   for item in node.body)

    return [c.name for c in classes if acts(c)] + [c.name for c in classes if not acts(c)]


def student_agent(name: str, student: str | None, builtin: bool) -> str | None:
    """``FILE:NAME`` when the student's file (``student``, else :data:`DEFAULT_STUDENT_FILE`
    in the current folder) defines the class ``name``; ``None`` to use ``name`` as it is.

    ``builtin`` says whether ``name`` is a short name of the project's catalog (never
    replaced). With ``student`` given, a missing file or class is a :class:`ConfigurationError`.
    """
    name = name.strip()
    if builtin or not name.isidentifier():
        return None
    path = Path(student) if student else Path(DEFAULT_STUDENT_FILE)
    try:
        found = path.is_file()
    except (OSError, ValueError) as error:
        raise ConfigurationError(f"--student {student!r}: not a usable file name ({error})") from None
    if not found:
        if student:
            raise ConfigurationError(f"--student {student}: no such file")
        return None
    classes = defined_classes(path)
    if name in classes:
        return f"{path.resolve()}:{name}"
    if student:
        raise ConfigurationError(f"--student {student} defines no class {name!r}; it defines "
                                 f"{', '.join(classes) or 'no class'}")
    return None


def file_without_class(name: str, kind: str) -> ConfigurationError | None:
    """The error for an agent named by a Python file alone (``-p multiAgents.py``): which
    ``FILE.py:Class`` names to give instead; ``None`` for any other name."""
    name = name.strip()
    if ":" in name or not name.endswith(".py"):
        return None
    path = Path(name)
    try:
        found = path.is_file()
    except (OSError, ValueError) as error:
        return ConfigurationError(f"{kind} {name!r}: not a usable file name ({error})")
    if not found:
        return ConfigurationError(f"{kind} {name!r}: no such file")
    try:
        classes = defined_classes(path)
    except ConfigurationError as error:
        return error
    if not classes:
        return ConfigurationError(f"{kind} {name!r}: the file defines no class; give "
                                  "FILE.py:CLASS")
    shown = ", ".join(f"{name}:{c}" for c in classes[:6])
    return ConfigurationError(f"{kind} {name!r} names a file, not an agent: give one of its "
                              f"classes, {shown}")


def student_pacman(requested: str | None, default: str, student: str | None) -> str:
    """The Pacman agent ``play`` runs: a class of the student's file that ``-p`` (``requested``)
    names becomes ``FILE:Class``, said in one line on stderr; anything else is unchanged
    (``default`` when nothing is requested)."""
    from pacman.agents.catalog import PACMAN_AGENTS
    from pacman.cli import program_name

    name = requested or default
    builtin = requested is None or name.strip() in PACMAN_AGENTS
    found = student_agent(name, student, builtin=builtin)
    if found is None:
        if builtin:
            _say_builtin(name, student)
        return name
    print(f"{program_name()}: {name} from {found.rpartition(':')[0]} (contained)",
          file=sys.stderr, flush=True)
    return found


def _say_builtin(name: str, student: str | None) -> None:
    """Say on stderr that the project's own agent ``name`` plays although a student's file is
    here, and which ``-p`` would play the student's class instead."""
    from pacman.agents.catalog import CLASSIC_NAMES
    from pacman.cli import program_name

    path = Path(student) if student else Path(DEFAULT_STUDENT_FILE)
    try:
        if not path.is_file():
            return
        classes = defined_classes(path)
    except (OSError, ValueError):
        return
    except ConfigurationError:
        classes = []
    classic = {short: long for long, short in CLASSIC_NAMES["pacman"].items()}
    theirs = classic.get(name.strip())
    hint = (f"; -p {theirs} plays the {theirs} of {path.name}" if theirs in classes
            else f"; -p CLASS plays a class of {path.name}" if classes else "")
    print(f"{program_name()}: {name.strip()} is the built-in agent, not {path.name}'s"
          f"{hint}", file=sys.stderr, flush=True)
