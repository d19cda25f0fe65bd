"""A folder of submissions as a cup's entrants, and the class each entrant plays.

The entries are the gradebook's (:func:`pacman.grading.submissions.entries`): a student's
file, a folder (its ``multiAgents.py``, one nested as on GitHub, or its Python files), each
named by its full file or folder name. An entry with nothing to play (an empty file, an
archive) is an entrant marked with the gradebook's status; it plays no game.

Which class an entrant plays is read from its source with :mod:`ast` (the file never runs
in this process): the class the cup's settings name; by default ``ContestAgent`` where the
file defines one (the classic mini-contest's class), else its ``ExpectimaxAgent`` with its
own ``betterEvaluationFunction`` (``better_evaluation`` for the native API) when it has one.
:attr:`Entrant.plays` says which, in words.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping

from pacman.errors import ConfigurationError
from pacman.grading.submissions import entries, python2_reason
from pacman.tournament.config import Side

#: The classic mini-contest's class, played where a file defines it.
CONTEST_CLASS = "ContestAgent"
#: The class played otherwise, with the evaluation below.
FALLBACK_CLASS = "ExpectimaxAgent"
#: The classic evaluation the fallback plays with (``evalFn``), and the native one
#: (``evaluation``).
CLASSIC_EVALUATION = "betterEvaluationFunction"
NATIVE_EVALUATION = "better_evaluation"


@dataclass(frozen=True)
class Entrant:
    """One entry of the folder. ``pacman`` is the agent name it plays (``FILE.py:Class``),
    ``None`` when it plays nothing; ``status`` says why then (empty: it plays). ``ghosts``
    names its ghost team in a two-sided cup."""

    id: str
    path: Path
    pacman: str | None
    pacman_options: Mapping[str, str] = field(default_factory=dict)
    plays: str = ""
    ghosts: str | None = None
    ghost_options: Mapping[str, str] = field(default_factory=dict)
    status: str = ""

    @property
    def playing(self) -> bool:
        return not self.status

    def marked(self, status: str) -> Entrant:
        """This entrant, marked with ``status`` and playing nothing."""
        return Entrant(self.id, self.path, None, {}, self.plays, None, {}, status)


def top_level_names(path: Path) -> set[str]:
    """The names ``path`` binds at its top level (classes, functions, imports, assignments),
    read with :mod:`ast`; raises :class:`ConfigurationError` saying why it does not load."""
    reason = python2_reason(path)
    if reason is not None:
        raise ConfigurationError(reason)
    try:
        tree = ast.parse(path.read_bytes(), filename=path.name)
    except OSError as error:
        raise ConfigurationError(f"cannot be read ({error.strerror or error})") from None
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        raise ConfigurationError(f"not valid Python ({f'line {line}: ' if line else ''}"
                                 f"{getattr(error, 'msg', error)})") from None
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _files(target: Path) -> list[Path]:
    if target.is_file():
        return [target]
    return [p for p in sorted(target.iterdir())
            if p.suffix == ".py" and p.is_file() and not p.name.startswith((".", "_"))]


def _defining(target: Path, name: str) -> tuple[Path, set[str]] | None:
    """The first file of ``target`` (a file, or a folder's Python files by name) that binds
    ``name`` at its top level, with its names."""
    for file in _files(target):
        try:
            names = top_level_names(file)
        except ConfigurationError:
            if target.is_file():
                raise
            continue
        if name in names:
            return file, names
    return None


def _pacman(target: Path, side: Side) -> tuple[str, dict[str, str], str]:
    """``(agent name, options, what it plays in words)`` for the Pacman side."""
    options = dict(side.options)
    if side.cls is not None:
        found = _defining(target, side.cls)
        if found is None:
            raise ConfigurationError(f"no class {side.cls} in the submission")
        return f"{found[0].resolve()}:{side.cls}", options, side.cls
    found = _defining(target, CONTEST_CLASS)
    if found is not None:
        return f"{found[0].resolve()}:{CONTEST_CLASS}", options, CONTEST_CLASS
    found = _defining(target, FALLBACK_CLASS)
    if found is None:
        raise ConfigurationError(f"neither {CONTEST_CLASS} nor {FALLBACK_CLASS} in the "
                                 "submission")
    file, names = found
    name = f"{file.resolve()}:{FALLBACK_CLASS}"
    if CLASSIC_EVALUATION in names:
        options.setdefault("evalFn", CLASSIC_EVALUATION)
        return name, options, f"{FALLBACK_CLASS} with its {CLASSIC_EVALUATION}"
    if NATIVE_EVALUATION in names:
        options.setdefault("evaluation", f"{file.resolve()}:{NATIVE_EVALUATION}")
        return name, options, f"{FALLBACK_CLASS} with its {NATIVE_EVALUATION}"
    return name, options, f"{FALLBACK_CLASS} with its default evaluation"


def entrant(entry_id: str, path: Path, target: Path | None, status: str, pacman: Side,
            ghost_team: Side | None) -> Entrant:
    """One entrant: what it plays, or marked with why it plays nothing."""
    if target is None:
        return Entrant(entry_id, path, None, status=status)
    try:
        agent, options, plays = _pacman(target, pacman)
        ghosts, ghost_options = None, {}
        if ghost_team is not None and ghost_team.cls is not None:
            found = _defining(target, ghost_team.cls)
            if found is None:
                raise ConfigurationError(f"no ghost team {ghost_team.cls} in the submission")
            ghosts, ghost_options = f"{found[0].resolve()}:{ghost_team.cls}", dict(ghost_team.options)
    except ConfigurationError as error:
        return Entrant(entry_id, path, None, status=f"did not load: {error}")
    return Entrant(entry_id, path, agent, options, plays, ghosts, ghost_options)


def find_entrants(folder: Path, pacman: Side, ghost_team: Side | None = None) -> list[Entrant]:
    """Every entry of ``folder`` as an entrant, sorted by id; raises
    :class:`ConfigurationError` for a folder that is not one or holds no entries."""
    if not folder.is_dir():
        raise ConfigurationError(f"{folder}: not a folder of submissions")
    try:
        found = entries(folder)
    except OSError as error:
        raise ConfigurationError(f"{folder}: cannot be read ({error.strerror or error})") from None
    if not found:
        raise ConfigurationError(f"{folder}: no submissions (Python files or folders) in it")
    return [entrant(e.student, e.path, e.target, e.status, pacman, ghost_team) for e in found]
