"""The two shell scripts of the Gradescope bundle (see :mod:`pacman.grading.gradescope`).

``setup.sh`` runs once, as root, when Gradescope builds the image: it finds a Python 3.11 or
later on the image, or installs one (``uv`` from PyPI through the image's own ``pip``, then
Python 3.11 from ``uv``'s standalone builds into ``$ROOT/python``, readable by every user), makes
a virtual environment in ``$ROOT/venv``, installs the bundle's project into it and locks the
grader's files away from the unprivileged user that runs submissions
(:mod:`pacman.grading.lockdown`). Each step is one ``setup.sh:`` line of its log.

``run_autograder`` runs for each submission. Gradescope copies it to ``/autograder/`` before
running it, so it finds the bundle's files from ``$ROOT/source`` and never from its own folder.
It always leaves a ``results.json``: if the grader itself fails before writing one, a results
file with score 0 and the grader's exit code is written in its place.

``AUTOGRADER_ROOT`` (default ``/autograder``) moves the whole layout, so both scripts can be
tried anywhere; ``AUTOGRADER_SOURCE``, ``AUTOGRADER_SUBMISSION``, ``AUTOGRADER_RESULTS`` and
``AUTOGRADER_PYTHON`` move one path each; ``AUTOGRADER_ARGS`` adds options of ``grade``.
"""

from __future__ import annotations

#: The oldest Python the project runs on (``requires-python`` in ``pyproject.toml``).
MINIMUM_PYTHON = (3, 11)

SETUP = r"""#!/usr/bin/env bash
# Gradescope image setup: a supported Python, the grader in a virtual environment, bubblewrap,
# and the grader's files locked away from the user that runs submissions.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="${AUTOGRADER_ROOT:-/autograder}"
VENV="$ROOT/venv"
log() { echo "setup.sh: $*"; }
supported() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; }
version() { "$1" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo unknown; }

if command -v apt-get >/dev/null 2>&1; then
    log "apt-get: installing python3 python3-venv python3-pip bubblewrap"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        python3 python3-venv python3-pip bubblewrap; } || log "apt-get failed; going on with the image as it is"
fi

PYTHON=""
for candidate in python3.13 python3.12 python3.11 python3; do
    found="$(command -v "$candidate" 2>/dev/null || true)"
    if [ -n "$found" ] && supported "$found"; then PYTHON="$found"; break; fi
done

if [ -n "$PYTHON" ]; then
    log "using the image's Python $(version "$PYTHON") ($PYTHON)"
    "$PYTHON" -m venv "$VENV"
else
    OLD="$(command -v python3 2>/dev/null || true)"
    if [ -z "$OLD" ]; then
        log "no python3 on the image and apt-get could not install one: cannot continue"
        exit 1
    fi
    log "the image's Python $(version "$OLD") is older than 3.11: installing uv from PyPI" \
        "(pip install uv), then Python 3.11 with uv into $ROOT/python"
    "$OLD" -m pip install -q uv
    export UV_PYTHON_INSTALL_DIR="$ROOT/python"
    "$OLD" -m uv venv --quiet --python 3.11 --seed "$VENV"
    log "installed Python $(version "$VENV/bin/python") ($VENV/bin/python)"
fi

"$VENV/bin/python" -m pip install -q "$HERE/project"
log "installed the grader into $VENV"
"$VENV/bin/python" -m pacman.grading.lockdown "$HERE"
log "ready"
"""

RUN = r"""#!/usr/bin/env bash
# Grade the submission into Gradescope's results.json; a results.json is always left behind.
set -uo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
SOURCE="${{AUTOGRADER_SOURCE:-$ROOT/source}}"
SUBMISSION="${{AUTOGRADER_SUBMISSION:-$ROOT/submission}}"
RESULTS="${{AUTOGRADER_RESULTS:-$ROOT/results/results.json}}"
PYTHON="${{AUTOGRADER_PYTHON:-$ROOT/venv/bin/python}}"
mkdir -p "$(dirname "$RESULTS")"
rm -f "$RESULTS"
cd "$SOURCE" || cd /
"$PYTHON" -m pacman.cli grade "$SUBMISSION" --single --gradescope "$RESULTS" {options} ${{AUTOGRADER_ARGS:-}}
code=$?
if [ ! -s "$RESULTS" ]; then
    echo "run_autograder: the grader stopped with exit code $code before writing $RESULTS"
    message="The autograder could not grade this submission (an error of the grader, not of"
    message="$message your code: exit code $code). The course staff can see the error in the log."
    printf '{{"score": 0.0, "output": "%s", "visibility": "visible", "stdout_visibility": "hidden",'\
' "tests": [], "extra_data": {{"grader_exit_code": %d}}}}\n' "$message" "$code" > "$RESULTS"
fi
exit 0
"""
