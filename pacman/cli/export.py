"""``export``: turn recorded games into animated GIFs (or MP4s), without a screen."""

from __future__ import annotations

import argparse

from pacman.cli.argtypes import frame_seconds, whole_number
import sys

from pacman.cli.play import zoom_factor
from pacman.lineup.recorded_agents import recorded_evaluation
from pacman.engine.recorded_game import find_game


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recording", metavar="RECORDING",
                        help="a file written by --record (one game per line)")
    parser.add_argument("output", metavar="OUT.gif|OUT.mp4|OUT.html",
                        help="the animation to write (MP4 needs imageio-ffmpeg), or a web page "
                             "that plays the game")
    parser.add_argument("--game", type=whole_number(0), metavar="K",
                        help="the game whose record has index K in a results store (as "
                             "reports name it), or the K-th game (from 1) of a file written "
                             "by --record (default: the file's first game)")
    parser.add_argument("--frame-time", type=frame_seconds, default=0.1, metavar="SECONDS",
                        help="seconds per round on screen (default: 0.1)")
    parser.add_argument("--zoom", type=zoom_factor, default=1.0, metavar="FACTOR",
                        help="cell size, 1 = 16 pixels (default: 1; a maze narrower than "
                             "the status bar gets larger cells instead of side bars)")
    parser.add_argument("--every-move", action="store_true",
                        help="one frame per agent move instead of one per round")
    parser.add_argument("--smooth", type=whole_number(0, maximum=100), default=0, metavar="K",
                        help="K in-between frames per step for smooth movement (default: 0)")
    parser.add_argument("--overlay", action="store_true",
                        help="draw the heat map of the recorded Pacman's evaluation function "
                             "(built-in evaluations only; nothing the recording names is "
                             "loaded)")


def run(args: argparse.Namespace) -> int:
    from pacman.display.export import check_target, export_game
    from pacman.display.html import is_html, write_html

    if not is_html(args.output):
        check_target(args.output)
    result = find_game(args.recording, args.game)  # one game in memory, whatever the file
    if is_html(args.output):
        size = write_html(result, args.output)
        print(f"wrote {args.output} ({size / 1000:.0f} kB, the game with seed {result.seed} on "
              f"{result.layout}: {result.outcome}, score {result.score})")
        return 0
    evaluation = None
    if args.overlay:
        recorded = recorded_evaluation(result.agents)
        evaluation = recorded.evaluation
        if recorded.note:
            print(f"note: no overlay: {recorded.note}", file=sys.stderr, flush=True)
    count = export_game(result, args.output, frame_time=args.frame_time, zoom=args.zoom,
                        every_move=args.every_move, smooth=args.smooth, evaluation=evaluation)
    print(f"wrote {args.output} ({count} frames of the game with seed {result.seed} on "
          f"{result.layout}: {result.outcome}, score {result.score})")
    return 0
