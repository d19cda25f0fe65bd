"""The notebook example in docs/notebook.md runs as written, and every cell shows something."""

from __future__ import annotations

import re
from pathlib import Path

from pacman.cli import main
from pacman.display.notebook import result_html, state_png

DOC = Path(__file__).resolve().parents[2] / "docs" / "notebook.md"


def test_the_notebook_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["--display", "none", "--games", "3", "--seed", "1", "--max-moves", "40",
                 "--pacman", "greedy", "--record", "games.jsonl"]) == 0
    cells = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert len(cells) >= 4
    namespace: dict = {}
    shown = []
    for cell in cells:
        *body, last = [line for line in cell.strip().splitlines()]
        exec("\n".join(body), namespace)  # noqa: S102  (our own documentation)
        shown.append(eval(last.split("  #")[0], namespace))  # noqa: S307
    assert "<iframe" in result_html(shown[0])
    assert state_png(namespace["states"][30]).startswith(b"\x89PNG")
    assert result_html(shown[2]).count("<iframe") == 1
    assert namespace["games"]._repr_html_().count("<iframe") == 3
    assert (tmp_path / "game.html").stat().st_size > 1000
    assert shown[-1].size == (namespace["env"].unwrapped.render().shape[1],
                              namespace["env"].unwrapped.render().shape[0])
