"""Every reader of stores, recordings and worker replies has the same limits on a JSON line:
an over-deep line (a 200,000-deep array) or an over-long one is refused by file and line, exit
code 2, one ``pacman-arena:`` line and no traceback, in ``report``, a resumed ``batch``,
``--replay``, ``export``, ``explain`` and the grader's reading of a worker's answer."""

from __future__ import annotations

import json

import pytest

from pacman.engine import json_lines
from pacman.grading.sandbox import decode_answer
from pacman.engine.json_lines import JSONLimitError, load_json

from tests.cli_support import run_cli

DEEP = "[" * 200_000 + "]" * 200_000
BATCH = ["batch", "-p", "random", "-g", "random", "-l", "tiny", "--max-moves", "20",
         "--no-plots", "--no-progress"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("json-limits")
    store, recording = folder / "store.jsonl", folder / "games.jsonl"
    from pacman.cli import main

    assert main([*BATCH, "--games", "2", "--store", str(store), "--out", str(folder / "out")]) == 0
    assert main(["--record", str(recording), "-p", "random", "-g", "random", "-l", "tiny",
                 "-n", "2", "-q"]) == 0
    return store.read_text(), recording.read_text()


def _bad_line(kind: str, monkeypatch) -> str:
    if kind == "deep":
        return DEEP
    monkeypatch.setattr(json_lines, "MAX_LINE_BYTES", 2000)
    return json.dumps({"padding": "x" * 3000})


def _refused(err: str, where: str, kind: str) -> None:
    assert err.startswith("pacman-arena:") and err.count("\n") == 1, err
    assert where in err, err
    assert ("nested deeper than 32" if kind == "deep" else "longer than 2,000 bytes") in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", ["deep", "long"])
def test_report_and_a_resumed_batch_refuse_the_line(files, tmp_path, capsys, monkeypatch, kind):
    store = tmp_path / "store.jsonl"
    lines = files[0].splitlines(keepends=True)
    store.write_text(lines[0] + _bad_line(kind, monkeypatch) + "\n" + "".join(lines[1:]))
    code, _, err = run_cli(capsys, "report", store)
    assert code == 2
    _refused(err, f"{store}:2:", kind)
    code, _, err = run_cli(capsys, *BATCH, "--games", "3", "--store", store, "--out", tmp_path / "o")
    assert code == 2
    _refused(err, f"{store}:2:", kind)


@pytest.mark.parametrize("kind", ["deep", "long"])
def test_replay_export_and_explain_refuse_the_line(files, tmp_path, capsys, monkeypatch, kind):
    recording = tmp_path / "games.jsonl"
    recording.write_text(_bad_line(kind, monkeypatch) + "\n" + files[1])
    for argv in (["--replay", recording, "--game", "2", "-q"],
                 ["export", recording, tmp_path / "game.html", "--game", "2"],
                 ["explain", recording, "--game", "2", "--move", "1", "--html", tmp_path / "e.html"]):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2, argv
        _refused(err, f"{recording}:1:", kind)


def test_the_grader_reads_a_workers_answer_with_the_same_limits():
    with pytest.raises(ValueError, match="nested deeper than 32"):
        decode_answer(("{\"a\": " + DEEP + "}").encode())
    with pytest.raises(ValueError, match="nested deeper than 32"):
        decode_answer(json.dumps({"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}).encode())
    assert decode_answer(b'{"action": "North"}') == {"action": "North"}


def test_the_limits_are_exact():
    assert load_json("[" * 32 + "]" * 32) is not None
    with pytest.raises(JSONLimitError):
        load_json("[" * 33 + "]" * 33)
    assert load_json(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') is not None
    with pytest.raises(JSONLimitError, match="longer than 10 bytes"):
        load_json('"' + "x" * 10 + '"', max_bytes=10)
