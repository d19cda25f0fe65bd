"""What a submission's process can see and do, measured from inside it, on both boundaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pacman.grading.assignment import parse_assignment
from pacman.grading.grader import grade
from pacman.contained.jail import JAIL_ENVIRONMENT as ENVIRONMENT
from pacman.grading.policy import PROJECT
from pacman.grading.sandbox import jail_status

PROBE = '''
import json, os, sys

def _probe():
    seen = {"pid": os.getpid(), "agents": os.path.exists(%(agents)r),
            "grader": os.path.exists(%(grader)r), "modules": sorted(
                m for m in sys.modules if m.startswith(("pacman.agents.", "pacman.grading.")))}
    try:
        import socket
        socket.create_connection(("127.0.0.1", 9), timeout=1)
        seen["network"] = "open"
    except Exception as error:
        seen["network"] = type(error).__name__
    for name, attempt in (("fork", os.fork), ("write", lambda: open("/tmp/x", "w")),
                          ("kill", lambda: os.kill(1, 0))):
        try:
            if attempt() == 0:
                os._exit(0)
            seen[name] = "allowed"
        except Exception as error:
            seen[name] = type(error).__name__
    return seen

class ReflexAgent:
    def __init__(self, index=0, rng=None):
        pass

    def get_action(self, state):
        raise RuntimeError("PROBE" + json.dumps(_probe()) + "PROBE")
'''


@pytest.fixture(params=["bubblewrap", "fallback"])
def boundary(request, monkeypatch):
    if request.param == "fallback":
        monkeypatch.setenv(ENVIRONMENT, "plain")
    elif not jail_status().jailed:
        pytest.skip(f"bubblewrap cannot run here ({jail_status().line})")
    return request.param


def _probe(tmp_path: Path) -> dict:
    path = tmp_path / "probe.py"
    path.write_text(PROBE % {"agents": str(PROJECT / "pacman" / "agents" / "evaluation.py"),
                             "grader": str(PROJECT / "pacman" / "grading" / "grader.py")})
    assignment = parse_assignment({"roles": {"reflex": ["ReflexAgent"]}, "questions": [
        {"id": "q", "tests": [{"type": "game", "agent": "reflex", "layout": "tiny", "games": 1,
                               "credit": [{"metric": "failures", "at_most": 0}]}]}]}, "probe")
    text = "\n".join(grade(path, assignment).questions[0].tests[0].output)
    return json.loads(text.split("PROBE")[1])


def test_the_submission_holds_none_of_the_grader(boundary, tmp_path):
    seen = _probe(tmp_path)
    assert seen["modules"] == ["pacman.agents.base", "pacman.grading.policy",
                               "pacman.grading.remote_state", "pacman.grading.state_api",
                               "pacman.grading.student_traceback", "pacman.grading.worker"]
    assert seen["fork"] == seen["write"] == seen["kill"] == "PermissionError"
    assert seen["network"] != "open"


def test_under_bubblewrap_the_project_and_the_grader_are_out_of_sight(tmp_path, monkeypatch):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    if not jail_status().jailed:
        pytest.skip(jail_status().line)
    seen = _probe(tmp_path)
    assert seen["pid"] < 10  # its own PID namespace
    assert not seen["agents"] and not seen["grader"]


def test_every_project_module_the_worker_imports_is_in_its_view_and_allowed():
    """A new engine module the worker needs must be added to the jail's view and to the
    modules a submission may use, or every submission fails to load under bubblewrap."""
    import subprocess
    import sys

    from pacman.grading.policy import ALLOWED_MODULES, module_allowed, project_views

    code = (f"import sys, json; sys.path.insert(0, {str(PROJECT)!r}); import pacman.grading.worker; "
            "print(json.dumps({m: getattr(sys.modules[m], '__file__', None) for m in sys.modules"
            " if m.split('.')[0] in ('pacman', 'agents')}))")
    modules = json.loads(subprocess.run([sys.executable, "-I", "-c", code], check=True,
                                        capture_output=True, text=True).stdout)
    views = [str(v) for v in project_views()]
    outside = [m for m, f in modules.items()
               if f and not any(f == v or f.startswith(v + "/") for v in views)]
    refused = [m for m in modules if not module_allowed(m)]
    assert outside == [] and refused == []
    assert "pacman.grading.grader" not in ALLOWED_MODULES and not module_allowed("pacman.agents.catalog")
