"""``play`` (the default command): watch or run games, record them, replay recordings."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from pacman.engine.agent_stats import bounded_stats
from pacman.cli.argtypes import frame_seconds, time_limit, whole_number
from pacman.cli.game_output import (HeldOutput, Tally, check_export, draws_in_terminal,
                                         export_game_file, game_display, held_output,
                                         late_place, pacman_evaluation, show_failure)
from pacman.display import DISPLAY_KINDS
from pacman.display.base import BaseDisplay
from pacman.display.controls import QUIT, RESTART, with_human_input
from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult
from pacman.contained.agent import is_contained
from pacman.contained.process import keep_processes
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout
from pacman.lineup.options import parse_assignments
from pacman.engine.outcome import Outcome

DEFAULT_LAYOUT = "small_classic"
DEFAULT_PACMAN = "alphabeta"
#: Options of the default Pacman: three rounds ahead with the default ``better`` evaluation wins
#: 96 of 100 games on the default maze against the default ghosts (docs/playing.md). The node
#: budget never binds there (at most about 750 states a move) but keeps a move well under a
#: second with many ghosts, where three full rounds would not finish (agents/bounded.py).
DEFAULT_PACMAN_OPTIONS = {"depth": "3", "node_budget": "20000"}
DEFAULT_GHOSTS = "directional"
#: The classic course's default ghosts, played when its habits are in use and ``-g`` is not
#: given: its handout's results (minimaxClassic, trappedClassic) are against random ghosts.
CLASSIC_GHOSTS = "random"
#: The classic course's maze names (shipped character for character under these names).
CLASSIC_MAZES = ("smallClassic", "mediumClassic", "openClassic", "originalClassic",
                 "minimaxClassic", "trappedClassic", "capsuleClassic", "contestClassic",
                 "testClassic", "trickyClassic")
DEFAULT_MAX_MOVES = 1000
#: The per-move limit when an agent comes from a file or a module and ``--time-limit`` is not
#: given: the classic course's ``--timeout`` default, so an endless loop ends the game.
FILE_AGENT_TIME_LIMIT = 30.0
#: The seed ``--fix-seed`` (the classic course's ``-f``) plays when no ``--seed`` is given.
FIXED_SEED = 188
#: The classic course's names for evaluation functions in ``-a evalFn=NAME``.
CLASSIC_EVALUATIONS = {"scoreEvaluationFunction": "score", "betterEvaluationFunction": "better",
                       "better": "better"}


def configure(parser: argparse.ArgumentParser) -> None:
    _add_agent_arguments(parser)
    _add_game_arguments(parser)
    _add_display_arguments(parser)
    _add_record_arguments(parser)
    _add_student_argument(parser)


def _add_student_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--student", metavar="FILE",
                        help="the student's file whose classes -p names (default: "
                             "./multiAgents.py where it exists), e.g. -p AlphaBetaAgent")


def _add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the maze and the agents that play."""
    parser.add_argument("--layout", "-l", default=DEFAULT_LAYOUT, metavar="NAME|PATH",
                        help=f"shipped maze name or maze file (default: {DEFAULT_LAYOUT})")
    parser.add_argument("--pacman", "-p", metavar="AGENT",
                        help=f"Pacman agent: name, module:attr or file.py:Name "
                             f"(default: {DEFAULT_PACMAN} with depth=3)")
    parser.add_argument("--ghosts", "-g", metavar="AGENT[,AGENT...]",
                        help="ghost agent for every ghost, or a comma list, one per ghost "
                             f"(default: {DEFAULT_GHOSTS}; {CLASSIC_GHOSTS} with a classic class "
                             "name or maze, as in the classic course)")
    parser.add_argument("--num-ghosts", type=whole_number(0), metavar="K",
                        help="how many ghosts play (default: every ghost start of the maze)")
    parser.add_argument("--numghosts", "-k", dest="max_ghosts", type=whole_number(0),
                        metavar="K", help="at most K ghosts play (the classic course's -k)")
    parser.add_argument("--pacman-opt", action="append", metavar="KEY=VALUE",
                        help="option for the Pacman agent (repeatable), e.g. depth=3")
    parser.add_argument("--agent-args", "--agentArgs", "-a", action="append",
                        metavar="KEY=VALUE,...",
                        help="options for the Pacman agent, comma-separated, e.g. depth=3,"
                             "evaluation=better (the classic course's evalFn=... works too)")
    parser.add_argument("--ghost-opt", action="append", metavar="KEY=VALUE",
                        help="option for every ghost agent (repeatable), e.g. attack=0.9")


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of seeds, number and length of games."""
    parser.add_argument("--seed", "-s", type=int, metavar="S",
                        help="seed of the first game; game i uses S+i (default: random)")
    parser.add_argument("--fix-seed", "--fixRandomSeed", "-f", action="store_true",
                        help=f"play the same games every time: seed {FIXED_SEED} unless --seed "
                             "is given")
    parser.add_argument("--games", "--numGames", "-n", type=whole_number(1), default=1,
                        metavar="N", help="number of games (default: 1)")
    parser.add_argument("--max-moves", type=whole_number(1), metavar="M",
                        help=f"end a game after Pacman's M-th move (default: "
                             f"{DEFAULT_MAX_MOVES}; not with --replay)")
    parser.add_argument("--time-limit", "--timeout", type=_limit_or_inf, metavar="SECONDS",
                        help="per-move think-time limit; an agent over it loses by timeout "
                             f"(default: none for built-in agents, {FILE_AGENT_TIME_LIMIT:g} s "
                             "when an agent comes from a file; inf: none)")


def _add_display_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of how games are drawn and exported."""
    parser.add_argument("--display", "-d", choices=DISPLAY_KINDS, default="auto",
                        help="auto (a window if a screen exists, else text), window, text or none")
    parser.add_argument("--text", "--textGraphics", "-t", dest="display", action="store_const",
                        const="text", help="draw in the terminal (same as --display text)")
    parser.add_argument("--quiet", "--quietTextGraphics", "-q", dest="display",
                        action="store_const", const="none",
                        help="no drawing, one line per game (same as --display none)")
    parser.add_argument("--frame-time", "--frameTime", type=frame_seconds, metavar="SECONDS",
                        help="pause between drawn frames (default: 0.1; 0 with --display none)")
    parser.add_argument("--zoom", "-z", type=zoom_factor, metavar="FACTOR",
                        help="window cell size, 1 = 24 pixels (default: fit the screen); "
                             "with --export, 1 = 16 pixels")
    parser.add_argument("--overlay", action="store_true",
                        help="start the window with the search overlay shown (key s); with "
                             "--export, draw the heat map of Pacman's evaluation")
    parser.add_argument("--pause-between", action="store_true",
                        help="in the window, wait for a key after each game instead of going "
                             "on by itself after a short pause")
    parser.add_argument("--pause-at-end", action="store_true",
                        help="in the window, keep the last game's end up until a key (by "
                             "default the window closes by itself after a few seconds)")
    parser.add_argument("--export", metavar="FILE.gif|FILE.mp4|FILE.html",
                        help="also write every game (or replayed game) as an animation or a "
                             "web page; "
                             "several games get -1, -2, ... before the ending")


