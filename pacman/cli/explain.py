"""``explain``: the search behind one of Pacman's recorded moves, as a page that steps through it.

Usage: ``explain RECORDING --move N [--game K] --html PAGE [--theme {dark,light}]``. Reads the
recording with :func:`pacman.engine.game.load_results`, replays game ``K`` (default 1) to the position
before Pacman's ``N``-th move, rebuilds the recorded Pacman (``minimax``, ``alphabeta`` or
``expectimax`` from the catalog, with its recorded depth and options; an evaluation or ghost
model only by a built-in name: nothing a recording names is imported) and writes the explorer
page of its search there (:mod:`pacman.display.search_decision`). Prints the value (to four
significant digits), the action and the counts (cuts: those that pruned something). Errors are
one line on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from pacman.agents.catalog import GHOST_AGENTS, short_name
from pacman.agents.evaluation import EVALUATIONS
from pacman.agents.search.steps import shown
from pacman.cli.argtypes import whole_number
from pacman.display.search_page import THEMES
from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult, agent_rng, load_indexed_results, replay_states
from pacman.engine.recording import select_game
from pacman.engine.state import GameState

#: the Pacman agents whose search a page can show
EXPLAINED = ("minimax", "alphabeta", "expectimax")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``explain`` command's arguments to ``parser``."""
    parser.add_argument("recording", metavar="RECORDING",
                        help="a file written by --record (or a batch store's games.jsonl)")
    parser.add_argument("--move", type=whole_number(1), required=True, metavar="N",
                        help="Pacman's N-th move of the game (1 is the first)")
    parser.add_argument("--game", type=whole_number(0), metavar="K",
                        help="the game whose record has index K in a results store (as "
                             "reports name it), or the K-th game (from 1) of a file written "
                             "by --record (default: the file's first game)")
    parser.add_argument("--html", required=True, metavar="PAGE",
                        help="the page to write: the search tree, step by step, and the board")
    parser.add_argument("--theme", choices=THEMES, default="dark",
                        help="the page's colours: dark (screen, default) or light (projector)")


def run(args: argparse.Namespace) -> int:
    """Run the ``explain`` command; returns the exit code (errors raise ``PacmanError``)."""
    from pacman.display.search_decision import explore_decision

    games = load_indexed_results(args.recording)
    result = (select_game(games, args.game, args.recording) if args.game is not None
              else games[0][1])
    state, played = position_before(result, args.move)
    agent = recorded_pacman(result)
    explored = explore_decision(
        agent, state, expected=played,
        title=f"{result.layout}, seed {result.seed}, Pacman's move {args.move}")
    size = explored.write(args.html, theme=args.theme)
    stats = explored.result.stats
    counts = explored.trace["counts"]
    print(f"value: {shown(explored.result.value)}  action: {explored.result.action}  "
          f"(played: {played})")
    empty = (f" (and {counts['empty_cuts']} cut tests after a last move, which pruned "
             "nothing)" if counts["empty_cuts"] else "")
    print(f"generated: {stats.nodes_generated}  evaluated: {stats.leaf_evaluations}  "
          f"cuts: {counts['cutoffs']}{empty}  steps: {len(explored.trace['steps'])}")
    pv = explored.trace["principal_variation"]
    print("principal variation: " + (", ".join(
        f"{who} {move}" for who, move in zip(explored.trace["movers"], pv)) or "-"))
    if explored.trace["note"]:
        print(f"note: {explored.trace['note']}")
    print(f"page: {args.html} ({size:,} bytes)")
    return 0


def position_before(result: GameResult, move: int) -> tuple[GameState, str]:
    """The state before Pacman's ``move``-th move (1-based) and the action played there."""
    if move > result.moves:
        raise ConfigurationError(f"the game has {result.moves} Pacman move"
                                 f"{'s' if result.moves != 1 else ''}, not {move}")
    seen = 0
    for number, state in enumerate(replay_states(result)):
        if state.turn == 0 and state.outcome is None:
            seen += 1
            if seen == move and number < len(result.actions):
                return state, result.actions[number]
    raise ConfigurationError(f"Pacman's move {move} is not in the recording")


def recorded_pacman(result: GameResult) -> Any:
    """The recorded Pacman agent rebuilt from the catalog with its recorded options, built with
    the game's generator for agent 0; only built-in names are accepted for the agent, its
    evaluation and its ghost model."""
    from pacman.lineup.build import agent_spec

    recorded = result.agents[0]
    name = short_name(str(recorded.get("name", "")), "pacman")
    if name not in EXPLAINED:
        raise ConfigurationError(f"Pacman in this recording is {recorded.get('name')!r}; explain "
                                 f"shows the searches of {', '.join(EXPLAINED)}")
    options = {str(k): str(v) for k, v in (recorded.get("options") or {}).items()}
    evaluation = options.get("evaluation")
    if evaluation is not None and evaluation.strip() not in EVALUATIONS:
        raise ConfigurationError(f"the recorded evaluation {evaluation!r} is not a built-in one "
                                 f"({', '.join(EVALUATIONS)}); explain imports nothing a "
                                 "recording names")
    model = options.get("model")
    if model is not None and model.strip() != "uniform" and \
            short_name(model.strip(), "ghost") not in GHOST_AGENTS:
        raise ConfigurationError(f"the recorded ghost model {model!r} is not a built-in ghost; "
                                 "explain imports nothing a recording names")
    spec = agent_spec(name, "pacman", options, isolate=False)
    return spec.build(0, agent_rng(result.seed, 0))
