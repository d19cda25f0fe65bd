"""A file's top-level code runs only in contained processes: never in the game's process."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from pacman.engine.layout import load_layout
from pacman.contained.agent import is_contained
from pacman.lineup.build import lineup
from pacman.engine.outcome import Outcome

from tests.containment.support import run_program, error_lines

AGENT = '''
class Agent:
    def __init__(self, index=0, rng=None):
        self.rng = rng

    def get_action(self, state):
        return self.rng.choice(state.legal_actions())
'''
FAST = ["--layout", "small_classic", "--max-moves", "20", "--seed", "1"]


def agent_file(folder: Path, top_level: str) -> str:
    path = folder / "agent.py"
    path.write_text(top_level + "\n" + AGENT)
    return f"{path}:Agent"


def test_a_loop_at_import_ends_within_the_time_limit(tmp_path):
    name = agent_file(tmp_path, "while True:\n    pass\n")
    began = time.monotonic()
    done = run_program("play", "-p", name, "--time-limit", "1", "--json", *FAST, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["outcome"] == Outcome.TIMEOUT and result["failure"]["agent"] == 0
    assert time.monotonic() - began < 30


THREAD = ("import threading, time\n"
          "threading.Thread(target=lambda: time.sleep(3600)).start()\n")


def test_a_thread_started_at_import_holds_up_neither_play_nor_batch(tmp_path):
    name = agent_file(tmp_path, THREAD)
    done = run_program("play", "-p", name, "--json", *FAST, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout)["moves"] > 0, done.stderr
    done = run_program("batch", "-p", name, "-n", "2", "--workers", "1", "--no-store",
                       "--no-progress", "--json", *FAST, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout)["conditions"][0]["games"] == 2


@pytest.mark.parametrize("top_level, words", [
    ("import sys\nsys.exit(0)\n", "SystemExit: 0"),
    ("import os\nos._exit(0)\n", "exited with code 0"),
])
def test_a_file_that_ends_the_process_at_import_is_its_agents_crash(tmp_path, top_level, words):
    name = agent_file(tmp_path, top_level)
    done = run_program("play", "-p", name, "--json", *FAST, "--record",
                       str(tmp_path / "games.jsonl"))
    assert done.returncode == 1, done.stderr  # a crash: the run says so, and goes on
    result = json.loads(done.stdout)
    assert result["outcome"] == Outcome.CRASH and words in result["failure"]["message"]
    assert (tmp_path / "games.jsonl").read_text().strip()


def test_changing_folder_at_import_moves_no_output(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    name = agent_file(tmp_path, f"import os\nos.chdir({str(elsewhere)!r})\n")
    done = run_program("play", "-p", name, "--json", *FAST, "--record", "games.jsonl",
                       cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "games.jsonl").exists() and not (elsewhere / "games.jsonl").exists()


def test_a_signal_handler_set_at_import_leaves_ctrl_c_to_the_program(tmp_path):
    name = agent_file(tmp_path, "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n")
    before = signal.getsignal(signal.SIGINT)
    lineup(load_layout("small_classic"), name, "random", 1)
    assert signal.getsignal(signal.SIGINT) is before


def test_a_file_is_never_imported_by_the_game_process(tmp_path, capfd):
    name = agent_file(tmp_path, "import os, sys\nprint('imported-in', os.getpid(), file=sys.stderr)\n")
    import os

    specs = lineup(load_layout("small_classic"), name, "random", 1)
    assert is_contained(specs[0])
    seen = [line.split()[1] for line in capfd.readouterr().err.splitlines()
            if line.startswith("imported-in")]
    assert seen and str(os.getpid()) not in seen


def test_a_missing_class_or_bad_option_is_one_line_with_exit_code_2(tmp_path):
    name = agent_file(tmp_path, "")
    done = run_program("play", "-p", name.replace(":Agent", ":Agnet"), "--json", *FAST)
    assert done.returncode == 2 and "Agent" in done.stderr and "Traceback" not in done.stderr
    done = run_program("play", "-p", name, "-a", "depth=3", "--json", *FAST)
    assert done.returncode == 2 and "depth" in done.stderr and "Traceback" not in done.stderr
    assert len(error_lines(done.stderr)) == 1
