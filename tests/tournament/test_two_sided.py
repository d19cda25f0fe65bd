"""A two-sided cup: every entrant's Pacman against every other entrant's ghost team, on the
same seeds, both sides rated; the schedule plays every entrant once a round on each side."""

from __future__ import annotations

import json
from pathlib import Path

from pacman.cli import main
from pacman.tournament.config import config_from
from pacman.tournament.entrants import Entrant
from pacman.tournament.schedule import CupSchedule

from .conftest import cup_config

FOLDER = Path(__file__).parent / "two_sided"
CUP = """\
mazes = ["testClassic"]
games = 1
max_moves = 40
move_time_limit = 1.0

[ghost_team]
class = "GhostTeam"
"""


def test_every_pacman_meets_every_other_ghost_team(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["tournament", str(FOLDER), "--config", str(cup_config(tmp_path, CUP)),
                 "--out", str(out), "--workers", "2", "--no-progress"]) == 0
    capsys.readouterr()
    tables = json.loads((out / "standings.json").read_text())["tables"]
    assert set(tables) == {"pacman", "ghosts"}
    for side in ("pacman", "ghosts"):
        rows = {r["id"]: r for r in tables[side]}
        assert set(rows) == {"ann", "ben", "cid.py"}
        assert all(r["games"] == 2 and r["rank"] != "-" for r in rows.values())  # 2 teams
    assert {r["plays"] for r in tables["ghosts"]} == {"GhostTeam"}
    ghosts = tables["ghosts"]
    assert ghosts[0]["mean_score"] == min(r["mean_score"] for r in ghosts)  # lower is better


def test_the_schedule_goes_round_by_round():
    entrants = [Entrant(name, Path(name), f"/{name}.py:P", ghosts=f"/{name}.py:G")
                for name in "abcde"]
    config = config_from({"games": 1, "ghost_team": {"class": "G"}})
    jobs = [job for _, job in CupSchedule(config, entrants).numbered_jobs()]
    assert len(jobs) == 5 * 4
    for start in range(0, len(jobs), 5):  # each round: everyone once on each side
        rounds = jobs[start:start + 5]
        assert sorted(j.pacman for j in rounds) == [f"/{n}.py:P" for n in "abcde"]
        assert sorted(j.ghosts[0] for j in rounds) == [f"/{n}.py:G" for n in "abcde"]
        assert all(j.pacman[:2] != j.ghosts[0][:2] for j in rounds)  # never its own ghosts
