"""Today's search code beside the working tree's: an earlier revision imported under another name.

``load_baseline(rev)`` writes ``agents/search/``, ``agents/evaluation.py`` and
``agents/pacman_game.py`` of git revision ``rev`` (and the modules of the Pacman adapter that
revision has: ``agents/pacman_search.py``, ``agents/ghost_focus.py``) into a temporary package
and imports it, so a benchmark can time the old and the new implementation side by side in one
process (ratios measured under the same load). The old package's imports of its own modules are
made relative, so its search core, its node kinds and its Pacman adapter belong together.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
#: the revision before the search core was split into named pieces and the evaluation sped up
BASELINE = "565f7d8"
_FILES = ("agents/evaluation.py", "agents/pacman_game.py")
#: copied too when the revision has them (the Pacman adapter's own modules)
_OPTIONAL_FILES = ("agents/pacman_search.py", "agents/ghost_focus.py", "agents/maze_tables.py",
                   "agents/strong_evaluation.py")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout


def moved_modules(text: str) -> str:
    """``text`` with its imports of engine modules that have since moved into a package of
    ``pacman`` (``pacman.state`` is ``pacman.engine.state`` today) rewritten to today's place:
    the old search code runs on today's engine, as the benchmarks intend (and an old revision's
    tests on today's code, in ``bench/mutation_check.py``)."""
    def today(match: re.Match[str]) -> str:
        module = match.group(1)
        if (ROOT / "pacman" / f"{module}.py").exists():
            return match.group(0)
        moved = sorted(ROOT.glob(f"pacman/*/{module}.py"))
        engine = [path for path in moved if path.parent.name == "engine"]
        if engine or len(moved) == 1:  # a name in the engine and elsewhere is the engine's
            return f"from pacman.{(engine or moved)[0].parent.name}.{module} import"
        return match.group(0)
    return re.sub(r"from pacman\.(\w+) import", today, text)


def load_baseline(rev: str = BASELINE) -> ModuleType:
    """The package ``baseline_<rev>`` with modules ``search`` (the old :mod:`pacman.agents.search`),
    ``evaluation`` and ``pacman_game`` as they were at ``rev``."""
    name = f"baseline_{rev}"
    if name in sys.modules:
        return sys.modules[name]
    folder = Path(tempfile.mkdtemp(prefix="pacman-baseline-")) / name
    (folder / "search").mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    for path in _git("ls-tree", "--name-only", rev, "agents/search/").split():
        if path.endswith(".py"):
            (folder / "search" / Path(path).name).write_text(_git("show", f"{rev}:{path}"))
    present = set(_git("ls-tree", "--name-only", rev, "agents/").split())
    copied = [*_FILES, *(path for path in _OPTIONAL_FILES if path in present)]
    for path in copied:
        text = _git("show", f"{rev}:{path}")
        # revisions before the packages moved under ``pacman`` import ``agents.*``
        for prefix in ("from pacman.agents.", "from agents."):
            text = text.replace(f"{prefix}search.", "from .search.")
            for own in copied:
                module = Path(own).stem
                text = text.replace(f"{prefix}{module} import", f"from .{module} import")
        # any other agent module is today's
        text = text.replace("from agents.", "from pacman.agents.")
        text = moved_modules(text)
        (folder / Path(path).name).write_text(text)
    sys.path.insert(0, str(folder.parent))
    package = importlib.import_module(name)
    for module in ("search", "search.core", "search.algorithms", "search.deepening", "search.synthetic",
                   "evaluation", "pacman_game"):
        importlib.import_module(f"{name}.{module}")
    return package
