"""A cup's games as batch jobs (:class:`~pacman.batch.jobs.GameJob`), in blocks of seeds.

Game ``i`` of every maze plays seed ``seed + i`` for every entrant (and in a two-sided cup for
every pairing), so entrants are compared on the same games. A condition is labelled
``"cup: ID @ MAZE"`` (one-sided: the entrant against the house ghosts) or ``"cup: PACMAN vs
GHOSTS @ MAZE"`` (two-sided); the label is part of each job's key, so running the same cup
again resumes it from its store, and :func:`parse_label` reads a stored game's entrants back.

Order: seeds in blocks of :data:`BLOCK`: every entrant's games of one block before any of the
next, so a cup stopped early has every entrant about equally far along and a slow entrant's
games are spread over the whole run instead of holding one stretch of it. Within a block an
entrant's games are consecutive: a worker plays them as one chunk, in one kept contained
process (:mod:`pacman.contained_pool`), instead of starting a process per game.

A two-sided cup's pairings go round by round (round ``r`` pairs
entrant ``k`` with entrant ``k + r``): within a round every entrant plays once on each side,
so no entrant's games wait behind one slow opponent's. An entrant never plays its own ghosts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator, Sequence

from pacman.batch.jobs import GameJob, game_seed, maze_digest
from pacman.errors import ConfigurationError, PacmanError
from pacman.tournament.config import CupConfig
from pacman.tournament.entrants import Entrant

#: Seeds per block: a condition's games of one block are consecutive jobs, sent to a worker as
#: one chunk, so that an entrant's contained process is kept from one game to the next.
BLOCK = 5
#: Every cup condition's label starts with this.
PREFIX = "cup: "


@dataclass(frozen=True)
class Pairing:
    """One condition: who plays Pacman, whose ghosts (``None``: the house ghosts), where."""

    pacman: str
    ghosts: str | None
    maze: str

    @property
    def label(self) -> str:
        vs = f" vs {self.ghosts}" if self.ghosts is not None else ""
        return f"{PREFIX}{self.pacman}{vs} @ {self.maze}"


def maze_label(maze: str) -> str:
    """A maze as tables name it: a file's stem, a shipped maze's name."""
    path = Path(maze)
    return path.stem if path.suffix == ".lay" or len(path.parts) > 1 else maze


def parse_label(label: str, two_sided: bool | None = None) -> Pairing | None:
    """The pairing a cup condition's label names, ``None`` for a label that is not a cup's.
    ``two_sided`` ``None`` reads ``" vs "`` as the separator of the two sides."""
    if not label.startswith(PREFIX) or " @ " not in label:
        return None
    who, _, maze = label[len(PREFIX):].rpartition(" @ ")
    if two_sided is not False and " vs " in who:
        pacman, _, ghosts = who.partition(" vs ")
        return Pairing(pacman, ghosts, maze)
    return Pairing(who, None, maze)


def pairings(config: CupConfig, entrants: Sequence[Entrant]) -> list[tuple[Pairing, Entrant,
                                                                          Entrant | None]]:
    """Every condition of the cup with its Pacman entrant and ghost entrant, mazes outermost."""
    playing = [e for e in entrants if e.playing]
    found: list[tuple[Pairing, Entrant, Entrant | None]] = []
    for maze in config.mazes:
        label = maze_label(maze)
        if not config.two_sided:
            found += [(Pairing(e.id, None, label), e, None) for e in playing]
            continue
        everyone = sorted(playing, key=lambda e: e.id)
        count = len(everyone)
        for shift in range(1, count):
            for number, pacman in enumerate(everyone):
                ghosts = everyone[(number + shift) % count]
                if ghosts.ghosts is not None:
                    found.append((Pairing(pacman.id, ghosts.id, label), pacman, ghosts))
    return found


@dataclass
class CupSchedule:
    """The cup's jobs: ``games`` seeds of every pairing."""

    config: CupConfig
    entrants: Sequence[Entrant]

    def __post_init__(self) -> None:
        self.conditions = pairings(self.config, self.entrants)
        self._digests = {maze: _digest(maze) for maze in self.config.mazes}

    def size(self, shard: tuple[int, int] | None = None) -> int:
        """How many jobs the cup (or shard ``(i, n)`` of it) holds."""
        number, count = shard or (1, 1)
        return len(range(number - 1, self.config.games, count)) * len(self.conditions)

    def first_jobs(self) -> list[GameJob]:
        """One job of each condition (the first seed), for checking each agent once."""
        return [self._job(pairing, pacman, ghosts, 0)
                for pairing, pacman, ghosts in self.conditions]

    def numbered_jobs(self, shard: tuple[int, int] | None = None
                      ) -> Iterator[tuple[int, GameJob]]:
        """``(position, job)`` of every job, built one at a time, in blocks of :data:`BLOCK`
        seeds: every condition's games of one block (each condition's together) before the
        next block's; with ``shard=(i, n)`` only games ``i - 1, i - 1 + n, ...`` of every
        condition (the n shards together are the cup). Positions are those of the whole cup."""
        number, count = shard or (1, 1)
        if not 1 <= number <= count:
            raise ConfigurationError(f"shard {number}/{count}: the shard number must be from "
                                     f"1 to {count}")
        width = len(self.conditions)
        indexes = list(range(number - 1, self.config.games, count))
        for start in range(0, len(indexes), BLOCK):
            for column, (pairing, pacman, ghosts) in enumerate(self.conditions):
                for index in indexes[start:start + BLOCK]:
                    yield index * width + column, self._job(pairing, pacman, ghosts, index)

    def _job(self, pairing: Pairing, pacman: Entrant, ghosts: Entrant | None,
             index: int) -> GameJob:
        maze = next(m for m in self.config.mazes if maze_label(m) == pairing.maze)
        if ghosts is None:
            ghost_name, ghost_options = self.config.ghosts, {}
        else:
            ghost_name, ghost_options = ghosts.ghosts or "", dict(ghosts.ghost_options)
        return GameJob(condition=pairing.label, layout=maze, pacman=pacman.pacman or "",
                       pacman_options=dict(pacman.pacman_options), ghosts=ghost_names(ghost_name),
                       ghost_options=ghost_options, num_ghosts=self.config.num_ghosts,
                       seed=game_seed(self.config.seed, index),
                       max_moves=self.config.max_moves,
                       move_time_limit=self.config.move_time_limit,
                       game_time_limit=self.config.game_time_limit,
                       layout_digest=self._digests[maze])


def check_mazes(config: CupConfig) -> None:
    """Raise the :class:`ConfigurationError` of the first maze of ``config`` that cannot be
    read (before any entrant is looked at)."""
    for maze in config.mazes:
        _digest(maze)


def ghost_names(text: str) -> tuple[str, ...]:
    """One ghost agent for every ghost (``"directional"``) or one per ghost (a comma list)."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def _digest(maze: str) -> str:
    try:
        return maze_digest(maze)
    except PacmanError as error:
        raise ConfigurationError(f"maze {maze!r}: {error}") from None
