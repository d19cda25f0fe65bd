"""Every bad input of the command line is one line on stderr and exit code 2, never a traceback;
the same commands with good input succeed."""

from __future__ import annotations

import json

import pytest

from pacman.cli import main

from .test_cli import MAZE_TEXT, assert_one_line_error, run_cli


@pytest.fixture
def maze_file(tmp_path):
    path = tmp_path / "maze.lay"
    path.write_text(MAZE_TEXT, encoding="utf-8")
    return str(path)


@pytest.fixture
def recording(tmp_path, maze_file, capsys):
    path = tmp_path / "games.jsonl"
    code = main(["--layout", maze_file, "--pacman", "random", "--ghosts", "random", "--seed", "5",
                 "--games", "3", "--max-moves", "30", "--display", "none", "--record",
                 str(path)])
    assert code == 0
    capsys.readouterr()
    return path


def play(capsys, maze_file, *argv):
    return run_cli(capsys, "--layout", maze_file, "--display", "none", "--max-moves", "3", *argv)


@pytest.mark.parametrize("agent", ["os:system", "json:dumps", "math:pi", "builtins:print"])
def test_a_callable_that_is_not_an_agent_is_refused(capsys, maze_file, agent):
    assert_one_line_error(*play(capsys, maze_file, "--pacman", agent), agent)


def test_an_agent_class_is_accepted(capsys, maze_file):
    code, _, err = play(capsys, maze_file, "--pacman", "pacman.agents.basic:RandomPacman")
    assert code == 0, err


def test_record_to_a_full_device_is_refused(capsys, maze_file):
    assert_one_line_error(*play(capsys, maze_file, "--pacman", "random", "--record",
                                "/dev/full"), "--record /dev/full", "No space left")


def test_record_into_a_missing_folder_is_refused(capsys, maze_file, tmp_path):
    target = str(tmp_path / "absent" / "games.jsonl")
    assert_one_line_error(*play(capsys, maze_file, "--pacman", "random", "--record", target),
                          "--record")


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e999", "-1", "601", "soon"])
def test_export_frame_time_must_be_a_finite_bounded_number(capsys, recording, tmp_path, value):
    code, out, err = run_cli(capsys, "export", str(recording), str(tmp_path / "a.gif"),
                             "--frame-time", value)
    assert_one_line_error(code, out, err, "--frame-time")


def test_export_with_a_good_frame_time_writes_the_file(capsys, recording, tmp_path):
    target = tmp_path / "a.gif"
    code, _, err = run_cli(capsys, "export", str(recording), str(target), "--frame-time", "2")
    assert code == 0, err
    assert target.stat().st_size > 0


@pytest.mark.parametrize(("option", "value"), [("--frame-time", "inf"), ("--frame-time", "nan"),
                                               ("--time-limit", "nan"), ("--time-limit", "-1")])
def test_play_seconds_must_be_finite(capsys, maze_file, option, value):
    assert_one_line_error(*play(capsys, maze_file, option, value), option)


