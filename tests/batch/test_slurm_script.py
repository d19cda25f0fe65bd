"""The Slurm array script of docs/batches.md, run as Slurm would run it: its body once per array
task with ``SLURM_ARRAY_TASK_ID`` set, then the page's ``report`` line; the merged table is the
unsplit batch's, and no two tasks wrote to the same store or folder."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "batches.md"
EXPERIMENT = """\
games = 6
seed = 3
layouts = ["small_classic"]
max_moves = 40
out = "results/depth"

[[pacman]]
agent = "random"

[[pacman]]
agent = "greedy"

[[ghosts]]
agent = "random"
"""


def documented_scripts() -> tuple[str, str]:
    """The array script and the line that merges its stores, as docs/batches.md prints them."""
    blocks = re.findall(r"```bash\n(.*?)```", PAGE.read_text("utf-8"), re.S)
    script = next(block for block in blocks if "#SBATCH" in block)
    after = blocks[blocks.index(script) + 1]
    merge = next(line for line in after.splitlines() if line.startswith("pacman-arena report"))
    return script, merge.split("  #")[0]


def run(command: list[str], cwd: Path, **env: str) -> str:
    bin_dir = str(Path(sys.executable).parent)  # where pacman-arena is installed
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"],
                               **env}, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def without_times(table: dict) -> dict:
    for condition in table["conditions"]:
        condition.pop("think_ms_per_move")
    return table


def test_the_documented_slurm_array_gives_the_unsplit_table(tmp_path):
    script, merge = documented_scripts()
    array = re.search(r"--array=1-(\d+)", script)
    assert array is not None
    (tmp_path / "experiment.toml").write_text(EXPERIMENT)
    (tmp_path / "depth.sh").write_text(script)
    for task in range(1, int(array.group(1)) + 1):
        run(["bash", "depth.sh"], tmp_path, SLURM_ARRAY_TASK_ID=str(task),
            SLURM_CPUS_PER_TASK="1")
    stores = sorted(tmp_path.glob("depth.shard-*-of-4.jsonl"))
    folders = sorted((tmp_path / "results").glob("depth.shard-*-of-4"))
    assert len(stores) == len(folders) == 4
    for folder in folders:  # each task's own tables: both conditions, a quarter of the games
        summary = (folder / "summary.md").read_text("utf-8")
        assert "random vs random" in summary and "greedy vs random" in summary
    merged = run(["bash", "-c", merge + " --json"], tmp_path)
    assert (tmp_path / "results" / "depth" / "summary.md").exists()
    whole = run(["pacman-arena", "batch", "--config", "experiment.toml", "--store",
                 "whole.jsonl", "--no-progress", "--workers", "1", "--json"],
                tmp_path)
    assert without_times(json.loads(merged)) == without_times(json.loads(whole))
    assert [c["games"] for c in json.loads(merged)["conditions"]] == [6, 6]
