"""The lecture experiments, each one command: ``pacman-arena experiment NAME``.

Each module defines ``EXPERIMENT`` (:class:`~pacman.experiments.base.Experiment`); this package
lists them in :data:`EXPERIMENTS` and finds one by name (with suggestions for a wrong name).
"""

from __future__ import annotations

import importlib

from pacman.errors import ConfigurationError
from pacman.experiments.base import Experiment, Report, Settings, write_report
from pacman.plugins import suggest

#: Experiment name -> module, in the order ``--list`` shows them.
MODULES = {
    "thrashing": "pacman.experiments.thrashing",
    "assumptions": "pacman.experiments.assumptions",
    "coordination": "pacman.experiments.coordination",
    "depth": "pacman.experiments.depth",
    "pruning": "pacman.experiments.pruning",
    "informed": "pacman.experiments.informed",
}


def get(name: str) -> Experiment:
    """The experiment called ``name``; a :class:`ConfigurationError` suggests close names."""
    if name not in MODULES:
        raise ConfigurationError(f"unknown experiment {name!r}{suggest(name, list(MODULES))}; "
                                 "'experiment --list' lists them")
    return importlib.import_module(MODULES[name]).EXPERIMENT


def all_experiments() -> list[Experiment]:
    return [get(name) for name in MODULES]


__all__ = ["Experiment", "Report", "Settings", "write_report", "get", "all_experiments",
           "MODULES"]