def test_experiment_out_must_be_a_folder(capsys, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    code, out, err = run_cli(capsys, "experiment", "thrashing", "--out", str(afile), "--games", "1")
    assert_one_line_error(code, out, err, "--out", "is a file")
    assert afile.read_text(encoding="utf-8") == "x"


def _deep_tree(depth: int) -> str:
    text = '{"id": "leaf", "value": 1}'
    for level in range(depth):
        text = f'{{"id": "n{level}", "kind": "max", "children": [{text}]}}'
    return text


@pytest.mark.parametrize("text, needle", [
    pytest.param(_deep_tree(3000), "deep", id="3000-deep"),
    pytest.param(_deep_tree(250), "deeper than", id="250-deep"),
    pytest.param('{"id": "r", "kind": "chance", "children": [{"id": "a", "p": 1%s, "value": 1},'
                 ' {"id": "b", "p": 0, "value": 2}]}' % ("0" * 400), "'p'", id="400-digit-p"),
    pytest.param('{"id": "r", "kind": "chance", "children": [{"id": "a", "p": "1%s/3", '
                 '"value": 1}, {"id": "b", "p": "1/2", "value": 2}]}' % ("0" * 400), "'p'",
                 id="400-digit-fraction"),
    pytest.param('{"id": "r", "kind": "max", "children": [{"id": "a", "value": 1%s}, '
                 '{"id": "b", "value": 2}]}' % ("0" * 400), "too large", id="400-digit-value"),
    pytest.param('{"id": "r", "value": 1%s}' % ("0" * 5000), "invalid JSON", id="5000-digits"),
    pytest.param('{"id": "r", "kind": "max", "children": [{"id": "a", "value": [1, 2]}, '
                 '{"id": "b", "value": [3, 4]}]}', "vector value", id="vector-values"),
])
@pytest.mark.parametrize("algorithm", ["alphabeta", "expectimax"])
def test_bad_trees_are_refused(capsys, tmp_path, text, needle, algorithm):
    path = tmp_path / "tree.json"
    path.write_text(text, encoding="utf-8")
    assert_one_line_error(*run_cli(capsys, "tree", str(path), "-a", algorithm), needle)


def test_a_tree_as_deep_as_allowed_is_searched(capsys, tmp_path):
    path = tmp_path / "tree.json"
    path.write_text(_deep_tree(200), encoding="utf-8")
    code, out, err = run_cli(capsys, "tree", str(path), "-a", "alphabeta", "--json")
    assert code == 0, err
    assert json.loads(out)["value"] == 1


def _edited(recording, tmp_path, **changes):
    data = json.loads(recording.read_text(encoding="utf-8").splitlines()[0])
    for key, change in changes.items():
        data[key] = change(data[key]) if callable(change) else change
    path = tmp_path / "edited.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("changes, needle", [
    pytest.param({"agents": "abc"}, "'agents'", id="agents-as-text"),
    pytest.param({"actions": lambda a: a[:-1]}, "", id="last-action-removed"),
    pytest.param({"outcome": "banana"}, "unknown outcome", id="unknown-outcome"),
    pytest.param({"score": "NaN"}, "'score'", id="score-as-text"),
])
def test_replay_refuses_a_tampered_recording(capsys, recording, tmp_path, changes, needle):
    path = _edited(recording, tmp_path, **changes)
    assert_one_line_error(*run_cli(capsys, "--replay", path, "--display", "none"), needle)


def test_replay_refuses_an_outcome_edited_to_win(capsys, recording, tmp_path):
    data = json.loads(recording.read_text(encoding="utf-8").splitlines()[0])
    assert data["outcome"] != "win"
    path = _edited(recording, tmp_path, outcome="win")
    code, out, err = run_cli(capsys, "--replay", path, "--display", "none")
    assert_one_line_error(code, out, err, "'win'")
    assert "reproduced" not in out


def test_replay_game_k_of_a_recording(capsys, recording):
    games = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()]
    code, out, err = run_cli(capsys, "--replay", str(recording), "--game", "2", "--display",
                             "none", "--json")
    assert code == 0, err
    [shown] = [json.loads(line) for line in out.splitlines()]
    assert shown["seed"] == games[1]["seed"] == 6
    assert_one_line_error(*run_cli(capsys, "--replay", str(recording), "--game", "4",
                                   "--display", "none"), "holds 3 games")


def test_replay_game_k_of_a_batch_results_store(capsys, maze_file, tmp_path):
    store = tmp_path / "games.jsonl"
    code, _, err = run_cli(capsys, "batch", "--layout", maze_file, "--pacman", "random",
                           "--ghosts", "random", "--games", "3", "--max-moves", "20",
                           "--workers", "1", "--store", str(store), "--no-progress")
    assert code == 0, err
    code, out, err = run_cli(capsys, "--replay", str(store), "--game", "2", "--display", "none",
                             "--json")
    assert code == 0, err
    # --game K is the record whose index is K (game K of the batch: seed 0 + K), not a line
    assert len(out.splitlines()) == 1 and json.loads(out)["layout"] == "maze"
    assert json.loads(out)["seed"] == 2


def test_game_without_replay_is_refused(capsys, maze_file):
    assert_one_line_error(*play(capsys, maze_file, "--game", "2"), "--game")
