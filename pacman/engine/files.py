"""Input files that cannot hang a command: FIFOs and sockets are refused before opening.

Opening a FIFO for reading waits for a writer, for ever if none comes; a socket cannot be
opened at all. Regular files are read as they are, and devices (``/dev/zero``) by readers
that bound what they read.
"""

from __future__ import annotations

import os
import stat

from pacman.errors import ConfigurationError, PacmanError


def check_readable_file(path: str | os.PathLike[str], what: str,
                        error: type[PacmanError] = ConfigurationError) -> None:
    """Raise ``error`` (one line naming ``path`` and ``what`` it should be) if ``path`` is a
    FIFO or a socket. A missing or unreadable path is left to the caller's own message."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        kind = "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket"
        raise error(f"{str(path)}: is {kind}, not a {what} file; save it to a file first")
