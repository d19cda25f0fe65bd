"""The command line: ``pacman-arena [COMMAND] [OPTIONS]`` (or ``run.py`` from a checkout);
``play`` is the default command.

Every command module in :mod:`pacman.cli` offers ``configure(parser)`` and ``run(args)``.
Errors a user can cause are printed as one line on stderr with exit code 2; Ctrl-C exits with
130 after saying so. Only this module (and the command modules) print.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import sys
from typing import Any
from collections.abc import Sequence

from pacman.version import __version__
from pacman.errors import PacmanError
from pacman.registry import Registry

def _commands() -> Registry[Any]:
    registry: Registry[Any] = Registry("command")
    for name, help_text in (
            ("play", "play, watch, record or replay games (the default)"),
            ("tree", "run a search algorithm on a game tree (JSON or built-in)"),
            ("grade", "grade student agents against an assignment"),
            ("batch", "play many seeded games in parallel: tables, plots, resume"),
            ("report", "tables and plots from a batch results store"),
            ("tournament", "a class cup: every submission on the same seeds, ranked fairly"),
            ("experiment", "run a lecture experiment into a Markdown report with plots"),
            ("export", "write a recorded game as a GIF, an MP4 or a web page (HTML)"),
            ("explain", "a page stepping through Pacman's search at one recorded move")):
        registry.register(name, f"pacman.cli.{name}", help=help_text)
    return registry


#: Commands by name: each a module of :mod:`pacman.cli` with ``configure`` and ``run``.
COMMANDS = _commands()

#: Every line of help within this many columns (fewer on a narrower terminal).
HELP_WIDTH = 80

#: Examples at the end of each command's help: (command line after the program's name, what
#: it does). Each is a command that works as shown (the tests run the ones that need no file).
EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "": (
        ("-p MinimaxAgent -l minimaxClassic -a depth=4", "the handout's command (random ghosts)"),
        ("-p alphabeta -t", "watch a game in the terminal"),
        ("tree recitation -a alphabeta", "alpha-beta on the recitation's tree"),
        ("grade multiAgents.py", "grade your agents"),
    ),
    "play": (
        ("-p MinimaxAgent -l minimaxClassic -a depth=4", "the handout's command (random ghosts)"),
        ("-p alphabeta -g directional -t -s 7", "in the terminal, seed 7"),
        ("-p expectimax -l trappedClassic -q -n 10 --record games.jsonl", "10 games, recorded"),
        ("--replay games.jsonl --game 2", "watch game 2 of the recording again"),
    ),
    "tree": (
        ("tree recitation -a alphabeta", "the recitation's tree: value and nodes evaluated"),
        ("tree slides_expectimax -a expectimax --json", "a lecture tree, as JSON"),
        ("tree my_tree.json -a minimax --depth 2", "your own tree, cut at depth 2"),
        ("tree recitation -a alphabeta --html ab.html", "a page that steps through the search"),
    ),
    "explain": (
        ("explain games.jsonl --move 5 --html move5.html", "Pacman's search at his 5th move"),
        ("explain games.jsonl --move 1 --html first.html --theme light", "for a projector"),
    ),
    "grade": (
        ("grade multiAgents.py", "grade one file with the default assignment"),
        ("grade multiAgents.py -a classic -q q2", "only question q2 of the classic assignment"),
        ("grade submissions/ --out grades -j 1", "a folder of submissions, one at a time"),
    ),
    "batch": (
        ("batch -p alphabeta -p expectimax -l smallClassic -n 50 --out res",
         "two agents, 50 seeds each, tables and plots in res/"),
        ("batch -p minimax --sweep depth=1,2,3 -n 20 -j 1", "one agent at three depths"),
        ("batch --config batch.toml --store runs.jsonl", "settings from a file; run again to resume"),
    ),
    "report": (
        ("report batch_results.jsonl", "the table of a results store"),
        ("report batch_results.jsonl --out summary --no-plots", "tables written to summary/"),
        ("report batch_results.jsonl --compare 1 2", "conditions 1 and 2 on the same seeds"),
    ),
    "tournament": (
        ("tournament submissions/ --out cup/", "the mini-contest: every entrant, the same seeds"),
        ("tournament submissions/ --config cup.toml --out cup/ -j 8", "settings from a file"),
        ("tournament submissions/ --out cup/ --merge", "the table of a cup's shards"),
    ),
    "experiment": (
        ("experiment --list", "the lecture's experiments"),
        ("experiment thrashing --games 10 --workers 1", "a small run of one of them"),
    ),
    "export": (
        ("export games.jsonl game.gif", "the first recorded game as an animated GIF"),
        ("export games.jsonl game.html --game 2", "game 2 as a web page that plays it"),
        ("export games.jsonl game.mp4 --smooth 3", "an MP4 with smooth movement"),
    ),
}


def examples_text(command: str, prog: str) -> str:
    """The "examples:" paragraph of ``command``'s help, each line within :data:`HELP_WIDTH`:
    the commands with what they do after them, aligned, or above them when that is too wide."""
    typed = [(f"  {prog} {line}", what) for line, what in EXAMPLES.get(command, ())]
    column = max((len(text) for text, _ in typed), default=0)
    inline = all(column + len(what) + 5 <= HELP_WIDTH for _, what in typed)
    lines = ["examples:"]
    for text, what in typed:
        lines += [f"{text:{column}}   # {what}"] if inline else [f"  # {what}", text]
    return "\n".join(lines)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help within :data:`HELP_WIDTH` columns; a paragraph whose lines are indented
    (the examples) is kept as written."""

    def __init__(self, prog: str, **options: Any) -> None:
        columns = shutil.get_terminal_size((HELP_WIDTH, 24)).columns
        options.setdefault("width", max(40, min(HELP_WIDTH, columns) - 2))
        super().__init__(prog, **options)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        fill = super()._fill_text
        return "\n\n".join(p if "\n " in p else fill(p, width, indent)
                           for p in text.split("\n\n"))


