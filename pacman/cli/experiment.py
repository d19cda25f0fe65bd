"""``experiment NAME``: run one lecture experiment and write its Markdown report and plots."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pacman.cli.argtypes import whole_number


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", metavar="NAME",
                        help="the experiment (see --list)")
    parser.add_argument("--list", action="store_true", help="list the experiments and exit")
    parser.add_argument("--games", type=whole_number(1), metavar="N",
                        help="games per condition (default: the experiment's full size)")
    parser.add_argument("--workers", type=whole_number(1), metavar="K",
                        help="worker processes (default: every core)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="game i of every condition plays seed S+i (default 0)")
    parser.add_argument("--out", metavar="DIR",
                        help="where the report, plots and results go (default: "
                             "experiments/NAME)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--board-size", type=whole_number(1, maximum=4000), metavar="PIXELS",
                        help="the board in the report's GIF at least PIXELS wide (for a "
                             "projector: 800 or more; default: 16-pixel cells)")


def run(args: argparse.Namespace) -> int:
    from pacman import experiments
    from pacman.errors import ConfigurationError
    from pacman.experiments.invocation import command_line

    if args.list or not args.name:
        if not args.list:
            raise ConfigurationError("name an experiment; 'experiment --list' lists them")
        from pacman.cli.listing import print_item

        for experiment in experiments.all_experiments():
            print_item(experiment.name, f"{experiment.title} ({experiment.games} games per "
                       "condition)", 14, indent=0)
            print_item("", experiment.summary, 14, indent=0)
        return 0
    experiment = experiments.get(args.name)
    out = Path(args.out or Path("experiments") / experiment.name)
    command = command_line(args.command_line)
    settings = experiments.Settings(games=args.games or experiment.games, seed=args.seed,
                                    out=out, workers=args.workers, command=command,
                                    progress=not args.no_progress and sys.stderr.isatty(),
                                    board_size=args.board_size)
    _make_folder(out)
    report = experiment.run(settings)
    path = experiments.write_report(report, settings)
    for claim in report.claims:
        print(f"{claim.verdict:>13}  {claim.text} ({claim.evidence})")
    print(f"report: {path}")
    return 0


def _make_folder(out: Path) -> None:
    """Create the output folder ``out``; a clear error if it is a file or cannot be made."""
    from pacman.errors import ConfigurationError

    if out.exists() and not out.is_dir():
        raise ConfigurationError(f"--out {out}: is a file; name a folder for the report")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigurationError(f"--out {out}: cannot create the folder "
                                 f"({error.strerror})") from None
