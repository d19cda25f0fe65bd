"""``--replay FILE``: show recorded games again, checking all that a recording states.

A recording is a file from anyone: it is read as data, its agents and evaluations stay text
(:mod:`pacman.lineup.recorded_agents`), and every game is replayed by the engine before it is shown
(:func:`pacman.engine.game.replay_states`). The output says what was checked and what a recording
cannot show (the seed, the agents' choices).
"""

from __future__ import annotations

import argparse
import json
import sys

from pacman.cli.game_output import check_export, export_game_file, game_display
from pacman.display.controls import QUIT
from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult, load_indexed_results, replay_states


def replay(args: argparse.Namespace) -> int:
    """Show recorded games move by move, checking everything a recording states that a replay
    can check, and saying what it cannot check. Nothing a recording names is loaded: the
    overlay recomputes built-in evaluations only (:mod:`pacman.lineup.recorded_agents`)."""
    from pacman.lineup.recorded_agents import recorded_evaluation
    from pacman.engine.recorded_game import find_game
    from pacman.engine.recording import verification_note

    if args.max_moves is not None:
        raise ConfigurationError("--max-moves sets the cap of games played; a replay shows "
                                 "the recorded game whole, ended by its own cap")
    # one game is found without holding the others (a recording can be gigabytes)
    results = ([find_game(args.replay, args.game)] if args.game is not None
               else [result for _, result in load_indexed_results(args.replay)])
    check_export(args)
    first = recorded_evaluation(results[0].agents)
    display = game_display(args, first.evaluation)
    noted: set[str] = set()
    try:
        for number, result in enumerate(results):
            display.label = f"{args.replay}: game {number + 1}/{len(results)}, seed {result.seed}"
            states = list(replay_states(result))
            recorded = recorded_evaluation(result.agents)
            if args.overlay and recorded.note and recorded.note not in noted:
                noted.add(recorded.note)
                print(f"note: no overlay: {recorded.note}", file=sys.stderr, flush=True)
            request = display.show_replay(result, states, evaluation=recorded.evaluation)
            note = verification_note(check_shipped_maze_name(result))
            if args.json:
                print(json.dumps({**result.summary(), **note}), flush=True)
            else:
                print(f"replayed seed {result.seed} on {result.layout}: {result.outcome}, "
                      f"score {result.score}, {result.moves} moves (checked: "
                      f"{', '.join(note['checked'])}; not checkable from a recording: "
                      f"{', '.join(note['not_checked'])})")
            export_game_file(args, result, number, len(results), recorded.evaluation)
            if request == QUIT:
                break
    finally:
        display.close()
    return 0


def check_shipped_maze_name(result: GameResult) -> bool:
    """Whether the replayed ``result`` was played on a shipped maze (its text was compared)."""
    from pacman.engine.layout import shipped_layout_names

    return result.layout in shipped_layout_names()