def _add_record_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of recordings, replays, listings and output."""
    parser.add_argument("--record", metavar="FILE",
                        help="write every game as one JSON line to FILE, for --replay")
    parser.add_argument("--recordActions", "-r", dest="record_actions", action="store_true",
                        help="the classic course's -r: record the games to a file named by "
                             "the time (recorded-games-DATE-TIME.jsonl) unless --record names one")
    parser.add_argument("--catchExceptions", "-c", action="store_true",
                        help="the classic course's -c, accepted: an agent that raises always "
                             "loses its game as a crash, and the games go on")
    parser.add_argument("--replay", metavar="FILE",
                        help="show the games recorded in FILE instead of playing")
    parser.add_argument("--game", type=whole_number(0), metavar="K",
                        help="with --replay: only the game whose record has index K in a "
                             "results store (as reports name it), or the K-th game (from 1) "
                             "of a file written by --record")
    parser.add_argument("--list-layouts", action="store_true", help="list the shipped mazes")
    parser.add_argument("--list-agents", action="store_true",
                        help="list agents, their options and the evaluation functions")
    parser.add_argument("--json", action="store_true",
                        help="print each game's result as one JSON object per line")


def _limit_or_inf(text: str) -> float:
    """``--time-limit``'s type: :func:`~pacman.cli.argtypes.time_limit`, with no limit
    as ``math.inf`` (so that ``inf`` given differs from the option left out)."""
    value = time_limit(text)
    return math.inf if value is None else value


def zoom_factor(text: str) -> float:
    """An argparse type for ``--zoom``: a number above 0, at most 5."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value <= 5:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 5, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    if args.list_layouts or args.list_agents:
        from pacman.cli.listing import list_agents, list_layouts

        return list_layouts() if args.list_layouts else list_agents()
    if args.replay:
        from pacman.cli.replay import replay

        return replay(args)
    if args.game is not None:
        raise ConfigurationError("--game picks a game of --replay FILE; without --replay, "
                                 "--games N says how many to play")
    return play(args)


