"""The command line, called in-process: JSON output, one-line errors with exit code 2, replays."""

from __future__ import annotations

import json

import pytest

from pacman.engine.game import AgentSpec
from pacman.engine.game_loop import run_game
from pacman.engine.layout import read_layout
from tests.cli_support import run_cli


MAZE_TEXT = ("%%%%%%%%%\n"
             "%P..o..G%\n"
             "%.%%%%%.%\n"
             "%...G...%\n"
             "%%%%%%%%%\n")


@pytest.fixture
def maze_file(tmp_path):
    path = tmp_path / "cli_maze.lay"
    path.write_text(MAZE_TEXT, encoding="utf-8")
    return str(path)




def assert_one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("pacman-arena: "), lines[0]  # one prefix for every error
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_json_prints_one_object_per_game(capsys, maze_file):
    code, out, err = run_cli(capsys, "--layout", maze_file, "--pacman", "random",
                             "--ghosts", "random", "--seed", "11", "--games", "3",
                             "--max-moves", "40", "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 3
    games = [json.loads(line) for line in lines]
    assert [g["seed"] for g in games] == [11, 12, 13]
    for game in games:
        assert game["outcome"] in ("win", "loss", "move_limit")
        assert isinstance(game["score"], int) and 0 <= game["moves"] <= 40
        assert game["layout"] == "cli_maze"


def test_json_games_are_the_library_games_of_the_same_seed(capsys, maze_file):
    code, out, _ = run_cli(capsys, "--layout", maze_file, "--pacman", "random",
                           "--ghosts", "random", "--seed", "5", "--max-moves", "60", "--json")
    assert code == 0
    game = json.loads(out)
    from pacman.agents.basic import RandomPacman
    from pacman.agents.ghosts import RandomGhost
    specs = [AgentSpec("random", RandomPacman), AgentSpec("random", RandomGhost),
             AgentSpec("random", RandomGhost)]
    result = run_game(read_layout(maze_file), specs, seed=5, max_moves=60)
    assert (game["outcome"], game["score"], game["moves"]) == (
        result.outcome, result.score, result.moves)


def test_num_ghosts_option(capsys, maze_file):
    code, out, _ = run_cli(capsys, "--layout", maze_file, "-p", "random", "-k", "0",
                           "--seed", "1", "--max-moves", "5", "--json")
    assert code == 0
    assert json.loads(out)["agents"] == ["random"]


def test_record_then_replay(capsys, maze_file, tmp_path):
    record = tmp_path / "games.jsonl"
    code, out, err = run_cli(capsys, "--layout", maze_file, "-p", "random", "-g", "random",
                             "--seed", "3", "--games", "2", "--max-moves", "30",
                             "--display", "none", "--record", str(record), "--json")
    assert code == 0, err
    played = [json.loads(line) for line in out.strip().splitlines()]
    assert len(record.read_text(encoding="utf-8").strip().splitlines()) == 2
    code, out, err = run_cli(capsys, "--replay", str(record), "--display", "none", "--json")
    assert code == 0, err
    replayed = [json.loads(line) for line in out.strip().splitlines()]
    for line in replayed:  # a maze from a file: its text replays, its origin is not checked
        assert "score" in line.pop("checked") and "the seed" in line["not_checked"]
        assert "the maze file it came from" in line.pop("not_checked")
    assert replayed == played
    code, out, err = run_cli(capsys, "--replay", str(record), "--display", "none")
    assert code == 0 and out.count("not checkable from a recording: ") == 2
    assert "reproduced exactly" not in out


def test_replay_of_a_tampered_recording_is_a_one_line_error(capsys, maze_file, tmp_path):
    record = tmp_path / "games.jsonl"
    run_cli(capsys, "--layout", maze_file, "-p", "random", "--seed", "3", "--max-moves", "30",
            "--display", "none", "--record", str(record), "--json")
    data = json.loads(record.read_text(encoding="utf-8"))
    data["score"] += 3
    record.write_text(json.dumps(data) + "\n", encoding="utf-8")
    assert_one_line_error(*run_cli(capsys, "--replay", str(record), "--display", "none"),
                          "the replay ends with score")
    record.write_text("{broken\n", encoding="utf-8")
    assert_one_line_error(*run_cli(capsys, "--replay", str(record), "--display", "none"),
                          str(record))


def test_an_error_names_a_long_path_whole(capsys, tmp_path):
    """A file the user named is named back whole, however deep it lies: a cut path names a
    file that does not exist."""
    folder = tmp_path.joinpath(*["a-folder-with-a-long-name"] * 6)
    folder.mkdir(parents=True)
    record = folder / "games.jsonl"
    record.write_text("{broken\n", encoding="utf-8")
    assert len(str(record)) > 160
    assert_one_line_error(*run_cli(capsys, "--replay", str(record), "--display", "none"),
                          f"{record}:1: not a recorded game")
    maze = folder / "maze.lay"
    maze.write_bytes(b"\xff" * 5_000_000)
    assert_one_line_error(*run_cli(capsys, "--layout", str(maze), "--display", "none"), str(maze))


def test_replay_of_a_recording_with_an_impossible_ghost_count(capsys, maze_file, tmp_path):
    record = tmp_path / "games.jsonl"
    run_cli(capsys, "--layout", maze_file, "-p", "random", "--seed", "3", "--max-moves", "30",
            "--display", "none", "--record", str(record), "--json")
    data = json.loads(record.read_text(encoding="utf-8"))
    data["num_ghosts"] = 9
    record.write_text(json.dumps(data) + "\n", encoding="utf-8")
    assert_one_line_error(*run_cli(capsys, "--replay", str(record), "--display", "none"))


def test_list_agents(capsys):
    code, out, _ = run_cli(capsys, "--list-agents")
    assert code == 0
    for name in ("random", "greedy", "directional", "closest_dot"):
        assert name in out
    assert "allow_stop" in out  # options are listed too


# --- errors: exit code 2 and one line on stderr ---------------------------------------------------
def test_unknown_agent_suggests_the_close_name(capsys, maze_file):
    result = run_cli(capsys, "--layout", maze_file, "--pacman", "greedi")
    assert_one_line_error(*result, "greedi", "greedy")
    result = run_cli(capsys, "--layout", maze_file, "--ghosts", "directionl")
    assert_one_line_error(*result, "directionl", "directional")


def test_unknown_option_key(capsys, maze_file):
    result = run_cli(capsys, "--layout", maze_file, "--pacman", "greedy",
                     "--pacman-opt", "allow_stp=true")
    assert_one_line_error(*result, "allow_stp", "allow_stop")
    result = run_cli(capsys, "--layout", maze_file, "--ghost-opt", "atack=0.5")
    assert_one_line_error(*result, "atack", "attack")


@pytest.mark.parametrize("option, needle", [
    ("--pacman-opt=allow_stop=maybe", "allow_stop"),
    ("--ghost-opt=attack=lots", "attack"),
    ("--ghost-opt=distance=euclid", "distance"),
    ("--pacman-opt=tie_break=sideways", "tie_break"),
    ("--pacman-opt=evaluation=closest_dto", "closest_dot"),
    ("--pacman-opt=novalue", "novalue"),
])
def test_badly_typed_option_value(capsys, maze_file, option, needle):
    result = run_cli(capsys, "--layout", maze_file, "--pacman", "greedy", option)
    assert_one_line_error(*result, needle)


@pytest.mark.parametrize("args", [
    ("--num-ghosts", "3"),
    ("--ghosts", "random,random,random"),
    ("--ghosts", "random,random", "--num-ghosts", "1"),
    ("--num-ghosts", "-1"),
    ("--num-ghosts", "two"),
])
def test_bad_ghost_count(capsys, maze_file, args):
    assert_one_line_error(*run_cli(capsys, "--layout", maze_file, *args))


def test_malformed_maze_names_file_line_and_column(capsys, tmp_path):
    path = tmp_path / "broken.lay"
    path.write_text("%%%%%\n%P.x%\n%%%%%\n", encoding="utf-8")
    assert_one_line_error(*run_cli(capsys, "--layout", str(path)), f"{path}:2:4:")


def test_missing_maze(capsys, tmp_path):
    path = tmp_path / "absent.lay"
    assert_one_line_error(*run_cli(capsys, "--layout", str(path)), str(path))
    assert_one_line_error(*run_cli(capsys, "--layout", "no_such_maze_name"),
                          "no_such_maze_name")


def test_other_bad_values(capsys, maze_file):
    for args in (("--games", "0"), ("--max-moves", "x"), ("--time-limit", "-1"),
                 ("--display", "hologram"), ("--replay", "/nonexistent/rec.jsonl")):
        assert_one_line_error(*run_cli(capsys, "--layout", maze_file, *args))


def test_list_layouts_names_every_shipped_maze(capsys):
    from pacman.engine.layout import shipped_layout_names

    code, out, _ = run_cli(capsys, "--list-layouts")
    assert code == 0
    # an item's text wraps onto indented lines; each item starts with its name
    listed = {line.split()[0] for line in out.splitlines() if line.strip() and line[0] != " "}
    assert listed == set(shipped_layout_names())


@pytest.mark.parametrize("limit", ["9223372036", "1e12", "1e300"])
@pytest.mark.parametrize("pacman", ["alphabeta", "tests/containment/wing_agents.py:GlobalRandom"])
def test_a_time_limit_of_years_plays_as_no_limit(capsys, limit, pacman):
    """A limit longer than any timer holds (the interval timer and a poll's wait overflow near
    9.2e9 s) plays as no limit: not the agent's crash, not a traceback."""
    code, out, err = run_cli(capsys, "--display", "none", "--seed", "1", "--max-moves", "3",
                             "--time-limit", limit, "-p", pacman, "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"] == "move_limit"  # three moves played, no failure
