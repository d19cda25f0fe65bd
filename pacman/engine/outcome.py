"""How a game ends: the one outcome type of the project.

:class:`Outcome` is a ``StrEnum``: each member *is* its string (``Outcome.WIN == "win"``,
with the same hash), so recordings, results stores, JSON summaries and tables keep the
strings they always held, and a value read back from JSON converts with ``Outcome(text)``.
A finished :class:`~pacman.engine.state.GameState` holds ``WIN`` or ``LOSS``; a
:class:`~pacman.engine.game.GameResult` holds any member.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """The end of a game."""

    #: Pacman ate the last dot.
    WIN = "win"
    #: A ghost caught Pacman.
    LOSS = "loss"
    #: Pacman made the allowed number of moves with the game still going on.
    MOVE_LIMIT = "move_limit"
    #: An agent raised, exited or sent what is not data.
    CRASH = "crash"
    #: An agent returned an action that is not legal.
    ILLEGAL = "illegal"
    #: An agent thought past the time limit of a move.
    TIMEOUT = "timeout"
    #: The game was stopped (Ctrl-C, a window closed) before it ended.
    INTERRUPTED = "interrupted"

    @property
    def is_failure(self) -> bool:
        """Whether an agent ended the game by failing (the result then names it)."""
        return self in FAILURES


#: The outcomes in which an agent failed (``GameResult.failure`` says which agent and how).
FAILURES: tuple[Outcome, ...] = (Outcome.CRASH, Outcome.ILLEGAL, Outcome.TIMEOUT)
#: Every outcome, in the order tables list them.
OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)


def parse_outcome(text: object) -> Outcome | None:
    """The outcome named ``text``, or ``None`` if ``text`` names none (any type is accepted)."""
    if not isinstance(text, str):
        return None
    try:
        return Outcome(text)
    except ValueError:
        return None


def failure_message(what: str, error: BaseException) -> str:
    """How an agent's exception is reported: ``"ValueError: ..."`` for a move, else
    ``"start_game raised ValueError: ..."``."""
    text = f"{type(error).__name__}: {error}"
    return text if what == "get_action" else f"{what} raised {text}"


class AgentFailure(Exception):
    """An agent's failure reported exactly: an agent that runs its work elsewhere (another
    process) raises it, and the game records ``kind`` (``CRASH`` or ``TIMEOUT``),
    ``message`` and ``trace`` as that agent's outcome."""

    def __init__(self, kind: Outcome, message: str, trace: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.trace = trace
