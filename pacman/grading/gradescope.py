"""The Gradescope autograder bundle: ``setup.sh`` and ``run_autograder`` (plus the project).

Gradescope builds an image by running ``setup.sh`` from the unpacked bundle in
``/autograder/source``, then, for every submission, runs ``run_autograder``, which must write
``/autograder/results/results.json`` from the files in ``/autograder/submission``.
:func:`write_package` writes a bundle folder holding both scripts and a copy of this project
(its source, without virtual environments, caches or outputs); zip the folder's contents and
upload the zip as the assignment's autograder.

``run_autograder`` reads three paths from the environment so that it can be tried anywhere:
``AUTOGRADER_SUBMISSION`` (default ``/autograder/submission``), ``AUTOGRADER_RESULTS``
(default ``/autograder/results/results.json``) and ``AUTOGRADER_PYTHON`` (default: the
``python3`` that ``setup.sh`` installed the project into), and ``AUTOGRADER_ARGS``, more options
of ``grade`` (such as ``--question q2``).
"""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

from pacman.errors import ConfigurationError

_PROJECT = Path(__file__).resolve().parents[2]
_SKIP = (".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".hypothesis", "*.egg-info",
         "*-grades", "results", "experiments", "build", "dist", ".mypy_cache", ".ruff_cache")

SETUP = """#!/usr/bin/env bash
# Gradescope image setup: install the grader (this bundle's copy of the project).
set -euo pipefail
cd "$(dirname "$0")"
apt-get update -qq && apt-get install -y -qq python3 python3-pip python3-venv bubblewrap || true
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install -q ./project
"""

RUN = """#!/usr/bin/env bash
# Grade the submission into Gradescope's results.json.
set -uo pipefail
SUBMISSION="${{AUTOGRADER_SUBMISSION:-/autograder/submission}}"
RESULTS="${{AUTOGRADER_RESULTS:-/autograder/results/results.json}}"
PYTHON="${{AUTOGRADER_PYTHON:-/autograder/venv/bin/python}}"
mkdir -p "$(dirname "$RESULTS")"
exec "$PYTHON" -m pacman.cli grade "$SUBMISSION" --single --gradescope "$RESULTS"{assignment} ${{AUTOGRADER_ARGS:-}}
"""


def write_package(out: Path, assignment: str | None = None) -> list[Path]:
    """Write the bundle into ``out`` (created; must be empty if it exists) and return the two
    scripts. ``assignment`` (a shipped name or a TOML file, copied into the bundle) fixes the
    assignment; by default each submission is graded on the one its API calls for."""
    if out.exists() and any(out.iterdir()):
        raise ConfigurationError(f"{out}: the folder is not empty")
    try:
        out.mkdir(parents=True, exist_ok=True)
        shutil.copytree(_PROJECT, out / "project", ignore=shutil.ignore_patterns(*_SKIP))
        extra = ""
        if assignment is not None:
            source = Path(assignment)
            if source.is_file():
                shutil.copy(source, out / "assignment.toml")
                extra = ' --assignment "$(dirname "$0")/assignment.toml"'
            else:
                extra = f" --assignment {assignment}"
        scripts = [(out / "setup.sh", SETUP), (out / "run_autograder", RUN.format(assignment=extra))]
        for path, text in scripts:
            path.write_text(text, encoding="utf-8")
            path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    except OSError as error:
        raise ConfigurationError(f"{out}: cannot write the bundle ({error.strerror or error})") from None
    return [p for p, _ in scripts]
