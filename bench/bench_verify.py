"""What trusting a results store costs: games/s verified by replay against games/s played.

Usage: ``python bench/bench_verify.py [--games N] [--big N] [--baseline DIR] [--keep DIR]``

Rates are per CPU second of the process (``time.process_time``), so a machine shared with
other work still gives comparable figures; the report is timed both ways.

* games/s played by the default agents (the default Pacman, ``alphabeta depth=3
  node_budget=20000``, against ``directional`` ghosts on ``small_classic``), in this process;
* games/s verified: each stored record of those games read as a store reads a record without
  a seal of this user (fields and types, its key, the settings of its job, then its actions
  replayed on its maze text by the engine alone and its outcome, score and moves compared),
  and as it reads a sealed one (:mod:`pacman.batch.seal`: its JSON only);
* seconds (wall and CPU) to ``report`` a store of ``--big`` games (default 100,000), made
  from the played records with distinct seeds and indexes (each a game that replays), run as
  a user runs it: ``pacman-arena report STORE --json`` in a child process, once with every
  record sealed (a store this user's batches wrote) and once with none (a store from someone
  else: every game replayed), with its peak memory. The stores are written to a temporary
  folder and removed (``--keep DIR``: written there and kept, or reused if there).
* CPU microseconds a game to replay those games with every check, move by move (the rules'
  move function once a move, as replays did before) and by :func:`pacman.engine.rules.replay`;
* ``--baseline DIR``: the same reports also run by the checkout in ``DIR`` (e.g. an older
  revision unpacked with ``git archive REV | tar -x -C DIR``), each right after this one's,
  so that both are measured side by side under the same load, with their ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pacman.batch import GameJob, play_job  # noqa: E402
from pacman.batch.seal import seal  # noqa: E402
from pacman.batch.store import HEADER_LINE, parse_record, record_line  # noqa: E402
from pacman.cli.play import DEFAULT_PACMAN, DEFAULT_PACMAN_OPTIONS  # noqa: E402


def default_jobs(games: int) -> list[GameJob]:
    return [GameJob(f"{DEFAULT_PACMAN} vs directional @ small_classic", "small_classic",
                    DEFAULT_PACMAN, DEFAULT_PACMAN_OPTIONS, ghosts="directional", seed=seed)
            for seed in range(games)]


def played_lines(games: int) -> tuple[list[str], float]:
    """The store lines of ``games`` games of the default agents and games/s played."""
    jobs = default_jobs(games)
    play_job(jobs[0])  # warm the caches (maze tables, agent classes) as a worker would be
    began = time.process_time()
    lines = [record_line(job, play_job(job), index) for index, job in enumerate(jobs)]
    return lines, games / (time.process_time() - began)


def unsealed(line: str) -> str:
    record = json.loads(line)
    record.pop("seal", None)
    return json.dumps(record, separators=(",", ":")) + "\n"


def verify_rate(lines: list[str], repeats: int = 3) -> float:
    best = 0.0
    for _ in range(repeats):
        began = time.process_time()
        for line in lines:
            parse_record(line)
        best = max(best, len(lines) / (time.process_time() - began))
    return best


def replay_times(lines: list[str], repeats: int = 3) -> tuple[float, float]:
    """CPU microseconds a game to replay the games of ``lines`` to their end with every check
    (:func:`pacman.engine.game.replay_end`), move by move and by the rules' replay, side by side."""
    from pacman.engine.game import GameResult, _replay_end_move_by_move, replay_end

    games = [GameResult.from_dict(json.loads(line)["result"]) for line in lines]
    best = {_replay_end_move_by_move: float("inf"), replay_end: float("inf")}
    for _ in range(repeats):
        for replay in best:
            began = time.process_time()
            for game in games:
                replay(game)
            best[replay] = min(best[replay], time.process_time() - began)
    return best[_replay_end_move_by_move] * 1e6 / len(games), best[replay_end] * 1e6 / len(games)


