"""``tournament SUBMISSIONS``: every entrant's agent on the same seeds, ranked fairly, into a
folder with the table (text, CSV, JSON), a leaderboard page with replays and Gradescope
leaderboard fields. Running the same command again resumes the cup from its store."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pacman.batch.runner import BACKENDS
from pacman.cli.argtypes import whole_number
from pacman.cli.batch import shard


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("submissions", metavar="SUBMISSIONS",
                        help="folder of submissions: one file or folder per entrant")
    parser.add_argument("--config", metavar="FILE",
                        help="TOML file with the cup's settings (mazes, ghosts, games, seed, "
                             "limits, the class each entrant plays)")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="the cup's folder: its store (cup.jsonl), tables, leaderboard")
    parser.add_argument("--workers", "-j", type=whole_number(1), metavar="N",
                        help="worker processes (default: every core)")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="local processes (default) or a Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler to use (default: start a local cluster)")
    parser.add_argument("--chunk-size", type=whole_number(1), metavar="G",
                        help="games per task sent to a worker (default: automatic)")
    parser.add_argument("--shard", type=shard, metavar="I/N",
                        help="play only games I, I+N, ... of every entrant into "
                             "DIR/cup.shard-I-of-N.jsonl (a Slurm array task); --merge "
                             "makes the table of all shards")
    parser.add_argument("--merge", action="store_true",
                        help="play nothing: the table and files from every cup store in DIR")
    parser.add_argument("--no-replays", action="store_true",
                        help="no replay page per game (the leaderboard shows scores only)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress line")


def run(args: argparse.Namespace) -> int:
    from pacman.tournament import cup, results
    from pacman.tournament.config import read_config

    def note(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    config = read_config(args.config)
    folder, out = Path(args.submissions), Path(args.out)
    if args.merge:
        result = cup.merged_cup(folder, config, out, note)
    else:
        result = cup.run_cup(folder, config, out, workers=args.workers, backend=args.backend,
                             scheduler=args.scheduler, shard=args.shard,
                             chunk_size=args.chunk_size, progress=not args.no_progress,
                             note=note)
    if args.shard is None:
        written = cup.write_files(result, out, replays=not args.no_replays)
        note(f"wrote {', '.join(str(p) for p in written)}")
    print(results.to_json(result.tables, result.settings()) if args.json
          else results.to_text(result.tables))
    return 0
