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

from pathlib import Path

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

# Submissions run as this user when the grader is root: it must be able to run the Python
# (a pyenv under /root, common in instructors' images, is closed to it).
WORKER="${PACMAN_AGENT_USER:-nobody}"
runnable() {
    [ "$EUID" = 0 ] || return 0  # not root: workers run as the grader's own user
    if command -v runuser >/dev/null 2>&1; then
        runuser -u "$WORKER" -- "$1" -I -c pass >/dev/null 2>&1
    elif command -v su >/dev/null 2>&1; then
        su -s /bin/sh "$WORKER" -c "'$1' -I -c pass" >/dev/null 2>&1
    else
        return 0  # nothing to switch users with: the grader will say so if it cannot
    fi
}

# The first supported Python every user can run, on PATH or in the system's folders; a
# supported one only root can run is the last resort.
PYTHON=""
CLOSED=""
PATHS="${PATH:-}"
SEARCH="${PATHS//:/ } ${AUTOGRADER_SYSTEM_BINS-/usr/bin /usr/local/bin}"
for candidate in python3.13 python3.12 python3.11 python3; do
    for folder in $SEARCH; do
        found="$folder/$candidate"
        [ -x "$found" ] && supported "$found" || continue
        if runnable "$found"; then PYTHON="$found"; break 2; fi
        [ -n "$CLOSED" ] || CLOSED="$found"
    done
done

if [ -n "$PYTHON" ]; then
    log "using the image's Python $(version "$PYTHON") ($PYTHON)"
    "$PYTHON" -m venv "$VENV"
else
    OLD="$(command -v python3 2>/dev/null || true)"
    if [ -z "$OLD" ] && [ -z "$CLOSED" ]; then
        log "no python3 on the image and apt-get could not install one: cannot continue"
        exit 1
    fi
    if [ -n "$CLOSED" ]; then
        log "the user $WORKER cannot run the image's Python ($CLOSED): installing uv from" \
            "PyPI (pip install uv), then Python 3.11 with uv into $ROOT/python"
        OLD="$CLOSED"
    else
        log "the image's Python $(version "$OLD") is older than 3.11: installing uv from PyPI" \
            "(pip install uv), then Python 3.11 with uv into $ROOT/python"
    fi
    export UV_PYTHON_INSTALL_DIR="$ROOT/python"
    if "$OLD" -m pip install -q uv && "$OLD" -m uv venv --quiet --python 3.11 --seed "$VENV"; then
        chmod -R a+rX "$ROOT/python" 2>/dev/null || true
        log "installed Python $(version "$VENV/bin/python") ($VENV/bin/python)"
    elif [ -n "$CLOSED" ]; then
        log "installing Python failed: using $CLOSED; workers will run as root (the grader's" \
            "results.json says so to the instructor)"
        "$CLOSED" -m venv --clear "$VENV"
    else
        log "installing Python failed: cannot continue"
        exit 1
    fi
fi

cd /  # -I and this: no module is imported from the folder setup.sh was started in
"$VENV/bin/python" -I -m pip install -q "$HERE/project"
log "installed the grader into $VENV"
"$VENV/bin/python" -I -m pacman.grading.lockdown "$HERE"
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
cd /
"$PYTHON" -I -m pacman.cli grade "$SUBMISSION" --single --gradescope "$RESULTS" {options} ${{AUTOGRADER_ARGS:-}}
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


def bundle_readme(assignment: str | None, budget_seconds: float, memory_mb: int) -> str:
    """The bundle's README: what ``setup.sh`` installs, the limits and their worst case, how to
    change them, and what the sandbox cannot prevent without bubblewrap."""
    from pacman.grading.assignment import load_assignment
    from pacman.grading.run_limits import worst_case_seconds

    names = [assignment] if assignment is not None else ["classic", "default"]
    worst = "; ".join(f"{Path(n).name}: {worst_case_seconds(load_assignment(n)):.0f} s" for n in names)
    return README.format(budget=budget_seconds, memory=memory_mb, worst=worst,
                         assignment=assignment or "the one each submission's API calls for "
                         "(classic or default)")


README = """# Autograder bundle (pacman-arena)

Zip the contents of this folder (`zip -r ../autograder.zip .`) and upload the zip as the
assignment's autograder; the Ubuntu 22.04 base image (Python 3.10) is fine.

**Assignment**: {assignment}.

**setup.sh** (once, when the platform builds the image) installs `python3`, `python3-venv`,
`python3-pip` and `bubblewrap` with apt-get, then uses the image's Python if it is 3.11 or later
and the user `nobody` (who runs submissions) can run it (a system `/usr/bin/python3.11` is taken
over a pyenv under `/root`); otherwise it installs `uv` from PyPI with the image's pip
(`python3 -m pip install uv`) and, with it, Python 3.11 (a standalone build) into `/autograder/python`. It makes
`/autograder/venv`, installs `project/` into it, and makes the grader's files readable by root
alone (`python -m pacman.grading.lockdown`). Its log says what it used and installed.

**run_autograder** grades `/autograder/submission` (a file of any name, or a whole project
folder holding `multiAgents.py`) into `/autograder/results/results.json`. If the grader fails,
results.json still says so, with score 0 and the grader's error for you in `extra_data`.

## Limits

Fit for the platform's default container (10 minutes, 768 MB, half a CPU), with room to spare:

* the whole run: {budget:g} s of wall time (`--time-budget`): each test's limit is cut to
  what is left, and tests that cannot start get "not run" (the results are still written);
* memory: {memory} MB of address space for the process running the student's code
  (`--memory-mb`);
* worst case of the assignment's own limits (every test at its limit, no budget): {worst}.

To change them, rebuild the bundle (`pacman-arena grade --gradescope-package DIR
--time-budget 1500 --memory-mb 1024`, e.g. for a 30-minute, 2 GB container) or edit the
options on the `grade` line of `run_autograder`.

## Isolation

Student code runs as the user `nobody`, in a separate process with memory, CPU, time and
output limits, under bubblewrap where the container allows it (its own PID, network and IPC
namespaces, a file system holding only the runtime, the submission and the engine modules).
Where bubblewrap cannot start (no user namespaces), the process runs in the same file system:
the grader, the project's agents, the assignments and this folder are readable by root only,
a process limit refuses new processes (`nobody` may start none), and Python's audit hook
refuses signals and file writes. What this fallback
cannot prevent: reading files that every user may read (the system's, the Python runtime's,
the engine modules a worker needs), network access from native code (Python's sockets are
refused, not the kernel's), and seeing the other processes of the container in `/proc`.
"""
