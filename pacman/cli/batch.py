"""``batch``: play a matrix of conditions headless, in parallel, into a resumable store.

Settings come from flags and, with ``--config FILE``, from a TOML file (flags win); the file
format is described in :mod:`pacman.batch.plan`. The table goes to stdout (JSON with
``--json``); progress and notes go to stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from pacman.batch.plan import (AgentEntry, BatchPlan, expand_sweeps, parse_sweep,
                               read_plan_file, with_shared_options)
from pacman.batch.runner import BACKENDS
from pacman.batch.store import check_store_path
from pacman.cli.argtypes import time_limit, whole_number
from pacman.cli.play import (DEFAULT_GHOSTS, DEFAULT_LAYOUT, DEFAULT_PACMAN,
                                  DEFAULT_PACMAN_OPTIONS)
from pacman.cli.report import add_table_options
from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult
from pacman.engine.outcome import Outcome
from pacman.lineup.options import parse_assignments

DEFAULT_STORE = "batch_results.jsonl"
DEFAULTS: dict[str, Any] = {"games": 100, "seed": 0, "num_ghosts": None, "max_moves": 1000,
                            "time_limit": None, "workers": None, "backend": "local",
                            "scheduler": None, "store": DEFAULT_STORE, "out": None,
                            "plot_option": None, "chunk_size": None}


def shard(text: str) -> tuple[int, int]:
    """An argparse type: ``I/N`` with ``1 <= I <= N``."""
    number, sep, count = text.partition("/")
    try:
        parsed = (int(number), int(count))
    except ValueError:
        parsed = None
    if not sep or parsed is None:
        raise argparse.ArgumentTypeError(f"expected I/N such as 2/4, got {text!r}")
    if not 1 <= parsed[0] <= parsed[1]:
        raise argparse.ArgumentTypeError(f"I/N needs 1 <= I <= N, got {text!r}")
    return parsed


def shard_path(path: str, part: tuple[int, int], folder: bool = False) -> str:
    """The store file (or ``folder``) ``path`` made shard ``part``'s own, so that the tasks of
    an array never write to one place: ``runs/depth.jsonl`` -> ``runs/depth.shard-2-of-4.jsonl``,
    ``results/depth`` (a folder) -> ``results/depth.shard-2-of-4``."""
    tag = f"shard-{part[0]}-of-{part[1]}"
    where = Path(path)
    if folder or not where.suffix:
        return str(where.with_name(f"{where.name}.{tag}"))
    return str(where.with_name(f"{where.stem}.{tag}{where.suffix}"))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="TOML file with the batch settings (flags override it)")
    parser.add_argument("--pacman", "-p", action="append", metavar="'AGENT [K=V ...]'",
                        help="a Pacman agent and its options (repeatable; default: "
                             f"{DEFAULT_PACMAN})")
    parser.add_argument("--ghosts", "-g", action="append", metavar="'AGENT[,AGENT...] [K=V ...]'",
                        help=f"a ghost line-up and its options (repeatable; default: "
                             f"{DEFAULT_GHOSTS})")
    parser.add_argument("--layout", "-l", action="append", metavar="NAME|PATH",
                        help=f"a maze (repeatable; default: {DEFAULT_LAYOUT})")
    parser.add_argument("--pacman-opt", action="append", metavar="KEY=VALUE",
                        help="option for every Pacman entry (repeatable)")
    parser.add_argument("--ghost-opt", action="append", metavar="KEY=VALUE",
                        help="option for every ghost entry (repeatable)")
    parser.add_argument("--sweep", action="append", metavar="KEY=V1,V2,...",
                        help="play every Pacman entry once per value of this option")
    parser.add_argument("--games", "-n", type=whole_number(1), metavar="N",
                        help="seeds per condition (default: 100)")
    parser.add_argument("--seed", "-s", type=int, metavar="S",
                        help="master seed: game i of every condition plays seed S+i (default 0)")
    parser.add_argument("--num-ghosts", "-k", type=whole_number(0), metavar="K",
                        help="how many ghosts play (default: every ghost start of the maze)")
    parser.add_argument("--max-moves", type=whole_number(1), metavar="M",
                        help="end a game after Pacman's M-th move (default: 1000)")
    parser.add_argument("--time-limit", type=time_limit, metavar="SECONDS",
                        help="per-move think-time limit; an agent over it loses by timeout "
                             "(inf: none)")
    parser.add_argument("--workers", "-j", type=whole_number(1), metavar="N",
                        help="worker processes (default: every core)")
    parser.add_argument("--backend", choices=BACKENDS,
                        help="local processes (default) or a Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler to use (default: start a local cluster)")
    parser.add_argument("--chunk-size", type=whole_number(1), metavar="G",
                        help="games per task sent to a worker (default: automatic)")
    parser.add_argument("--store", metavar="FILE",
                        help=f"results store to append to and resume from (default: "
                             f"{DEFAULT_STORE})")
    parser.add_argument("--no-store", action="store_true", help="keep results in memory only")
    parser.add_argument("--shard", type=shard, metavar="I/N",
                        help="play only games I, I+N, I+2N, ... of every condition (1 <= I <= N), "
                             "e.g. one task of a Slurm array, into a store and --out folder of "
                             "the shard's own (NAME.shard-I-of-N); 'report' merges the stores")
    add_table_options(parser, default_pairs="; default: each against the first with the "
                                            "same ghosts and maze")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """Defaults, then the TOML file, then the flags."""
    settings = dict(DEFAULTS)
    if args.config:
        settings.update(read_plan_file(args.config))
    if settings.get("plot_option") is not None:
        settings["plot_option"] = [settings["plot_option"]]
    flags = {"games": args.games, "seed": args.seed, "num_ghosts": args.num_ghosts,
             "max_moves": args.max_moves, "time_limit": args.time_limit,
             "workers": args.workers, "backend": args.backend, "scheduler": args.scheduler,
             "store": args.store, "out": args.out, "plot_option": args.plot_option,
             "chunk_size": args.chunk_size}
    settings.update({k: v for k, v in flags.items() if v is not None})
    if args.pacman:
        settings["pacman"] = [AgentEntry.parse(t, "--pacman") for t in args.pacman]
    if args.ghosts:
        settings["ghosts"] = [AgentEntry.parse(t, "--ghosts") for t in args.ghosts]
    if args.layout:
        settings["layouts"] = list(args.layout)
    settings.setdefault("pacman", [AgentEntry(DEFAULT_PACMAN, DEFAULT_PACMAN_OPTIONS)])
    settings.setdefault("ghosts", [AgentEntry(DEFAULT_GHOSTS)])
    settings.setdefault("layouts", [DEFAULT_LAYOUT])
    settings["pacman"] = expand_sweeps(
        with_shared_options(settings["pacman"], parse_assignments(args.pacman_opt,
                                                                  "--pacman-opt")),
        parse_sweep(args.sweep))
    settings["ghosts"] = with_shared_options(settings["ghosts"],
                                             parse_assignments(args.ghost_opt, "--ghost-opt"))
    if args.no_store:
        settings["store"] = None
    if settings["backend"] not in BACKENDS:
        raise ConfigurationError(f"unknown backend {settings['backend']!r}; choose one of "
                                 f"{', '.join(BACKENDS)}")
    limit = settings["time_limit"]
    if limit is not None and (isinstance(limit, bool) or not limit > 0):
        raise ConfigurationError(f"time_limit must be a positive number of seconds, got "
                                 f"{limit!r}")
    if limit is not None and math.isinf(limit):
        settings["time_limit"] = None
    settings["shard"] = args.shard
    if args.shard is not None:
        for key in ("store", "out"):
            if settings[key] is not None:
                settings[key] = shard_path(settings[key], args.shard, folder=key == "out")
    return settings


def run(args: argparse.Namespace) -> int:
    from pacman.batch import report
    from pacman.batch.jobs import check_job
    from pacman.batch.runner import stream_jobs

    settings = _settings(args)
    plan = BatchPlan(pacman=settings["pacman"], ghosts=settings["ghosts"],
                     layouts=settings["layouts"], games=settings["games"],
                     seed=settings["seed"], num_ghosts=settings["num_ghosts"],
                     max_moves=settings["max_moves"], time_limit=settings["time_limit"])
    shard_of = settings["shard"]
    for _, job in plan.numbered_jobs(None):  # the first round holds every condition
        check_job(job)
        if job.seed != plan.seed:
            break
    note = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    store = settings["store"]
    if store is not None:
        check_store_path(store)
        if shard_of is not None:
            note(f"shard {shard_of[0]}/{shard_of[1]}: results in {store}")
    games: list[tuple[int, Any, Any]] = []  # (position, job, result: a slim one when stored)
    shared: dict[str, Any] = {}  # one job object per condition: the tables read only those
    try:
        for position, job, result in stream_jobs(
                plan.numbered_jobs(shard_of), total=plan.size(shard_of),
                workers=settings["workers"], store=store, progress=not args.no_progress,
                backend=settings["backend"], chunk_size=settings["chunk_size"],
                scheduler=settings["scheduler"], on_repair=note):
            job = shared.setdefault(job.condition, job)
            games.append((position, job, SlimResult(result)))
    except KeyboardInterrupt:
        if store:
            note(f"interrupted: finished games are in {store}; run the same command again "
                 "to resume")
        raise
    games.sort(key=lambda game: game[0])
    summaries, comparisons = report.build([(job, result) for _, job, result in games],
                                          args.compare)
    if args.json:
        from pacman.batch.tables import to_json

        print(to_json(summaries, comparisons))
    else:
        from pacman.batch.tables import render_text

        print(render_text(summaries, comparisons))
    if settings["out"]:
        written = report.write(summaries, comparisons, settings["out"],
                               settings["plot_option"], plots=not args.no_plots)
        note(f"wrote {', '.join(str(p) for p in written)}")
    return 0


class SlimResult:
    """What the tables read of a game (outcome, score, moves, seed, Pacman's think time,
    decisions and search statistics), in a fraction of a :class:`GameResult`'s memory, so a
    long batch keeps about a hundred bytes per game played."""

    __slots__ = ("seed", "layout", "outcome", "score", "moves", "think_time", "decisions",
                 "agent_stats")

    def __init__(self, result: GameResult) -> None:
        self.seed, self.layout, self.outcome = result.seed, result.layout, result.outcome
        self.score, self.moves = result.score, result.moves
        self.think_time = result.think_time[:1]
        self.decisions = result.decisions[:1]
        first = result.agent_stats[0] if result.agent_stats else None
        self.agent_stats = ([{k: first[k] for k in ("nodes", "decisions") if k in first}]
                            if isinstance(first, dict) and "nodes" in first else [])

    @property
    def won(self) -> bool:
        return self.outcome == Outcome.WIN
