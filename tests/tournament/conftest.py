"""A class folder made from the entrants in ``entrants/`` (real-ish and broken student files,
a hostile one among them), and one small cup of it played once for the module's tests."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

ENTRANTS = Path(__file__).parent / "entrants"

#: Files that must not be kept as Python in the repository (they do not parse): written here.
BROKEN = {
    "judy.py": "# Does not parse: a syntax error.\nfrom game import Agent\n\n\n"
               "class ContestAgent(Agent)\n    def getAction(self, gameState):\n"
               "        return 'Stop'\n",
    "peggy.py": "# Written in Python 2.\nfrom game import Agent\n\n\n"
                "class ContestAgent(Agent):\n    def getAction(self, gameState):\n"
                "        print \"thinking\"\n        return gameState.getLegalActions(0)[0]\n",
}

#: A small cup: a small maze, two seeds, short limits (an endless loop costs half a second).
SMALL_CUP = """\
mazes = ["testClassic"]
games = 2
seed = 5
max_moves = 60
move_time_limit = 0.5

[pacman]
options = { depth = 1 }
"""


def class_folder(where: Path, hostile: bool = False) -> Path:
    """A copy of the entrants (the hostile one only if asked) with the broken files added."""
    folder = where / "submissions"
    shutil.copytree(ENTRANTS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    if not hostile:
        (folder / "heidi.py").unlink()
    for name, text in BROKEN.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def cup_config(where: Path, text: str = SMALL_CUP) -> Path:
    path = where / "cup.toml"
    path.write_text(text, encoding="utf-8")
    return path


def others_files(folder: Path) -> dict[str, str]:
    """A digest of every file of the folder but the hostile entrant's own."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "heidi" not in p.name}


@pytest.fixture(scope="package")
def small_cup(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The small cup of the whole class folder (the hostile entrant included), played once
    with two workers: its folders, and the digests of the others' files before it."""
    from pacman.cli import main

    where = tmp_path_factory.mktemp("cup")
    folder = class_folder(where, hostile=True)
    before = others_files(folder)
    config = cup_config(where)
    out = where / "out"
    code = main(["tournament", str(folder), "--config", str(config), "--out", str(out),
                 "--workers", "2", "--no-progress", "--json"])
    assert code == 0
    return {"folder": folder, "config": config, "out": out, "where": where,
            "before": before}
