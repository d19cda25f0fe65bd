"""Running the command line inside a test: ``run_cli(capsys, *argv)`` gives the exit code and
what was printed."""

from __future__ import annotations

from typing import Any

from pacman.cli import main


def run_cli(capsys: Any, *argv: Any) -> tuple[int, str, str]:
    """``pacman-arena ARGV...`` run in this process: ``(exit code, stdout, stderr)``."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as stop:
        code = stop.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    return code, out, err