def play(args: argparse.Namespace) -> int:
    """Play ``args.games`` games; a contained agent's process plays all of them (it is
    started when its name is checked, and ends when the games do)."""
    from pacman.lineup.student_file import student_pacman

    layout = load_layout(args.layout)
    num_ghosts = args.num_ghosts
    if num_ghosts is None and args.max_ghosts is not None:
        num_ghosts = min(args.max_ghosts, layout.num_ghosts)
    ghosts, why = ghosts_of(args)
    pacman_options(args)  # a bad -a value is the one line said, before any note on the agent
    pacman = student_pacman(args.pacman, DEFAULT_PACMAN, args.student)
    # from here on, agents' processes start, and their prints are held while games are drawn
    with keep_processes(), held_output(draws_in_terminal(args)) as held:
        return _play(args, layout, pacman, ghosts, why, num_ghosts, held)


def _play(args: argparse.Namespace, layout: Any, pacman: str, ghosts: str, why: str | None,
          num_ghosts: int | None, held: HeldOutput) -> int:
    from pacman.cli import program_name
    from pacman.lineup.build import lineup

    # a file's agent gets the default limit in its process too, where it says where it was
    file_limit = FILE_AGENT_TIME_LIMIT if args.time_limit is None else args.time_limit
    specs = lineup(layout, pacman, ghosts, num_ghosts,
                   pacman_options(args),
                   parse_assignments(args.ghost_opt, "--ghost-opt"),
                   time_limit=None if file_limit == math.inf else file_limit)
    if why and len(specs) > 1:
        print(f"ghosts: {ghosts} ({why}; -g to choose)",
              file=sys.stderr if args.json else sys.stdout, flush=True)
    move_limit = None if args.time_limit == math.inf else args.time_limit
    if args.time_limit is None and any(is_contained(s) for s in specs):
        move_limit = FILE_AGENT_TIME_LIMIT
        print(f"time limit: {FILE_AGENT_TIME_LIMIT:g} s a move for agents from files "
              "(--timeout SECONDS changes it)", file=sys.stderr if args.json else sys.stdout,
              flush=True)
    check_export(args)
    evaluation = pacman_evaluation(specs[0])
    display = game_display(args, evaluation)
    specs = with_human_input(specs, display.human_input())
    first_seed = first_seed_of(args)
    if args.record_actions and not args.record:
        import time

        args.record = time.strftime("recorded-games-%Y%m%d-%H%M%S.jsonl")
        print(f"recording to {args.record} (-r; {program_name()} --replay {args.record} shows "
              "them)", file=sys.stderr, flush=True)
    record = _open_record(args.record)
    # A running tally, not a list of results: a long run of games keeps constant memory.
    played = wins = total_score = 0
    tally = Tally()
    last: GameResult | None = None
    try:
        number = 0
        while number < args.games:
            seed = first_seed + number
            announced = _announce_on_finish(display, number, seed, args)
            result = run_game(layout, specs, seed,
                              max_moves=args.max_moves or DEFAULT_MAX_MOVES,
                              move_time_limit=move_limit, display=display)
            request = display.request
            if request == RESTART:  # the same game again: same number, same seed
                print(f"game {number + 1}/{args.games} (seed {seed}): restarted",
                      file=sys.stderr if args.json else sys.stdout, flush=True)
                continue
            played, wins, total_score, last = (played + 1, wins + result.won,
                                               total_score + result.score, result)
            tally.add(result)
            result.agent_stats, dropped = bounded_stats(result.agent_stats)
            for problem in dropped:
                print(f"warning: game {number + 1} (seed {seed}): {problem}; not recorded",
                      file=sys.stderr, flush=True)
            if record is not None:
                _write_record(record, args.record, result.to_json() + "\n")
            if not announced:
                _report(result, number, args)
            held.release()  # the agents' prints of this game, then its crash if any
            show_failure(result, tally.crashes == 1)
            held.release(heading=None)
            export_game_file(args, result, number, args.games, evaluation)
            if result.outcome == Outcome.INTERRUPTED or request == QUIT:
                break
            number += 1
    finally:
        if record is not None:
            _close_record(record, args.record)
        display.close()
    if not args.json and played > 1:
        print(f"won {wins}/{played}, mean score {total_score / played:.1f}")
        print(tally.classic_summary())
    interrupted = last is not None and last.outcome == Outcome.INTERRUPTED
    if interrupted and display.request != QUIT:
        return 130
    return 1 if tally.crashes else 0


