"""Locking the grader's files away from the user that runs submissions.

Run once, as root, by the Gradescope bundle's ``setup.sh`` after it installed the project:
``python -m pacman.grading.lockdown BUNDLE``. Every file of the installed ``pacman`` package
(its ``agents`` and ``layouts`` included) becomes readable by root alone, except the engine modules a worker imports
(:data:`pacman.grading.policy.WORKER_MODULES`); so do the shipped assignments (their hidden tests'
seeds and trees) and the whole bundle folder (its copy of the project and its
``assignment.toml``). Workers run as an unprivileged user (:func:`pacman.contained.jail.unprivileged_user`),
so what they cannot read is decided by the kernel's permissions, with or without bubblewrap,
whatever the submission's code does inside its own process.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from pacman.grading.policy import PROJECT, WORKER_MODULES

#: Folders of the installed project whose files are locked, but for :data:`WORKER_MODULES`. In a
#: source checkout ``pacman/agents`` is a link to ``agents/``; the walk follows it.
LOCKED_PACKAGES = ("pacman",)


def _allowed(relative: str) -> bool:
    return any(relative == m or relative.startswith(m.rstrip("/") + "/") for m in WORKER_MODULES)


def lock_project(root: Path = PROJECT) -> list[Path]:
    """Make every file of ``root``'s locked packages root-only (mode 0600) unless a worker
    needs it; return the files locked. Folders stay traversable (a worker imports files in
    them); an allowed module's compiled cache stays readable with it."""
    locked = []
    for package in LOCKED_PACKAGES:
        for path in sorted(_files_under(root / package)):
            if not path.is_file() or path.is_symlink():
                continue
            relative = path.relative_to(root).as_posix()
            source = _source_of(relative)
            if _allowed(source):
                continue
            path.chmod(stat.S_IRUSR | stat.S_IWUSR)
            locked.append(path)
    return locked


def _files_under(folder: Path) -> list[Path]:
    return [Path(where) / name for where, _, names in os.walk(folder, followlinks=True) for name in names]


def _source_of(relative: str) -> str:
    """The module a compiled cache file belongs to (``a/__pycache__/b.cpython-311.pyc`` ->
    ``a/b.py``), else ``relative`` itself."""
    parts = relative.split("/")
    if len(parts) >= 2 and parts[-2] == "__pycache__" and parts[-1].endswith(".pyc"):
        return "/".join([*parts[:-2], parts[-1].split(".")[0] + ".py"])
    return relative


def lock_folder(folder: Path) -> None:
    """Make ``folder`` reachable by its owner (root) alone."""
    folder.chmod(stat.S_IRWXU)


def main(argv: list[str] | None = None) -> int:
    """``python -m pacman.grading.lockdown [FOLDER ...]``: lock the installed project and each
    ``FOLDER`` (the bundle). Must run as root, the owner of the files."""
    folders = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if os.geteuid() != 0:
        print("lockdown: run as root (the grader's files must belong to root)", file=sys.stderr)
        return 2
    if (PROJECT / "pyproject.toml").exists():
        print(f"lockdown: {PROJECT} is a source checkout, not an installed copy: refusing to "
              "lock it (run the installed grader with python -I)", file=sys.stderr)
        return 2
    locked = lock_project()
    for folder in folders:
        lock_folder(folder)
    print(f"lockdown: {len(locked)} grader files under {PROJECT} readable by root only"
          + "".join(f"; {f} closed to other users" for f in folders))
    return 0


if __name__ == "__main__":
    sys.exit(main())
