"""Running a cup: its entrants checked, its games played through the batch runner into a
results store, its table and files written.

The store (``OUT/cup.jsonl``; a shard's ``OUT/cup.shard-I-of-N.jsonl``) is a batch store
(:mod:`pacman.batch.store`): every finished game is appended as it finishes, so a cup stopped
by Ctrl-C, a crash or a lost worker resumes when the same command runs again, playing only
the games it lacks (none twice), on local workers or a Dask cluster alike
(:func:`pacman.batch.runner.stream_jobs`). Entrants' code runs only in the contained agents
of the line-up (their agents are named ``FILE.py:Class``).

An entrant whose agent cannot even be set up (its class refuses the cup's options, say) is
marked with the one-line reason and plays no game; one whose file crashes, loops or moves
illegally plays its games, and each is recorded with its failure.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from pacman.batch.jobs import GameJob, check_job, game_seed
from pacman.batch.runner import stream_jobs
from pacman.batch.store import check_store_path, read_store
from pacman.errors import ConfigurationError, PacmanError
from pacman.engine.game import GameResult
from pacman.tournament.config import CupConfig
from pacman.tournament.entrants import Entrant, find_entrants
from pacman.tournament.ranking import Standing, cup_games, rank
from pacman.tournament.schedule import BLOCK, CupSchedule, check_mazes, ghost_names, parse_label

#: The store's file name in the cup's folder.
STORE = "cup.jsonl"
#: What the cup's folder holds besides the store and the game pages.
FILES = ("leaderboard.html", "standings.txt", "standings.csv", "standings.json")

Note = Callable[[str], None]


@dataclass
class CupResult:
    """A cup's entrants, its games and each side's standings."""

    config: CupConfig
    entrants: list[Entrant]
    games: list[tuple[int, GameJob, GameResult]]
    tables: dict[str, list[Standing]]

    def settings(self) -> dict[str, Any]:
        """The cup's settings as JSON data (seeds listed: every entrant plays them)."""
        data = dataclasses.asdict(self.config)
        data["mazes"] = list(self.config.mazes)
        data["seeds"] = [game_seed(self.config.seed, i) for i in range(self.config.games)]
        data["entrants"] = len(self.entrants)
        return data


def shard_store(out: Path, shard: tuple[int, int] | None) -> Path:
    """The store of the cup (or of shard ``(i, n)`` of it) in ``out``."""
    if shard is None:
        return out / STORE
    return out / f"cup.shard-{shard[0]}-of-{shard[1]}.jsonl"


def checked_entrants(config: CupConfig, entrants: Sequence[Entrant], note: Note
                     ) -> list[Entrant]:
    """``entrants`` with those whose agent cannot be set up marked (its reason, one line)."""
    checked = []
    for entrant in entrants:
        if entrant.playing:
            reason = _setup_problem(config, entrant)
            if reason is not None:
                note(f"{entrant.id}: {reason}")
                entrant = entrant.marked(reason)
        checked.append(entrant)
    return checked


def _setup_problem(config: CupConfig, entrant: Entrant) -> str | None:
    maze = config.mazes[0]
    jobs = [GameJob(condition="check", layout=maze, pacman=entrant.pacman or "",
                    pacman_options=dict(entrant.pacman_options), ghosts=ghost_names(config.ghosts),
                    num_ghosts=config.num_ghosts, max_moves=config.max_moves,
                    move_time_limit=config.move_time_limit,
                    game_time_limit=config.game_time_limit)]
    if entrant.ghosts is not None:
        jobs.append(GameJob(condition="check", layout=maze, pacman="random",
                            ghosts=ghost_names(entrant.ghosts), ghost_options=dict(entrant.ghost_options),
                            num_ghosts=config.num_ghosts, max_moves=config.max_moves,
                            move_time_limit=config.move_time_limit,
                            game_time_limit=config.game_time_limit))
    for job in jobs:
        try:
            check_job(job)
        except PacmanError as error:
            side = "its Pacman" if job.pacman != "random" else "its ghost team"
            return f"cannot play: {side}: {error}"
    return None


def standings(config: CupConfig, entrants: Sequence[Entrant],
              pairs: Iterable[tuple[GameJob, GameResult]]) -> dict[str, list[Standing]]:
    """Each side's standings from the cup's games (``"pacman"``, and ``"ghosts"`` in a
    two-sided cup)."""
    games = cup_games(pairs, config.two_sided)
    tables = {"pacman": rank(games, entrants, "pacman")}
    if config.two_sided:
        tables["ghosts"] = rank(games, entrants, "ghosts")
    return tables


