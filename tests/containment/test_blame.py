"""Right blame and words: statistics too big or too deep are dropped with a warning and the
game counts; an exception's message is cut to a bound whatever its size or ``__str__``; a
memory file past the memory limit is that agent's crash naming the limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pacman.contained.protocol import MAX_MESSAGE
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.outcome import Outcome

from tests.containment.support import run_program

AGENTS = Path(__file__).with_name("wing_agents.py")


@pytest.mark.parametrize("name", ["HugeStats", "DeepStats"])
def test_statistics_too_big_or_too_deep_are_dropped_and_the_game_counts(name, capfd):
    layout = load_layout("small_classic")
    result = run_game(layout, lineup(layout, f"{AGENTS}:{name}", "directional", 1), seed=3,
                      max_moves=5)
    assert result.failure is None and result.outcome == Outcome.MOVE_LIMIT
    assert result.agent_stats[0] is None
    assert "dropped" in capfd.readouterr().err


@pytest.mark.parametrize(("name", "words"), [("HugeMessage", "ValueError: yyyy"),
                                             ("RaisingStr", "_Unprintable: <its message")])
def test_an_exceptions_message_is_cut_to_a_bound(name, words):
    layout = load_layout("small_classic")
    result = run_game(layout, lineup(layout, f"{AGENTS}:{name}", "directional", 1), seed=3,
                      max_moves=5)
    assert result.outcome == Outcome.CRASH and result.failure.agent == 0
    assert result.failure.message.startswith(words)
    assert len(result.failure.message) < MAX_MESSAGE + 200
    assert len(result.failure.traceback) < 30_000


def test_a_memory_file_past_the_limit_is_the_agents_crash_naming_the_limit():
    done = run_program("play", "--json", "-p", f"{AGENTS}:HoldsMemfd", "--layout",
                       "small_classic", "--max-moves", "5", env={"PACMAN_AGENT_MEMORY_MB": "256"})
    assert done.returncode == 1, done.stderr  # play's exit code when an agent crashed
    failure = json.loads(done.stdout)["failure"]
    assert failure["kind"] == Outcome.CRASH and failure["agent"] == 0
    assert "memory limit of 256 MB" in failure["message"]
