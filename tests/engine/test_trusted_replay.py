"""Recordings are data from anyone: a replay loads nothing they name and checks all they state.

Each case is a recording edited as someone sharing files could edit it; the replay must refuse
it with one line (exit code 2), or, for a payload named as an agent or an evaluation, show the
game without ever running the payload.
"""

from __future__ import annotations

import json
import sys

import pytest

from pacman.engine.game import GameResult, replay_states
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.build import lineup
from pacman.engine.outcome import Outcome
from pacman.errors import ConfigurationError
from tests.cli_support import run_cli as cli

PAYLOAD = '''
import pathlib
pathlib.Path(__file__).with_name("PAYLOAD_RAN").write_text("ran")

def evil(state):
    return 0.0

class Agent:
    def __init__(self, index=0, rng=None):
        pass
    def get_action(self, state):
        return state.legal_actions()[0]
'''


def play(pacman: str = "alphabeta", seed: int = 3, layout: str = "small_classic",
         max_moves: int = 1000, **options: str) -> GameResult:
    maze = load_layout(layout)
    specs = lineup(maze, pacman, "directional", None, options or {"depth": "2"})
    return run_game(maze, specs, seed, max_moves=max_moves)


@pytest.fixture(scope="module")
def won() -> GameResult:
    result = play()
    assert result.outcome == Outcome.WIN
    return result


@pytest.fixture(scope="module")
def lost() -> GameResult:
    maze = load_layout("small_classic")
    for seed in range(20):
        result = run_game(maze, lineup(maze, "random", "directional"), seed)
        if result.outcome == Outcome.LOSS:
            return result
    raise AssertionError("no lost game among 20 seeds")




def write(path, *games: dict) -> str:
    path.write_text("".join(json.dumps(game) + "\n" for game in games), encoding="utf-8")
    return str(path)


def edited(result: GameResult, **changes) -> dict:
    data = result.to_dict()
    data.update(changes)
    return data


# --- 1. replays name, never load ------------------------------------------------------------

@pytest.fixture
def payload(tmp_path, monkeypatch):
    """A payload file and a payload module (importable from ``tmp_path``); the marker file
    ``PAYLOAD_RAN`` appears if either runs."""
    (tmp_path / "payload.py").write_text(PAYLOAD, encoding="utf-8")
    (tmp_path / "payload_module.py").write_text(PAYLOAD, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "payload_module", raising=False)
    return tmp_path


def payload_recordings(result: GameResult, folder) -> list[str]:
    """Recordings of ``result`` naming the payload; the fourth names a built-in evaluation
    (its overlay can be shown), the others none."""
    file_ = str(folder / "payload.py")
    named = [
        [{"name": "alphabeta", "options": {"evaluation": f"{file_}:evil"}}],
        [{"name": f"{file_}:Agent", "options": {}}],
        [{"name": "alphabeta", "options": {"evaluation": "payload_module:evil"}}],
        [{"name": "payload_module:Agent", "options": {"evaluation": "better"}}],
        [{"name": "alphabeta", "options": {"evaluation": f"linear:{file_}"}}],
    ]
    paths = []
    for number, agents in enumerate(named):
        data = edited(result, agents=agents + result.to_dict()["agents"][1:])
        paths.append(write(folder / f"payload{number}.jsonl", data))
    return paths


@pytest.mark.parametrize("command", [
    ["--replay", "REC", "--display", "none", "--json"],
    ["--replay", "REC", "--display", "none", "--overlay", "--export", "OUT.gif"],
    ["--replay", "REC", "--display", "text", "--frame-time", "0"],
    ["export", "REC", "OUT.gif", "--overlay"],
    ["export", "REC", "OUT.html"],
])
def test_no_command_that_reads_a_recording_runs_what_it_names(capsys, payload, won, command):
    for number, recording in enumerate(payload_recordings(won, payload)):
        argv = [recording if a == "REC" else str(payload / a) if a.startswith("OUT") else a
                for a in command]
        code, out, err = cli(capsys, *argv)
        assert code == 0, err
        assert not (payload / "PAYLOAD_RAN").exists(), (recording, command)
        assert "payload_module" not in sys.modules
        if "--overlay" in command:
            assert err.count("note: no overlay:") == (number != 3), err
            assert number == 3 or "built in" in err


def test_the_notebook_and_web_page_views_run_nothing_a_recording_names(payload, won):
    from pacman.display.html import write_html
    from pacman.display.notebook import Recording

    for recording in payload_recordings(won, payload):
        replays = Recording.load(recording)
        replays._repr_html_()
        write_html(replays.results[0], str(payload / "page.html"))
    assert not (payload / "PAYLOAD_RAN").exists()
    assert "payload_module" not in sys.modules


def test_the_overlay_of_a_replay_recomputes_a_built_in_evaluation(capsys, tmp_path, won):
    from pacman.lineup.recorded_agents import recorded_evaluation

    assert recorded_evaluation(won.agents).evaluation is not None
    linear = recorded_evaluation([{"name": "expectimax",
                                   "options": {"evaluation": "linear:score=1"}}])
    assert linear.evaluation is not None and linear.note is None
    recording = write(tmp_path / "won.jsonl", won.to_dict())
    code, _, err = cli(capsys, "export", recording, str(tmp_path / "x.gif"), "--overlay")
    assert code == 0 and "note" not in err


# --- 2. everything a record states that can be checked ---------------------------------------

