"""A chunk of a batch's games, played on one worker: what every backend (local processes, a
Dask cluster) runs there."""

from __future__ import annotations

from collections.abc import Sequence

from pacman.batch.jobs import GameJob, play_job
from pacman.batch.store import record_line
from pacman.contained.process import keep_processes
from pacman.engine.outcome import Outcome


def play_chunk(jobs: Sequence[tuple[int, GameJob]]) -> list[str]:
    """Play ``(index, job)`` pairs one after another and return their store lines (JSON,
    newline-ended; ``index`` is the job's position in the batch).

    What every backend runs on its workers. An interrupted game (Ctrl-C reached the worker)
    is not a finished game: it raises ``KeyboardInterrupt`` instead of being returned.
    """
    lines = []
    with keep_processes():  # a contained agent's process plays the worker's games
        for index, job in jobs:
            result = play_job(job)
            if result.outcome == Outcome.INTERRUPTED:
                raise KeyboardInterrupt
            lines.append(record_line(job, result, index))
    return lines
