"""An experiment run from one folder prints watch commands that work from any other, and its
GIF can be made wide enough for a projector (``--board-size``)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from PIL import Image

from pacman import experiments
from pacman.cli import main
from pacman.experiments import Settings, write_report
from tests.cli_support import run_cli


def test_watch_commands_work_from_any_folder_and_the_gif_is_as_wide_as_asked(
        tmp_path, monkeypatch, capsys):
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(here)
    run = Settings(games=2, seed=0, out=Path("results"), workers=1, board_size=800)
    report = experiments.get("thrashing").run(run, mazes=())
    write_report(report, run)
    assert report.watch
    text = (here / "results" / "report.md").read_text()
    assert "absolute path" in text
    monkeypatch.chdir(elsewhere)
    for cell, command in report.watch:
        arguments = shlex.split(command)
        store = Path(arguments[arguments.index("--replay") + 1])
        assert store.is_absolute() and store == here / "results" / "games.jsonl"
        capsys.readouterr()
        assert main([*arguments[1:], "-q", "--json"]) == 0, command
        replayed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert f"seed {replayed['seed']}," in cell
    with Image.open(here / "results" / report.gif[0]) as gif:
        assert gif.size[0] >= 800


def test_the_board_size_option_is_checked_and_reaches_the_export(tmp_path, capsys):
    from pacman.display.export import export_tile

    assert export_tile(20, 1.0, 800) * 20 >= 800
    assert export_tile(40, 1.0) == 16 and export_tile(40, 1.0, 800) == 20
    code, _, err = run_cli(capsys, "experiment", "thrashing", "--board-size", "0", "--out",
                           tmp_path)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
