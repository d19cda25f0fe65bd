"""How reports write commands: the program name, and the commands that replay a stored game.

Every command a report prints goes through :func:`program_name`, so the name shown is changed
in one place.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from collections.abc import Sequence

from pacman.version import __version__

def program_name() -> str:
    """The program name that commands in reports start with: the name the user typed."""
    from pacman.cli import program_name as invoked_name  # the command line's own rule

    return invoked_name()


def command_line(arguments: Sequence[str]) -> str:
    """The command line ``arguments`` (without the program name), quoted for a shell."""
    return " ".join([program_name(), *(shlex.quote(str(a)) for a in arguments)])


def replay_command(store: str | Path, index: int) -> str:
    """The command that watches the game whose store record has ``"index": index``.

    ``K`` in ``--game K`` is the record's ``index`` field: the game's position in the
    experiment's batch (stable across runs and resumes), not its line in the file. The store
    is named by its absolute path, so the command works from any folder.
    """
    return command_line(["--replay", str(Path(store).resolve()), "--game", str(index)])


def software_version() -> str:
    """``pacman-arena VERSION, commit HASH`` when run from a git checkout (``+ uncommitted
    changes`` when its files differ from the commit), else the version alone."""
    folder = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10)
        if commit.returncode != 0 or not commit.stdout.strip():
            return f"pacman-arena {__version__}"
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=10)
        changed = " + uncommitted changes" if dirty.stdout.strip() else ""
        return f"pacman-arena {__version__}, commit {commit.stdout.strip()}{changed}"
    except (OSError, subprocess.SubprocessError):
        return f"pacman-arena {__version__}"
