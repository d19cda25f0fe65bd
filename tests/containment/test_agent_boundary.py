"""Contained agents reach neither each other nor the game; their output never reaches stdout;
the environment's failures are the program's errors, never an agent's outcome."""

from __future__ import annotations

import json
import resource
import time
import uuid

import pytest

from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.outcome import Outcome

from tests.containment.support import plain_cannot_prevent, code, left_behind, live_processes, run_program, error_lines

FAST = ["--layout", "small_classic", "--max-moves", "20", "--seed", "2"]


def test_an_agent_that_kills_its_siblings_harms_no_other_agent():
    plain_cannot_prevent("signalling other processes")
    layout = load_layout("small_classic")
    specs = lineup(layout, code("KillsSiblings"), code("Quiet"), 2)
    result = run_game(layout, specs, seed=4, max_moves=15)
    assert result.failure is None, result.failure
    assert result.moves > 1


@pytest.mark.parametrize("argv", [["play", "--json"],
                                  ["batch", "-n", "2", "--workers", "1", "--no-store",
                                   "--no-progress", "--json"]])
def test_processes_an_agent_starts_in_a_new_session_end_with_its_game(argv):
    plain_cannot_prevent("new session outliving the game")
    token = f"{3000 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 10 ** 6}"
    before = live_processes(token)
    began = time.monotonic()
    agent = (["-p", code("ForksAway"), "-a", f"token={token}"] if argv[0] == "play"
             else ["-p", f"{code('ForksAway')} token={token}"])
    done = run_program(*argv, *agent, *FAST, timeout=60)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - began < 30  # the captured pipes closed: nothing held them
    assert not left_behind(before, token, wait=2.0)


@pytest.mark.parametrize("argv", [["play", "--json", "--games", "2"],
                                  ["batch", "-n", "2", "--workers", "1", "--no-store",
                                   "--no-progress", "--json"],
                                  ["batch", "-n", "2", "--workers", "2", "--no-store",
                                   "--no-progress", "--json"]])
def test_what_an_agent_prints_never_reaches_stdout(argv):
    done = run_program(*argv, "-p", code("Chatty"), "-g", code("Chatty"), *FAST)
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines() if argv[0] == "play" else [done.stdout]:
        json.loads(line)
    assert "thinking..." in done.stderr


LONG_TMPDIR = "x" * 110


@pytest.mark.parametrize("argv", [["play"],
                                  ["batch", "-n", "2", "--workers", "1", "--no-progress"]])
def test_a_private_temporary_folder_is_no_agents_crash(tmp_path, argv):
    """A contained agent never uses the caller's TMPDIR (its /tmp is its own, or the plain
    child does not need one): a private, unreadable one changes nothing."""
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    store = tmp_path / "store.jsonl"
    extra = ["--store", str(store)] if argv[0] == "batch" else ["--record", str(store)]
    done = run_program(*argv, "-p", code("Quiet"), "--json", *FAST, *extra,
                       env={"TMPDIR": str(folder)})
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert '"outcome": "crash"' not in done.stdout + store.read_text()
    assert '"crash": 0' in done.stdout or argv[0] == "play"


def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (14, 14))


@pytest.mark.parametrize("argv", [["play"],
                                  ["batch", "-n", "2", "--workers", "2", "--no-store",
                                   "--no-progress"]])
def test_too_few_file_descriptors_is_never_an_agents_crash(argv):
    done = run_program(*argv, "-p", code("Quiet"), "--json", *FAST, preexec_fn=_few_files)
    assert '"outcome": "crash"' not in done.stdout and "Traceback" not in done.stderr
    if done.returncode != 0:
        assert done.returncode == 2 and len(error_lines(done.stderr)) == 1


def test_a_child_without_memory_to_start_is_an_error_of_the_environment(tmp_path):
    store = tmp_path / "store.jsonl"
    done = run_program("batch", "-p", code("Quiet"), "-n", "2", "--workers", "1",
                       "--no-progress", "--store", str(store), *FAST,
                       env={"PACMAN_AGENT_MEMORY_MB": "8"})
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "memory" in done.stderr and "Traceback" not in done.stderr
    assert not store.exists() or "crash" not in store.read_text()


def test_an_agent_over_its_memory_limit_crashes_with_the_reason():
    layout = load_layout("small_classic")
    specs = lineup(layout, code("Hoards"), "random", 1)
    result = run_game(layout, specs, seed=1, max_moves=5)
    assert result.outcome == Outcome.CRASH and result.failure.agent == 0
    assert "MemoryError" in result.failure.message and "memory limit" in result.failure.message


def test_the_plain_backend_says_in_one_line_what_it_does_not_prevent():
    done = run_program("play", "--json", "-p", code("Quiet"), "-g", code("Quiet"), *FAST,
                       env={"PACMAN_AGENT_JAIL": "plain"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout).get("failure") is None
    warnings = [line for line in done.stderr.splitlines() if "not prevented" in line]
    assert len(warnings) == 1 and "outliving the game" in warnings[0]
    # besides the stated move limit of file agents, nothing else is said
    assert [line for line in done.stderr.strip().splitlines()
            if not line.startswith("time limit:")] == warnings


def test_an_unknown_backend_is_one_error_line():
    done = run_program("play", "--json", "-p", code("Quiet"), *FAST,
                       env={"PACMAN_AGENT_JAIL": "chroot"})
    assert done.returncode == 2 and "PACMAN_AGENT_JAIL" in done.stderr
    assert len(error_lines(done.stderr)) == 1


def test_the_memory_limit_is_stated_and_changeable():
    done = run_program("play", "--json", "-p", code("Hoards"), *FAST,
                       env={"PACMAN_AGENT_MEMORY_MB": "300"})
    assert done.returncode == 1, done.stderr  # the agent crashed: the run says so
    failure = json.loads(done.stdout)["failure"]
    assert failure["kind"] == Outcome.CRASH and "memory limit of 300 MB" in failure["message"]
    done = run_program("play", "--json", "-p", code("Quiet"), *FAST,
                       env={"PACMAN_AGENT_MEMORY_MB": "lots"})
    assert done.returncode == 2 and "PACMAN_AGENT_MEMORY_MB" in done.stderr
    assert len(error_lines(done.stderr)) == 1


def test_without_bubblewrap_the_plain_backend_plays_and_says_so(tmp_path):
    done = run_program("play", "--json", "-p", code("Quiet"), *FAST,
                       env={"PATH": str(tmp_path), "PACMAN_AGENT_JAIL": ""})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout).get("failure") is None
    lines = [line for line in done.stderr.strip().splitlines()
             if not line.startswith("time limit:")]  # the stated move limit of file agents
    assert len(lines) == 1 and "not prevented" in lines[0] and "no bwrap" in lines[0]


def test_bubblewrap_asked_for_where_it_cannot_run_is_one_error_line(tmp_path):
    done = run_program("play", "--json", "-p", code("Quiet"), *FAST,
                       env={"PATH": str(tmp_path), "PACMAN_AGENT_JAIL": "bwrap"})
    assert done.returncode == 2 and not done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and "bubblewrap" in done.stderr
