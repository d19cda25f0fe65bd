"""A game played by a rules variant records the variant and replays by it."""

from __future__ import annotations

import json

import pytest

from pacman.errors import ReplayError
from pacman.engine.game import GameResult, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import agent_spec
from pacman.engine.state import ClassicSpeedState, GameState


def _capsule_game(rules: str) -> GameResult:
    # Seeds are searched for a game in which a capsule is eaten, so the variant matters.
    layout = load_layout("smallClassic")
    for seed in range(40):
        result = run_game(layout, [agent_spec("greedy", "pacman"), *[agent_spec("random", "ghost")] * 2], seed,
                          max_moves=150, rules=rules)
        states = list(replay_states(result))
        if any(any(state.scared_timers) for state in states):
            return result
    raise AssertionError("no game ate a capsule")


def test_a_classic_speed_game_records_its_rules_and_replays_by_them():
    result = _capsule_game("classic")
    data = json.loads(result.to_json())
    assert data["rules"] == "classic"
    again = GameResult.from_json(result.to_json())
    states = list(replay_states(again))
    assert all(type(state) is ClassicSpeedState for state in states)
    assert states[-1].score == result.score


def test_the_same_actions_do_not_replay_by_the_default_rules():
    data = json.loads(_capsule_game("classic").to_json())
    del data["rules"]
    with pytest.raises(ReplayError):
        list(replay_states(GameResult.from_dict(data)))


def test_a_default_game_keeps_the_old_recording_form():
    result = run_game(load_layout("smallClassic"), [agent_spec("greedy", "pacman"), agent_spec("random", "ghost")], 1,
                      max_moves=20)
    assert "rules" not in json.loads(result.to_json())
    assert all(type(state) is GameState for state in replay_states(result))


def test_an_unknown_rules_name_is_refused():
    specs = [agent_spec("greedy", "pacman"), agent_spec("random", "ghost")]
    data = json.loads(run_game(load_layout("smallClassic"), specs, 1, max_moves=5).to_json())
    data["rules"] = "arcade"
    with pytest.raises(ReplayError, match="unknown rules 'arcade'"):
        list(replay_states(GameResult.from_dict(data)))


def test_a_file_without_line_ends_is_refused_not_read_for_ever(tmp_path, monkeypatch):
    from pacman.engine import game

    monkeypatch.setattr(game, "MAX_RECORD_LINE", 1000)
    endless = tmp_path / "endless.jsonl"
    endless.write_text("\0" * 5000, encoding="utf-8")
    with pytest.raises(ReplayError, match=r"endless\.jsonl:1: a line longer than 1,000"):
        game.load_results(str(endless))
    fine = tmp_path / "fine.jsonl"
    result = run_game(load_layout("smallClassic"), [agent_spec("greedy", "pacman"),
                                                    agent_spec("random", "ghost")], 1, max_moves=5)
    fine.write_text(result.to_json() + "\n", encoding="utf-8")
    assert game.load_results(str(fine)) == [result]


def test_the_replay_of_an_endless_device_is_one_line_and_exit_2():
    import os
    import subprocess
    import sys
    from pathlib import Path

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "run.py"), "--replay", "/dev/zero",
                           "--display", "none"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "a line longer than" in done.stderr
