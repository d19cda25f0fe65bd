"""A hostile entrant (``entrants/heidi.py``) tries to change the other entrants' files, the
cup's store and its replay pages while its games are played. None of it may reach them: the
others' files stay as they were, the store holds exactly the cup's games and the cup ends."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path


from pacman.batch import read_store
import pytest

from pacman.cli import main

from .conftest import ENTRANTS, cup_config

CUP = """\
mazes = ["testClassic"]
games = 2
max_moves = 40
move_time_limit = 2.0
"""


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "heidi" not in p.name}


@pytest.mark.slow
def test_the_hostile_entrant_touches_nothing_of_others(tmp_path, capsys):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("heidi.py", "bob.py", "oscar.py"):
        shutil.copy(ENTRANTS / name, folder / name)
    shutil.copytree(ENTRANTS / "carol", folder / "carol")
    before = digests(folder)
    out = tmp_path / "out"
    code = main(["tournament", str(folder), "--config", str(cup_config(tmp_path, CUP)),
                 "--out", str(out), "--workers", "1", "--no-progress"])
    capsys.readouterr()
    assert digests(folder) == before
    assert code == 0
    games, dropped = read_store(out / "cup.jsonl")
    assert dropped is None
    assert sorted(g.job.condition for g in games) == sorted(
        f"cup: {who} @ testClassic" for who in ("bob.py", "carol", "heidi.py", "oscar.py")
        for _ in range(2))
    for page in (out / "games").iterdir():
        assert "heidi was here" not in page.read_text()
