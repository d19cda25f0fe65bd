"""``report STORE...``: tables, comparisons and plots from results stores, without playing;
several stores (the shards of one batch) are merged."""

from __future__ import annotations

import argparse
import functools
import gc
import sys
from dataclasses import replace

from pacman.batch import read_store
from pacman.batch.jobs import text_digest
from pacman.batch.store import StoredGame
from pacman.errors import ConfigurationError
from pacman.batch import report as reporting
from pacman.batch.tables import render_text, to_json


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("stores", nargs="+", metavar="STORE",
                        help="results store written by 'batch' (several: merged, e.g. the "
                             "stores of a batch's shards)")
    parser.add_argument("--condition", action="append", metavar="TEXT",
                        help="only conditions whose label contains TEXT (repeatable: any)")
    add_table_options(parser, default_pairs="")


def add_table_options(parser: argparse.ArgumentParser, default_pairs: str) -> None:
    """The output options that ``batch`` and ``report`` share; ``default_pairs`` says which
    comparisons are made without ``--compare``."""
    parser.add_argument("--out", metavar="DIR",
                        help="write summary.md/.csv/.json and PNG plots into DIR")
    parser.add_argument("--no-plots", action="store_true", help="with --out: tables only")
    parser.add_argument("--compare", nargs=2, action="append", metavar=("A", "B"),
                        help="compare two conditions (labels or table numbers) on their "
                             f"seeds (repeatable{default_pairs})")
    parser.add_argument("--plot-option", action="append", metavar="KEY",
                        help="plot metrics against this Pacman option (default: every "
                             "numeric option that varies)")
    parser.add_argument("--json", action="store_true",
                        help="print the summary as JSON instead of a table")


def _played(game: StoredGame) -> tuple:
    """What a game's result says about play (not the measured think times)."""
    result = game.result
    failure = result.failure
    actions = game.actions_digest if game.actions_digest is not None else tuple(result.actions)
    return (result.outcome, result.score, result.moves, actions,
            None if failure is None else (failure.agent, failure.kind))


def merge_stores(paths: list[str]) -> list[StoredGame]:
    """The games of every store, each job once. A job in two stores must have been played
    the same way in both (same outcome, score and moves); otherwise :class:`ConfigurationError`
    names it. The games are read without their move lists (a report does not need them: a
    tenth of the memory), each store streamed and checked by one process per core."""
    merged: dict[str, tuple[StoredGame, str]] = {}
    for path in paths:
        games, dropped = read_store(path, actions=False)
        # Hundreds of thousands of games, no cycles among them: the cycle collector would walk
        # them at every collection while the report is made (a tenth of its CPU time).
        gc.freeze()
        if dropped:
            print(f"note: {path}: {dropped}; skipped (the next batch on this store repairs "
                  "it)", file=sys.stderr)
        for game in games:
            key = game.job.key
            if key in merged and _played(merged[key][0]) != _played(game):
                other, where = merged[key]
                raise ConfigurationError(
                    f"{where} and {path} disagree on game seed {game.job.seed} of "
                    f"{game.job.condition!r}: {other.result.outcome} {other.result.score} "
                    f"vs {game.result.outcome} {game.result.score}")
            merged.setdefault(key, (game, path))
    return [game for game, _ in merged.values()]


@functools.lru_cache(maxsize=256)
def _maze_digest(text: str) -> str:
    # Games of a store share a few maze texts: each is hashed once, not once a game.
    return text_digest(text)[:8]


def _settings(game: StoredGame) -> dict[str, object]:
    """Everything besides the label that changes a game: ghosts, move cap, time limit, rules
    and the maze's text (by its digest)."""
    result = game.result
    return {"ghosts": result.num_ghosts, "max moves": result.max_moves,
            "time limit": result.move_time_limit, "rules": result.rules,
            "maze": _maze_digest(result.layout_text)}


def separate_conditions(games: list[StoredGame]) -> tuple[list[StoredGame], list[str]]:
    """``games`` with each condition label made to name every setting that changes a game, and
    notes (one line each) on labels that covered games of several settings.

    A label whose games share their settings is kept. Otherwise each group of games with the
    same settings gets the label followed by the settings that differ between the groups,
    ``"alphabeta vs directional @ small_classic [ghosts=1, max moves=20]"``, so that games of
    different conditions are never tabled (or compared) as one."""
    variants: dict[str, dict[tuple, dict[str, object]]] = {}
    for game in games:
        settings = _settings(game)
        variants.setdefault(game.job.condition, {})[tuple(settings.items())] = settings
    notes: list[str] = []
    renamed: dict[tuple[str, tuple], str] = {}
    for label, groups in variants.items():
        if len(groups) == 1:
            continue
        varying = [name for name in next(iter(groups.values()))
                   if len({g[name] for g in groups.values()}) > 1]
        for key, settings in groups.items():
            renamed[(label, key)] = (f"{label} [" + ", ".join(f"{name}={settings[name]}"
                                                              for name in varying) + "]")
        what = " and ".join(varying)
        notes.append(f"note: the games of {label!r} differ in {what}; they are reported as "
                     f"{len(groups)} conditions" + (" (its maze changed under the same name)"
                                                    if "maze" in varying else ""))
    if not renamed:
        return games, notes
    separated = []
    for game in games:
        new_label = renamed.get((game.job.condition, tuple(_settings(game).items())))
        if new_label is not None:
            game = replace(game, job=replace(game.job, condition=new_label))
        separated.append(game)
    return separated, notes


def _print_cup(pairs: list, as_json: bool) -> bool:
    """Print a cup's table (``tournament``'s store) and say so; ``False`` for other stores."""
    from pacman.tournament.schedule import parse_label

    if not pairs or any(parse_label(job.condition) is None for job, _ in pairs):
        return False  # not a cup: the statistics library is not even loaded
    from pacman.tournament.cup import store_tables
    from pacman.tournament import results

    tables = store_tables(pairs)
    if tables is None:
        return False
    print(results.to_json(tables, {}) if as_json else results.to_text(tables))
    return True


def run(args: argparse.Namespace) -> int:
    try:
        return _report(args)
    finally:
        gc.unfreeze()  # what merge_stores froze, collectable again when it is dropped


def _report(args: argparse.Namespace) -> int:
    games, notes = separate_conditions(merge_stores(args.stores))
    for note in notes:
        print(note, file=sys.stderr)
    if args.condition:
        games = [g for g in games if any(t in g.job.condition for t in args.condition)]
    if not games:
        raise ConfigurationError(f"{', '.join(args.stores)}: no games"
                                 f"{' match --condition' if args.condition else ''}")
    # Conditions in batch order (their first job's position), each in seed order, whatever
    # order the games finished in.
    first: dict[str, tuple[float, int]] = {}
    for number, game in enumerate(games):
        rank = (game.index if game.index is not None else float("inf"), number)
        first[game.job.condition] = min(first.get(game.job.condition, rank), rank)
    games.sort(key=lambda g: (first[g.job.condition], g.result.seed))
    pairs = [(g.job, g.result) for g in games]
    if _print_cup(pairs, args.json):
        return 0
    summaries, comparisons = reporting.build(pairs, args.compare)
    print(to_json(summaries, comparisons) if args.json else render_text(summaries, comparisons))
    if args.out:
        written = reporting.write(summaries, comparisons, args.out, args.plot_option,
                                  plots=not args.no_plots)
        print(f"wrote {', '.join(str(p) for p in written)}", file=sys.stderr)
    return 0