def run_cup(folder: Path, config: CupConfig, out: Path, *, workers: int | None = None,
            backend: str = "local", scheduler: str | None = None,
            shard: tuple[int, int] | None = None, chunk_size: int | None = None,
            progress: bool = True, note: Note = lambda text: None) -> CupResult:
    """Play (or resume) the cup of ``folder``'s entrants into ``out`` and rank it."""
    check_mazes(config)
    _make_folder(out)
    entrants = checked_entrants(config, find_entrants(folder, config.pacman,
                                                      config.ghost_team), note)
    schedule = CupSchedule(config, entrants)
    store = shard_store(out, shard)
    check_store_path(store)
    games: list[tuple[int, GameJob, GameResult]] = []
    try:
        for position, job, result in stream_jobs(
                schedule.numbered_jobs(shard), total=schedule.size(shard), workers=workers,
                store=store, progress=progress, backend=backend,
                chunk_size=chunk_size or min(BLOCK, config.games),
                scheduler=scheduler, on_repair=note):
            games.append((position, job, result))
    except KeyboardInterrupt:
        note(f"interrupted: finished games are in {store}; run the same command again to "
             "resume")
        raise
    games.sort(key=lambda game: game[0])
    tables = standings(config, entrants, ((job, result) for _, job, result in games))
    return CupResult(config, entrants, games, tables)


def merged_cup(folder: Path, config: CupConfig, out: Path, note: Note = lambda text: None
               ) -> CupResult:
    """The cup from every store in ``out`` (its shards', e.g. the tasks of a Slurm array),
    each game once, without playing. Two stores that disagree on a game are refused."""
    check_mazes(config)
    entrants = checked_entrants(config, find_entrants(folder, config.pacman,
                                                      config.ghost_team), note)
    stores = sorted(out.glob("cup*.jsonl"))
    if not stores:
        raise ConfigurationError(f"{out}: no cup store (cup.jsonl or cup.shard-I-of-N.jsonl) "
                                 "to merge")
    merged: dict[str, tuple[int, GameJob, GameResult, Path]] = {}
    for path in stores:
        stored, dropped = read_store(path)
        if dropped:
            note(f"note: {path}: {dropped}; skipped")
        for game in stored:
            key = game.job.key
            if key in merged:
                _, _, other, where = merged[key]
                if (other.outcome, other.score, other.actions) != (
                        game.result.outcome, game.result.score, game.result.actions):
                    raise ConfigurationError(f"{where} and {path} disagree on game seed "
                                             f"{game.job.seed} of {game.job.condition!r}")
                continue
            index = game.index if game.index is not None else len(merged)
            merged[key] = (index, game.job, game.result, path)
    games = sorted(((i, j, r) for i, j, r, _ in merged.values()), key=lambda g: g[0])
    labels = {e.id for e in entrants}
    tables = standings(config, entrants, ((job, result) for _, job, result in games))
    strangers = {s.id for rows in tables.values() for s in rows} - labels
    if strangers:
        note(f"note: the stores hold games of entrants not in {folder}: "
             f"{', '.join(sorted(strangers))}")
    return CupResult(config, entrants, games, tables)


def _make_folder(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigurationError(f"--out {out}: cannot create it ({error.strerror})") from None


def safe_name(text: str) -> str:
    """``text`` as a file name: letters, digits, ``.``, ``-`` and ``_`` kept, the rest ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", text).lstrip(".") or "_"


def write_files(result: CupResult, out: Path, *, replays: bool = True) -> list[Path]:
    """Write the table (text, CSV, JSON), the leaderboard page, one page per game (with
    ``replays``) and each entrant's Gradescope leaderboard field into ``out``."""
    from pacman.tournament import leaderboard, results

    _make_folder(out)
    settings = result.settings()
    written = []
    texts = {"standings.txt": results.to_text(result.tables) + "\n",
             "standings.csv": results.to_csv(result.tables),
             "standings.json": results.to_json(result.tables, settings) + "\n"}
    pages = (leaderboard.game_pages(result.games, result.config.two_sided) if replays
             else {})
    texts["leaderboard.html"] = leaderboard.page(result.tables, settings, set(pages))
    for name, text in texts.items():
        written.append(_write(out / name, text))
    if pages:
        (out / "games").mkdir(exist_ok=True)
        for name, text in pages.items():
            _write(out / "games" / name, text)
    gradescope = out / "gradescope"
    gradescope.mkdir(exist_ok=True)
    for standing in result.tables["pacman"]:
        fields = {"leaderboard": results.gradescope_leaderboard(standing)}
        _write(gradescope / f"{safe_name(standing.id)}.json",
               json.dumps(fields, indent=1) + "\n")
    written.append(gradescope)
    return written


def _write(path: Path, text: str) -> Path:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot write ({error.strerror})") from None
    return path


def store_tables(pairs: Iterable[tuple[GameJob, GameResult]]) -> dict[str, list[Standing]] | None:
    """Each side's standings when every game of ``pairs`` (a store's) is a cup's, else
    ``None``. Entrants that played nothing are not in a store, so only the folder's files
    list them."""
    pairs = list(pairs)
    if not pairs or any(parse_label(job.condition) is None for job, _ in pairs):
        return None
    # Two-sided when every game names two sides (an id holding " vs " in a one-sided cup
    # could be read so only if every id held it).
    games = cup_games(pairs, all(" vs " in job.condition for job, _ in pairs))
    tables = {"pacman": rank(games, (), "pacman")}
    if any(game.ghosts is not None for game in games):
        tables["ghosts"] = rank(games, (), "ghosts")
    return tables
