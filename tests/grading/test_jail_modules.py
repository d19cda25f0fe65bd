"""The jail shows a worker exactly the project files it imports: a module the engine gains must be
listed in :data:`pacman.grading.jail.WORKER_MODULES`, or every jailed worker fails to start."""

from __future__ import annotations

import json
import subprocess
import sys

from pacman.grading.jail import PROJECT, WORKER_MODULES

CLOSURE = (
    "import json, os, sys; import pacman.grading.worker; root = sys.argv[1]; "
    "print(json.dumps(sorted(os.path.relpath(m.__file__, root) for m in list(sys.modules.values())"
    " if getattr(m, '__file__', None) and m.__file__.startswith(root + os.sep))))"
)


def test_every_project_module_the_worker_imports_is_visible_in_the_jail():
    out = subprocess.run([sys.executable, "-c", CLOSURE, str(PROJECT)], cwd=PROJECT,
                         capture_output=True, text=True, check=True).stdout
    imported = [path for path in json.loads(out) if not path.startswith(".venv")]
    assert imported, "the worker imported no project module: the check would prove nothing"
    hidden = [path for path in imported
              if not any(path == entry or path.startswith(entry + "/") for entry in WORKER_MODULES)]
    assert hidden == []
