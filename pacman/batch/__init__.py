"""Headless batches of games: seeded jobs, parallel runs, a resumable store, tables and plots.

App layer (imports both the engine and the agents). The pieces, each usable alone:

* :mod:`pacman.batch.jobs`: :class:`GameJob` (one game as data) and :func:`play_job`.
* :mod:`pacman.batch.runner`: :func:`run_jobs` (local processes or a Dask cluster).
* :mod:`pacman.batch.store`: the JSON-lines results store.
* :mod:`pacman.batch.plan`: the matrix of conditions (flags or a TOML file) into jobs.
* :mod:`pacman.batch.tables`: per-condition summaries and pairwise comparisons.
* :mod:`pacman.batch.plots`: PNG plots of summaries.
"""

from pacman.batch.jobs import GameJob, game_seed, play_job
from pacman.batch.runner import BatchError, run_jobs
from pacman.batch.store import ResultStore, StoreError, read_store

__all__ = ["GameJob", "game_seed", "play_job", "run_jobs", "BatchError", "ResultStore",
           "StoreError", "read_store"]
