"""The lecture experiments, each one command: ``pacman-arena experiment NAME``.

Each module defines ``EXPERIMENT`` (:class:`~pacman.experiments.base.Experiment`); this package
names them in :data:`EXPERIMENTS` (imported on first use) and finds one by name (with
suggestions for a wrong name).
"""

from __future__ import annotations

from pacman.experiments.base import Experiment, Report, Settings, write_report
from pacman.registry import Registry

#: Experiments by name, in the order ``--list`` shows them.
EXPERIMENTS: Registry[Experiment] = Registry("experiment", {
    name: f"pacman.experiments.{name}:EXPERIMENT"
    for name in ("thrashing", "assumptions", "coordination", "depth", "pruning", "informed")})


def get(name: str) -> Experiment:
    """The experiment called ``name``; a :class:`ConfigurationError` suggests close names."""
    if name not in EXPERIMENTS:
        raise EXPERIMENTS.unknown(name, "; 'experiment --list' lists them")
    return EXPERIMENTS[name]


def all_experiments() -> list[Experiment]:
    return EXPERIMENTS.values()


__all__ = ["Experiment", "Report", "Settings", "write_report", "get", "all_experiments",
           "EXPERIMENTS"]