#: The names the program is started by: the installed script and the checkout's script.
PROGRAM_NAMES = ("pacman-arena", "run.py")


def program_name(argv0: str | None = None) -> str:
    """The name the user typed to start the program: ``pacman-arena`` or ``run.py``.

    Taken from ``argv0`` (default ``sys.argv[0]``); anything else (``python -m``, an embedding
    program, a test runner) is called ``pacman-arena``. Help, usage, version lines and the
    commands quoted in reports all use this name.
    """
    base = os.path.basename(sys.argv[0] if argv0 is None else argv0)
    if base.lower().endswith(".exe"):
        base = base[:-4]
    return base if base in PROGRAM_NAMES else PROGRAM_NAMES[0]


def one_line(message: str) -> str:
    """``message`` with every character that is not printable (line breaks, controls) shown
    as an escape, so that it prints as exactly one line whatever a user typed."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def error_line(message: str) -> str:
    """How every error a user can cause is printed (one line, one prefix for the whole
    program): ``pacman-arena: MESSAGE``."""
    return f"{program_name()}: {one_line(message)}"


def print_error(message: str) -> None:
    """Print ``message`` as an error line on stderr (see :func:`error_line`)."""
    print(error_line(message), file=sys.stderr, flush=True)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2; an unknown option or
    command gets the closest known name (``--layot``: did you mean ``--layout``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        #: Every option string of this parser, for suggestions.
        self.option_names: list[str] = []
        #: The parsers of its commands (set by :func:`build_parser` on the top parser).
        self.command_parsers: list[argparse.ArgumentParser] = []
        super().__init__(*args, **kwargs)

    def add_argument(self, *names: Any, **options: Any) -> argparse.Action:
        self.option_names += [n for n in names if isinstance(n, str) and n.startswith("-")]
        return super().add_argument(*names, **options)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, error_line(self.suggested(message)) + "\n")

    def suggested(self, message: str) -> str:
        """``message`` about unrecognised arguments as a sentence about the first of them,
        with the closest option (for ``-x``) or command (for a bare word) when one is close."""
        prefix = "unrecognized arguments: "
        if not message.startswith(prefix):
            return message
        word = message[len(prefix):].split(" ")[0]
        if word.startswith("-"):
            name = word.partition("=")[0]
            options = [o for parser in (self, *self.command_parsers) for o in
                       getattr(parser, "option_names", ()) if o.startswith("--")]
            close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else f"; '{self.prog} --help' lists them"
            return f"unknown option {name}{hint}"
        close = difflib.get_close_matches(word, list(COMMANDS), n=1, cutoff=0.6)
        hint = (f"; did you mean {close[0]}?" if close
                else f"; the commands are {', '.join(COMMANDS)}")
        return f"unknown command {word!r}{hint}"


def build_parser() -> _Parser:
    prog = program_name()
    parser = _Parser(prog=prog, description="Pacman for adversarial search: play games, "
                     f"search game trees. '{prog} COMMAND --help' describes a command.",
                     formatter_class=_HelpFormatter,
                     epilog=examples_text("", prog))
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module in COMMANDS.items():
        help_text = COMMANDS.help(name)
        sub = commands.add_parser(name, help=help_text, description=help_text,
                                  epilog=examples_text(name, prog),
                                  formatter_class=_HelpFormatter)
        module.configure(sub)
        sub.set_defaults(handler=module.run)
        parser.command_parsers.append(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0] not in (*COMMANDS, "-h", "--help", "--version"):
        args_list.insert(0, "play")
    try:
        parser = build_parser()
        args = parser.parse_args(args_list)
        args.command_line = args_list  # for reports that quote the command that made them
        return int(args.handler(args) or 0)
    except PacmanError as error:
        print_error(str(error))
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1

