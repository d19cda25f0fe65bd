"""A store counts only games that replay: edited records are refused by resume, report and
merged shards, with their line number and why; a seal of this user's key spares the replay
of records its own batches wrote, and proves nothing once a record is edited."""

from __future__ import annotations

import json

import pytest

from pacman.batch.seal import is_sealed, seal
from pacman.engine.layout import load_layout
from tests.engine.test_cli import run_cli

from .test_batch_cli import one_line_error

BATCH = ("batch", "--pacman", "random", "--ghosts", "random", "--seed", "0",
         "--max-moves", "200", "--workers", "1", "--no-progress")


@pytest.fixture(autouse=True)
def own_key(tmp_path, monkeypatch):
    monkeypatch.setenv("PACMAN_ARENA_SEAL_KEY", str(tmp_path / "seal.key"))


@pytest.fixture
def store(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    code, _, err = run_cli(capsys, *BATCH, "--games", "10", "--layout", "small_classic",
                           "--store", str(path))
    assert code == 0, err
    return path


def records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def rewrite(path, changed: dict, number: int, sealed: bool = False) -> None:
    """Put ``changed`` as record ``number`` (from 0) of the store at ``path``; ``sealed``
    keeps the seal of the record it replaces (an edit that leaves the seal in place)."""
    lines = path.read_text().splitlines()
    old = json.loads(lines[number + 1])
    changed = dict(changed)
    changed.pop("seal", None)
    text = json.dumps(changed, separators=(",", ":"))
    if sealed:
        text = text[:-1] + f',"seal":"{old["seal"]}"}}'
    lines[number + 1] = text
    path.write_text("\n".join(lines) + "\n")


def refused_everywhere(capsys, path, tmp_path, number: int, needle: str) -> None:
    """``report``, ``report`` of merged shards and a resumed ``batch`` refuse the store,
    naming line ``number + 2`` and ``needle``."""
    clean = tmp_path / "clean.jsonl"
    clean.write_text(path.read_text().splitlines(keepends=True)[0])
    for argv in (["report", str(path)], ["report", str(clean), str(path)],
                 [*BATCH, "--games", "10", "--layout", "small_classic", "--store", str(path)]):
        code, out, err = run_cli(capsys, *argv)
        one_line_error(code, err, f"{path}:{number + 2}:", needle)


def test_a_loss_edited_into_a_well_typed_win_is_refused(capsys, store, tmp_path):
    games = records(store)
    number = next(i for i, r in enumerate(games) if r["result"]["outcome"] == "loss")
    edited = games[number]
    edited["result"].update(outcome="win", score=edited["result"]["score"] + 5000)
    rewrite(store, edited, number)
    refused_everywhere(capsys, store, tmp_path, number, "does not replay")


def test_an_edit_under_a_kept_seal_is_replayed_and_refused(capsys, store, tmp_path):
    games = records(store)
    number = next(i for i, r in enumerate(games) if r["result"]["outcome"] == "loss")
    edited = games[number]
    edited["result"].update(outcome="win", score=edited["result"]["score"] + 5000)
    rewrite(store, edited, number, sealed=True)
    refused_everywhere(capsys, store, tmp_path, number, "does not replay")


def test_cut_actions_and_a_swapped_maze_are_refused(capsys, store, tmp_path):
    games = records(store)
    games[1]["result"]["actions"] = games[1]["result"]["actions"][:3]
    rewrite(store, games[1], 1)
    refused_everywhere(capsys, store, tmp_path, 1, "does not replay")
    rewrite(store, records(store)[2], 1)  # a good record again (a duplicate of game 2)
    games[4]["result"]["layout_text"] = load_layout("mediumClassic").text
    rewrite(store, games[4], 4)
    refused_everywhere(capsys, store, tmp_path, 4, "maze")


def test_settings_that_are_not_the_jobs_are_refused(capsys, store, tmp_path):
    games = records(store)
    games[0]["result"]["max_moves"] = 500
    rewrite(store, games[0], 0)
    refused_everywhere(capsys, store, tmp_path, 0, "move cap")


def test_records_without_a_seal_of_this_user_are_replayed_and_counted(capsys, store,
                                                                       tmp_path, monkeypatch):
    code, mine, _ = run_cli(capsys, "report", str(store), "--json")
    assert code == 0
    monkeypatch.setenv("PACMAN_ARENA_SEAL_KEY", str(tmp_path / "another-users.key"))
    code, theirs, err = run_cli(capsys, "report", str(store), "--json")
    assert code == 0, err
    assert json.loads(theirs)["conditions"][0]["games"] == 10
    assert json.loads(theirs) == json.loads(mine)


def test_a_seal_matches_only_the_line_it_was_made_for(tmp_path):
    line = json.dumps({"key": "k", "result": {"score": 1}})
    sealed = seal(line).encode()
    assert is_sealed(sealed) and not is_sealed(line.encode())
    assert not is_sealed(sealed.replace(b'"score": 1', b'"score": 2'))


def test_report_and_resume_run_nothing_a_store_names(capsys, store, tmp_path):
    from pacman.batch.jobs import GameJob
    from tests.engine.test_trusted_replay import PAYLOAD

    (tmp_path / "payload.py").write_text(PAYLOAD, encoding="utf-8")
    named = f"{tmp_path / 'payload.py'}:Agent"
    games = records(store)
    record = games[0]
    record["job"].update(pacman=named, pacman_options={"evaluation": f"{tmp_path}/payload.py:evil"})
    record["result"]["agents"][0] = {"name": named, "options": record["job"]["pacman_options"]}
    record["key"] = GameJob.from_dict(record["job"]).key
    rewrite(store, record, 0)
    for argv in (["report", str(store)],
                 [*BATCH, "--layout", "small_classic", "--games", "11", "--store", str(store)]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 0, err
    assert not (tmp_path / "PAYLOAD_RAN").exists()


@pytest.mark.parametrize("bad", [7, None, ["North"], {"a": 1}])
def test_actions_holding_anything_but_action_names_are_refused(capsys, store, tmp_path, bad):
    games = records(store)
    games[3]["result"]["actions"][5] = bad
    rewrite(store, games[3], 3)
    refused_everywhere(capsys, store, tmp_path, 3, "actions")
    recording = tmp_path / "game.json"
    recording.write_text(json.dumps(games[3]["result"]) + "\n")
    code, _, err = run_cli(capsys, "--replay", str(recording), "--display", "none")
    one_line_error(code, err, str(recording), "'actions' must be a list of action names")
