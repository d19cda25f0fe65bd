"""``run.py batch`` and ``run.py report``: flags, TOML, tables, plots, errors, crashes."""

from __future__ import annotations

import json

import pytest

from pacman.batch import read_store

from tests.engine.test_cli import run_cli

from .helpers import comparable, write_crasher, write_maze


def one_line_error(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.fixture
def maze(tmp_path):
    return write_maze(tmp_path)


def batch(capsys, maze, store, *extra: str) -> dict:
    code, out, err = run_cli(capsys, "batch", "--layout", maze, "--pacman", "random",
                             "--pacman", "greedy evaluation=closest_dot", "--ghosts", "random",
                             "--games", "15", "--seed", "40", "--max-moves", "60",
                             "--store", str(store), "--no-progress", "--json", *extra)
    assert code == 0, err
    return json.loads(out)


def stored(store) -> dict:
    games, note = read_store(store)
    assert note is None
    return {g.job.key: comparable(g.result) for g in games}


def test_batch_table_counts_every_game(capsys, maze, tmp_path):
    table = batch(capsys, maze, tmp_path / "s.jsonl", "--workers", "1")
    conditions = table["conditions"]
    assert [c["condition"] for c in conditions] == [
        "random vs random @ mini", "greedy evaluation=closest_dot vs random @ mini"]
    for c in conditions:
        assert c["games"] == 15 and 0 <= c["wins"] <= 15
        assert c["wins"] + sum(c["causes"].values()) == 15
        assert c["win_low"] <= c["win_rate"] <= c["win_high"]
        assert c["score_low"] <= c["mean_score"] <= c["score_high"]
        assert c["nodes_per_move"] is None  # neither agent searches
    (comparison,) = table["comparisons"]
    assert comparison["a"] == conditions[1]["condition"] and comparison["seeds"] == 15
    assert comparison["win_rate"]["difference"] == pytest.approx(
        conditions[1]["win_rate"] - conditions[0]["win_rate"])
    seeds = {g.result.seed for g in read_store(tmp_path / "s.jsonl")[0]}
    assert seeds == set(range(40, 55))


def test_one_and_two_workers_store_identical_games(capsys, maze, tmp_path):
    one = batch(capsys, maze, tmp_path / "one.jsonl", "--workers", "1")
    two = batch(capsys, maze, tmp_path / "two.jsonl", "--workers", "2", "--chunk-size", "2")
    assert stored(tmp_path / "one.jsonl") == stored(tmp_path / "two.jsonl")
    for a, b in zip(one["conditions"], two["conditions"]):
        a.pop("think_ms_per_move"), b.pop("think_ms_per_move")
        assert a == b


def test_rerun_resumes_and_report_rebuilds_the_same_table(capsys, maze, tmp_path):
    store = tmp_path / "s.jsonl"
    first = batch(capsys, maze, store, "--workers", "2")
    lines = store.read_text().splitlines()
    assert batch(capsys, maze, store, "--workers", "2") == first  # nothing replayed
    assert store.read_text().splitlines() == lines
    code, out, err = run_cli(capsys, "report", str(store), "--json")
    assert code == 0, err
    assert json.loads(out) == first
    code, out, err = run_cli(capsys, "report", str(store), "--condition", "greedy")
    assert code == 0 and "greedy" in out and "random vs random" not in out


def test_crashing_agent_shows_as_crashes(capsys, maze, tmp_path):
    crasher = write_crasher(tmp_path)
    code, out, err = run_cli(capsys, "batch", "--layout", maze, "--pacman", f"{crasher} after=1",
                             "--ghosts", "random", "--num-ghosts", "1", "--games", "8",
                             "--no-store", "--no-progress", "--workers", "2")
    assert code == 0, err
    header, _, row = out.splitlines()[:3]
    # The last three columns: failed (crash, illegal, timeout), ms/move, nodes/move.
    assert header.split()[-3] == "failed" and row.split()[-3] == "8"
    code, out, err = run_cli(capsys, "batch", "--layout", maze, "--pacman", f"{crasher} after=1",
                             "--ghosts", "random", "--num-ghosts", "1", "--games", "8",
                             "--no-store", "--no-progress", "--json")
    (condition,) = json.loads(out)["conditions"]
    assert condition["causes"]["crash"] == 8 and condition["wins"] == 0


def test_toml_config_with_sweep_and_flags_winning(capsys, maze, tmp_path):
    config = tmp_path / "batch.toml"
    config.write_text(f'''
games = 50
seed = 5
layouts = ["{maze}"]
max_moves = 40
store = "{tmp_path / 'cfg.jsonl'}"
out = "{tmp_path / 'out'}"

[[pacman]]
agent = "alphabeta"
options = {{ evaluation = "closest_dot" }}
sweep = {{ depth = [1, 2] }}

[[ghosts]]
agent = "random"
''', encoding="utf-8")
    code, out, err = run_cli(capsys, "batch", "--config", str(config), "--games", "4",
                             "--no-progress", "--json", "--workers", "1")
    assert code == 0, err
    table = json.loads(out)
    labels = [c["condition"] for c in table["conditions"]]
    assert labels == ["alphabeta evaluation=closest_dot depth=1 vs random @ mini",
                      "alphabeta evaluation=closest_dot depth=2 vs random @ mini"]
    assert all(c["games"] == 4 for c in table["conditions"])  # the flag beat the file
    assert all(c["nodes_per_move"] > 0 for c in table["conditions"])
    assert table["conditions"][1]["nodes_per_move"] > table["conditions"][0]["nodes_per_move"]
    out_dir = tmp_path / "out"
    for name in ("summary.md", "summary.csv", "summary.json", "win_rates.png", "scores.png",
                 "against_depth.png"):
        assert (out_dir / name).stat().st_size > 0, name
    assert (out_dir / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((out_dir / "summary.json").read_text()) == table
    csv_lines = (out_dir / "summary.csv").read_text().splitlines()
    assert csv_lines[0].startswith("condition,pacman,pacman_options") and len(csv_lines) == 3
    assert "| 1 | alphabeta evaluation=closest_dot depth=1" in (out_dir / "summary.md").read_text()


def test_report_writes_plots_and_compares_on_request(capsys, maze, tmp_path):
    store = tmp_path / "s.jsonl"
    batch(capsys, maze, store, "--workers", "1")
    code, out, err = run_cli(capsys, "report", str(store), "--compare", "1", "2", "--out",
                             str(tmp_path / "rep"))
    assert code == 0, err
    assert "paired comparisons" in out and "wrote" in err
    from PIL import Image

    with Image.open(tmp_path / "rep" / "scores.png") as image:
        assert image.size[0] > 300 and image.size[1] > 100


@pytest.mark.parametrize("argv, needles", [
    (["--pacman", "randum"], ["randum", "random"]),
    (["--pacman", "depth=2"], ["--pacman expects"]),
    (["--pacman", "random bogus=1"], ["no option 'bogus'"]),
    (["--sweep", "depth="], ["--sweep"]),
    (["--compare", "1", "7"], ["no condition '7'"]),
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"], ["Dask scheduler"]),
])
def test_bad_batch_input_is_one_line(capsys, maze, tmp_path, argv, needles):
    code, out, err = run_cli(capsys, "batch", "--layout", maze, "--games", "2", "--no-progress",
                             "--no-store", "--ghosts", "random", *argv)
    one_line_error(code, err, *needles)


def test_bad_files_are_one_line(capsys, tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("gamez = 3\n")
    code, _, err = run_cli(capsys, "batch", "--config", str(config))
    one_line_error(code, err, "unknown key 'gamez'", "games")
    config.write_text("games = 'many'\n")
    code, _, err = run_cli(capsys, "batch", "--config", str(config))
    one_line_error(code, err, "games must be a whole number")
    code, _, err = run_cli(capsys, "report", str(tmp_path / "missing.jsonl"))
    one_line_error(code, err, "no such results store")
    code, _, err = run_cli(capsys, "report", str(config))
    one_line_error(code, err, "not a results store")


def test_slow_agent_shows_as_timeouts(capsys, maze, tmp_path):
    agent = tmp_path / "sleepy.py"
    agent.write_text("import time\n\n"
                     "class Sleepy:\n"
                     "    def __init__(self, index=0, rng=None):\n"
                     "        self.rng = rng\n\n"
                     "    def get_action(self, state):\n"
                     "        time.sleep(0.03)\n"
                     "        return self.rng.choice(state.legal_actions())\n")
    code, out, err = run_cli(capsys, "batch", "--layout", maze, "--pacman", f"{agent}:Sleepy",
                             "--ghosts", "random", "--games", "4", "--time-limit", "0.01",
                             "--no-store", "--no-progress", "--json", "--workers", "2",
                             "--chunk-size", "1")
    assert code == 0, err
    (condition,) = json.loads(out)["conditions"]
    assert condition["causes"]["timeout"] == 4 and condition["wins"] == 0
    assert condition["think_ms_per_move"] > 10  # each game ends on its first, too slow move