def refused(capsys, tmp_path, data: dict, needle: str) -> None:
    recording = write(tmp_path / "edited.jsonl", data)
    for argv in (["--replay", recording, "--display", "none"],
                 ["export", recording, str(tmp_path / "x.html")]):
        code, out, err = cli(capsys, *argv)
        assert code == 2, (argv, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0] and "Traceback" not in err, err
        assert "reproduced" not in out


def test_a_lost_game_relabelled_as_a_ghosts_crash_is_refused(capsys, tmp_path, lost):
    data = edited(lost, outcome="crash",
                  failure={"agent": 1, "kind": "crash", "message": "ValueError: boom"})
    refused(capsys, tmp_path, data, "ends with a loss")


def test_a_won_game_relabelled_as_pacmans_timeout_is_refused(capsys, tmp_path, won):
    data = edited(won, outcome="timeout",
                  failure={"agent": 0, "kind": "timeout", "message": "took 2 s for one move"})
    refused(capsys, tmp_path, data, "ends with a win")


def test_a_game_longer_than_its_move_cap_is_refused(capsys, tmp_path, won):
    refused(capsys, tmp_path, edited(won, max_moves=0), "max_moves")
    refused(capsys, tmp_path, edited(won, max_moves=won.moves - 1), "after the game's move cap")


def test_a_maze_under_another_shipped_mazes_name_is_refused(capsys, tmp_path, won):
    refused(capsys, tmp_path, edited(won, layout="mediumClassic"),
            "is not the shipped maze of that name")


def test_a_failure_after_the_last_move_is_a_real_outcome(tmp_path):
    """An agent whose ``stats()`` raises after a won game fails that game: the replay ends
    in a win yet the recorded crash is right, and must be accepted."""

    class Exploding:
        def __init__(self, index=0, rng=None):
            from pacman.agents.catalog import PACMAN_AGENTS

            self.inner = PACMAN_AGENTS["alphabeta"](index=index, rng=rng, depth=2)

        def get_action(self, state):
            return self.inner.get_action(state)

        def stats(self):
            raise RuntimeError("no stats today")

    maze = load_layout("small_classic")
    specs = lineup(maze, "alphabeta", "directional")
    result = run_game(maze, [Exploding(0), *specs[1:]], 3)
    assert result.outcome == Outcome.CRASH and result.failure is not None
    assert list(replay_states(result))[-1].outcome == Outcome.WIN


def test_a_replay_says_what_it_checked_and_what_it_cannot(capsys, tmp_path, won):
    recording = write(tmp_path / "won.jsonl", won.to_dict())
    code, out, err = cli(capsys, "--replay", recording, "--display", "none")
    assert code == 0, err
    assert "reproduced exactly" not in out
    assert "the shipped maze's text" in out and "not checkable from a recording: the seed" in out


# --- 5. --game K is the record whose index is K --------------------------------------------

def store_lines(results: list[GameResult], indexes: list[int]) -> list[dict]:
    from pacman.batch.jobs import GameJob

    lines = []
    for result, index in zip(results, indexes):
        job = GameJob("c", "small_classic", "alphabeta", seed=result.seed)
        lines.append({"key": job.key, "index": index, "job": job.to_dict(),
                      "result": result.to_dict()})
    return lines


def test_game_k_selects_the_record_whose_index_is_k(capsys, tmp_path, won, lost):
    # lines in finishing order: index 5 first, then index 0
    store = write(tmp_path / "games.jsonl", *store_lines([won, lost], [5, 0]))
    for argv in (["--replay", store, "--display", "none", "--json"],):
        code, out, err = cli(capsys, *argv, "--game", "0")
        assert code == 0, err
        assert json.loads(out)["seed"] == lost.seed
        code, out, err = cli(capsys, *argv, "--game", "5")
        assert json.loads(out)["seed"] == won.seed
        code, out, err = cli(capsys, *argv, "--game", "1")
        assert code == 2 and "no record has index 1" in err
    code, out, err = cli(capsys, "export", store, str(tmp_path / "x.html"), "--game", "0")
    assert code == 0 and f"seed {lost.seed}" in out


def test_a_recording_without_indexes_counts_its_games_from_one(won, lost):
    from pacman.engine.recording import select_game

    games = [(None, won), (None, lost)]
    assert select_game(games, 2, "f") is lost
    with pytest.raises(ConfigurationError, match="counts its games from 1"):
        select_game(games, 0, "f")


def test_max_moves_on_a_replay_is_refused(capsys, tmp_path, won):
    recording = write(tmp_path / "won.jsonl", won.to_dict())
    code, out, err = cli(capsys, "--replay", recording, "--max-moves", "20", "--display", "none")
    assert code == 2 and "--max-moves" in err and len(err.strip().splitlines()) == 1


def test_a_fifo_is_refused_as_a_recording(capsys, tmp_path):
    import os

    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for argv in (["--replay", str(fifo), "--display", "none"],
                 ["export", str(fifo), str(tmp_path / "x.html")]):
        code, _, err = cli(capsys, *argv)
        assert code == 2 and "FIFO" in err



@pytest.mark.parametrize("message", ["stats raised RuntimeError: no", "stats: the agent's "
                                     "process exited with code None",
                                     "stats did not return within 1.00 s"])
def test_a_failure_in_stats_after_the_end_is_accepted_as_recorded(capsys, tmp_path, won,
                                                                  message):
    kind = "timeout" if "did not return" in message else "crash"
    data = edited(won, outcome=kind, failure={"agent": 0, "kind": kind, "message": message})
    code, out, err = cli(capsys, "--replay", write(tmp_path / "r.jsonl", data), "--display",
                         "none")
    assert code == 0, err
