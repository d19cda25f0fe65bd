"""The project's exception hierarchy.

Every error a user can cause derives from :class:`PacmanError`; its message is written to be
printed as one line by the command-line interface, so it names the file, the option or the agent
at fault and says what is wrong. Errors about a value given by the caller (a recording, a ghost
count) are also :class:`ValueError`, so code that catches ``ValueError`` keeps working.

The modules that raise these errors re-export them under the same names (``pacman.engine.recording.
RecordError``, ``pacman.batch.runner.BatchError``, ``pacman.batch.store.StoreError``,
``pacman.engine.game.ReplayError``). The search library (:mod:`pacman.agents.search`) imports nothing from
:mod:`pacman`, so its own errors (``ChanceNodeError``, ``TreeFormatError``) stay there, as
``ValueError`` subclasses.
"""

from __future__ import annotations


class PacmanError(Exception):
    """Root of every error raised on purpose by this project."""


class LayoutError(PacmanError):
    """A maze file is malformed or cannot be found.

    ``source`` names the file (or ``<string>``); ``line`` and ``column`` are 1-based and ``None``
    when the problem concerns the whole file.
    """

    def __init__(self, source: str, message: str, line: int | None = None,
                 column: int | None = None) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.reason = message
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class ConfigurationError(PacmanError):
    """An option, agent name, evaluation name or plug-in path is invalid."""


class IllegalActionError(PacmanError):
    """An action is not legal for the agent to move in the given state."""


class GameOverError(PacmanError):
    """A successor was requested from a state in which the game has already ended."""


class GhostCountError(ConfigurationError, ValueError):
    """More ghosts were asked for than the maze has starts for (or a negative number)."""


class RecordError(PacmanError, ValueError):
    """A recorded game is malformed or does not reproduce; the message says what and where."""


#: A recording that cannot be replayed: bad, malformed or tampered (the same class).
ReplayError = RecordError


class BatchError(PacmanError):
    """A batch could not finish (a worker process died, the cluster failed)."""


class StoreError(PacmanError):
    """A results store cannot be read, written or locked."""


class NodeBudgetExceeded(BaseException):
    """Raised inside a graded agent that generates more successors than its budget allows.

    Deliberately outside :class:`PacmanError` and ``Exception``: an agent's ``except Exception``
    must not swallow it (the grader keeps its own record of the overrun in any case).
    """