def _announce_on_finish(display: BaseDisplay, number: int, seed: int,
                        args: argparse.Namespace) -> list[bool]:
    """Have an interactive display print game ``number``'s result the moment the game ends
    (before it waits for a key) and tell it how many games follow and which game it shows.
    Returns a list that holds ``True`` once the result was printed (else the caller prints)."""
    announced: list[bool] = []

    def announce(result: GameResult) -> None:
        if result.outcome == Outcome.INTERRUPTED and display.request == RESTART:
            return  # the same game starts again; the caller says so
        _report(result, number, args)
        announced.append(True)

    display.announce = announce
    display.games_left = args.games - number - 1
    display.label = f"game {number + 1}/{args.games}, seed {seed}"
    return announced


def classic_habit(args: argparse.Namespace) -> str | None:
    """The classic course's habit in use on this command line, as it was typed (``-p
    MinimaxAgent``, ``-l minimaxClassic``), or ``None``."""
    from pacman.agents.catalog import CLASSIC_NAMES

    if args.pacman is not None and args.pacman.strip() in CLASSIC_NAMES["pacman"]:
        return f"-p {args.pacman.strip()}"
    if args.layout in CLASSIC_MAZES:
        return f"-l {args.layout}"
    return None


def ghosts_of(args: argparse.Namespace) -> tuple[str, str | None]:
    """The ghosts that play: ``-g``'s, else :data:`CLASSIC_GHOSTS` when a classic habit is in
    use (with the reason, to be said), else :data:`DEFAULT_GHOSTS`."""
    if args.ghosts is not None:
        return args.ghosts, None
    habit = classic_habit(args)
    if habit is not None:
        return CLASSIC_GHOSTS, f"the classic default with {habit}"
    return DEFAULT_GHOSTS, None


def pacman_options(args: argparse.Namespace) -> dict[str, str]:
    """Pacman's options: :data:`DEFAULT_PACMAN_OPTIONS` when no ``--pacman`` is named, then
    ``-a k=v,...`` (the classic course's form, with its ``evalFn`` name accepted), then
    ``--pacman-opt k=v`` (later ones win where they give the same key)."""
    items = [part for text in args.agent_args or () for part in text.split(",") if part.strip()]
    options = dict(DEFAULT_PACMAN_OPTIONS) if args.pacman is None else {}
    options.update(parse_assignments(items, "-a"))
    if "evalFn" in options:
        name = options.pop("evalFn")
        options.setdefault("evaluation", CLASSIC_EVALUATIONS.get(name, name))
    options.update(parse_assignments(args.pacman_opt, "--pacman-opt"))
    depth = options.get("depth")
    if depth is not None and not depth.strip().isdigit():
        # said here, not by the student's int(depth) as a crash of their constructor
        raise ConfigurationError(f"-a depth={depth[:40]}: depth expects a whole number "
                                 "(0 or more), e.g. depth=3")
    return options


def first_seed_of(args: argparse.Namespace) -> int:
    """The seed of the first game: ``--seed``, else :data:`FIXED_SEED` with ``--fix-seed``,
    else a fresh random one."""
    if args.seed is not None:
        return args.seed
    return FIXED_SEED if args.fix_seed else _fresh_seed()


def _report(result: GameResult, number: int, args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps(result.summary()), flush=True)
        return
    line = (f"game {number + 1}/{args.games} (seed {result.seed}): {result.outcome}, "
            f"score {result.score}, {result.moves} moves")
    if result.failure:
        line += (f" -- agent {result.failure.agent} ({result.agents[result.failure.agent]['name']})"
                 f" {result.failure.kind}: {result.failure.message}{late_place(result)}")
    print(line, flush=True)


def _open_record(path: str | None):
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or error
        raise ConfigurationError(f"--record {path}: cannot write ({reason})") from None


def _write_record(record: Any, path: str, line: str) -> None:
    try:
        record.write(line)
        record.flush()
    except OSError as error:
        raise ConfigurationError(f"--record {path}: cannot write ({error.strerror})") from None


def _close_record(record: Any, path: str) -> None:
    try:
        record.close()
    except OSError as error:
        raise ConfigurationError(f"--record {path}: cannot write ({error.strerror})") from None


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(10**9)