def write_big_store(lines: list[str], size: int, path: Path, sealed: bool) -> None:
    """``size`` records made from ``lines``: record ``i`` is line ``i mod len(lines)`` played
    under seed and index ``i`` (its job, and so its key, changed to match)."""
    records = [json.loads(line) for line in lines]
    with open(path, "w", encoding="utf-8") as out:
        out.write(HEADER_LINE)
        for number in range(size):
            record = records[number % len(records)]
            job = GameJob.from_dict({**record["job"], "seed": number})
            result = dict(record["result"], seed=number)
            line = json.dumps({"key": job.key, "index": number, "job": job.to_dict(),
                               "result": result}, separators=(",", ":"))
            out.write((seal(line) if sealed else line) + "\n")


def timed_report(path: Path, root: Path = ROOT) -> tuple[float, float, int, int]:
    """Wall seconds, CPU seconds (its worker processes included), peak memory in MB (of its
    largest process) and games counted of ``report PATH --json`` run by the checkout
    ``root``."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        child = subprocess.Popen([sys.executable, str(root / "run.py"), "report", str(path),
                                  "--json"], stdout=out, stderr=err, cwd=root)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            sys.exit(f"report failed: {err.read().decode().strip()}")
        games = json.loads(out.read())["conditions"][0]["games"]
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--baseline", metavar="DIR",
                        help="also time the report of the checkout in DIR, side by side")
    parser.add_argument("--keep", metavar="DIR",
                        help="write the big stores into DIR and keep them (reused if there)")
    args = parser.parse_args()
    lines, played = played_lines(args.games)
    verified = verify_rate([unsealed(line) for line in lines])
    sealed_rate = verify_rate(lines)
    moves = sum(json.loads(line)["result"]["moves"] for line in lines) / len(lines)
    print(f"load average {os.getloadavg()[0]:.1f}; {args.games} games of the default agents, "
          f"{moves:.0f} Pacman moves each on average")
    print("rates per CPU second of this process (the machine may be shared):")
    print(f"played:            {played:9.1f} games/s")
    print(f"verified (replay): {verified:9.1f} games/s ({verified / played:.0f}x the playing "
          f"rate; {1000 / verified:.2f} ms a game)")
    print(f"sealed records:    {sealed_rate:9.1f} games/s")
    by_move, by_rules = replay_times([unsealed(line) for line in lines])
    print(f"replay alone:      {by_move:9.1f} us a game move by move (the rules' successor "
          f"per move, as before), {by_rules:.1f} us by rules.replay ({by_rules / by_move:.2f})")
    roots = [("this checkout", ROOT)]
    if args.baseline:
        roots.append(("baseline " + args.baseline, Path(args.baseline).resolve()))
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        for sealed in (True, False):
            path = folder / f"big-{args.big}-{'sealed' if sealed else 'unsealed'}.jsonl"
            if not path.exists():
                write_big_store(lines, args.big, path, sealed)
            size = path.stat().st_size
            timings = []
            for name, root in roots:
                seconds, cpu, memory, games = timed_report(path, root)
                timings.append((seconds, cpu))
                print(f"report of a {args.big:,}-game store ({size / 1e6:.0f} MB, "
                      f"{'sealed by this user' if sealed else 'no seals: every game replayed'}"
                      f") by {name}: {seconds:.1f} s wall, {cpu:.1f} s CPU, peak "
                      f"{memory:,} MB ({games:,} games counted; load average "
                      f"{os.getloadavg()[0]:.1f})", flush=True)
            if len(timings) == 2:
                (seconds, cpu), (old_seconds, old_cpu) = timings
                print(f"  this checkout / baseline: {seconds / old_seconds:.2f} of the wall "
                      f"time, {cpu / old_cpu:.2f} of the CPU time", flush=True)


if __name__ == "__main__":
    main()
