"""What ``play`` and its ``--replay`` show and write: the display of the games, the heat map's
evaluation, and the ``--export`` files (an animation or a web page per game)."""

from __future__ import annotations

import argparse
import sys
from typing import Any
from collections.abc import Callable

from pacman.display import make_display, resolve_kind
from pacman.display.base import BaseDisplay
from pacman.game import AgentSpec, GameResult


def game_display(args: argparse.Namespace, evaluation: Callable | None = None) -> BaseDisplay:
    """The display ``--display`` asks for (``none`` for ``--json`` with ``auto``), set up from
    the command's options."""
    kind = args.display
    if args.json and kind == "auto":
        kind = "none"
    concrete = resolve_kind(kind)
    frame_time = args.frame_time
    if frame_time is None:
        frame_time = 0.0 if concrete == "none" else 0.1
    options: dict[str, Any] = {}
    if concrete == "text" and args.json:
        options["stream"] = sys.stderr
    if concrete == "window":
        options.update(zoom=args.zoom, overlay=args.overlay, evaluation=evaluation,
                       pause_between=args.pause_between)
    return make_display(concrete, frame_time=frame_time, **options)


def pacman_evaluation(spec: AgentSpec) -> Callable | None:
    """The evaluation function Pacman's agent uses (given or default), for the heat map."""
    from pacman.options import declared_options

    if "evaluation" in spec.options:
        found = spec.options["evaluation"]
    else:
        found = declared_options(spec.factory).get("evaluation", (None, None))[1]
    return found if callable(found) and not isinstance(found, type) else None


def check_export(args: argparse.Namespace) -> None:
    """Refuse a bad ``--export`` target before any game is played."""
    if args.export:
        from pacman.display.export import check_target
        from pacman.display.html import is_html

        if not is_html(args.export):
            check_target(args.export)


def export_game_file(args: argparse.Namespace, result: GameResult, number: int, total: int,
            evaluation: Callable | None) -> None:
    """Write ``result`` as an animation when ``--export`` asks for it."""
    if not args.export:
        return
    from pacman.display.export import export_game
    from pacman.display.html import is_html, write_html

    path = args.export
    if total > 1:
        stem, dot, ending = path.rpartition(".")
        path = f"{stem}-{number + 1}{dot}{ending}"
    if is_html(path):
        size = write_html(result, path)
        print(f"wrote {path} ({size / 1000:.0f} kB)", file=sys.stderr if args.json else sys.stdout,
              flush=True)
        return
    count = export_game(result, path, frame_time=args.frame_time or 0.1,
                        zoom=args.zoom or 1.0,
                        evaluation=evaluation if args.overlay else None)
    print(f"wrote {path} ({count} frames)", file=sys.stderr if args.json else sys.stdout,
          flush=True)
