"""The command line: ``pacman-arena [COMMAND] [OPTIONS]`` (or ``run.py`` from a checkout);
``play`` is the default command.

Every command module in :mod:`pacman.commands` offers ``configure(parser)`` and ``run(args)``.
Errors a user can cause are printed as one line on stderr with exit code 2; Ctrl-C exits with
130 after saying so. Only this module (and the command modules) print.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any
from collections.abc import Sequence

from pacman import __version__
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
            ("experiment", "run a lecture experiment into a Markdown report with plots"),
            ("export", "write a recorded game as an animated GIF (or MP4)"),
            ("explain", "a page stepping through Pacman's search at one recorded move")):
        registry.register(name, f"pacman.commands.{name}", help=help_text)
    return registry


#: Commands by name: each a module of :mod:`pacman.commands` with ``configure`` and ``run``.
COMMANDS = _commands()


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


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    prog = program_name()
    parser = _Parser(prog=prog, description="Pacman for adversarial search: play games, "
                     f"search game trees. '{prog} COMMAND --help' describes a command.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module in COMMANDS.items():
        help_text = COMMANDS.help(name)
        sub = commands.add_parser(name, help=help_text, description=help_text)
        module.configure(sub)
        sub.set_defaults(handler=module.run)
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
        print(f"error: {one_line(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
