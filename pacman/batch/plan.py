"""The matrix of a batch: Pacman agents × ghost agents × mazes × N seeds, from flags or TOML.

Agent entries
    On the command line an entry is one string: the agent, then its options, separated by
    spaces: ``"alphabeta depth=3 evaluation=better"``; for ghosts the agent part may name one
    agent per ghost: ``"directional,random attack=0.9"``. A sweep (``depth=1,2,3``) turns every
    Pacman entry into one entry per value (several sweeps multiply).

TOML file (``run.py batch --config FILE``); every key is optional, flags given on the command
line replace the file's values::

    games = 200                        # seeds per condition
    seed = 0                           # master seed: game i plays seed + i
    layouts = ["small_classic", "mazes/mine.lay"]
    num_ghosts = 2
    max_moves = 1000
    time_limit = 1.0                   # seconds per move
    workers = 2
    backend = "local"                  # or "dask"
    scheduler = "tcp://host:8786"      # dask only
    store = "runs/depth.jsonl"
    out = "runs/depth"                 # tables and plots
    plot_option = "depth"

    [[pacman]]
    agent = "alphabeta"
    options = { evaluation = "better" }
    sweep = { depth = [1, 2, 3] }

    [[ghosts]]
    agent = "directional"              # or "directional,random": one per ghost
    options = { attack = 0.8 }

Conditions are labelled ``"<pacman entry> vs <ghost entry> @ <maze>"``; the label is part of
every job's key, so re-running the same plan resumes it. Jobs are ordered seed first (all
conditions of seed 0, then of seed 1, ...), so a batch stopped early has every condition
equally far along.
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Iterator, Mapping, Sequence

from pacman.batch.jobs import GameJob, game_seed, maze_digest
from pacman.errors import ConfigurationError, PacmanError
from pacman.engine.files import check_readable_file
from pacman.lineup.options import parse_assignments
from pacman.lineup.plugins import suggest


@dataclass(frozen=True)
class AgentEntry:
    """One agent of the matrix (for ghosts ``agent`` may be a comma list) and its options."""

    agent: str
    options: Mapping[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return " ".join([self.agent, *(f"{k}={v}" for k, v in self.options.items())])

    @classmethod
    def parse(cls, text: str, flag: str) -> AgentEntry:
        """``"alphabeta depth=3"`` -> ``AgentEntry("alphabeta", {"depth": "3"})``."""
        parts = text.split()
        if not parts or "=" in parts[0]:
            raise ConfigurationError(f"{flag} expects 'AGENT [KEY=VALUE ...]', got {text!r}")
        return cls(parts[0], parse_assignments(parts[1:], flag))


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _with(entry: AgentEntry, extra: Mapping[str, str]) -> AgentEntry:
    options = dict(extra)
    options.update(entry.options)  # the entry's own options win over shared ones
    return AgentEntry(entry.agent, options)


def expand_sweeps(entries: Sequence[AgentEntry], sweeps: Mapping[str, Sequence[str]]
                  ) -> list[AgentEntry]:
    """Every entry once per combination of sweep values (sweep keys in the given order)."""
    if not sweeps:
        return list(entries)
    keys = list(sweeps)
    expanded = []
    for entry in entries:
        for values in itertools.product(*(sweeps[k] for k in keys)):
            options = dict(entry.options)
            options.update(zip(keys, values))
            expanded.append(AgentEntry(entry.agent, options))
    return expanded


def parse_sweep(items: Sequence[str] | None, flag: str = "--sweep") -> dict[str, list[str]]:
    """``["depth=1,2,3"]`` -> ``{"depth": ["1", "2", "3"]}``."""
    sweeps = {}
    for key, values in parse_assignments(list(items or []), flag).items():
        listed = [v.strip() for v in values.split(",") if v.strip()]
        if not listed:
            raise ConfigurationError(f"{flag} {key}= needs at least one value")
        sweeps[key] = listed
    return sweeps


@dataclass
class BatchPlan:
    """A matrix of conditions and how many seeded games each plays."""

    pacman: list[AgentEntry]
    ghosts: list[AgentEntry]
    layouts: list[str]
    games: int = 100
    seed: int = 0
    num_ghosts: int | None = None
    max_moves: int | None = 1000
    time_limit: float | None = None

    def __post_init__(self) -> None:
        for name in ("pacman", "ghosts", "layouts"):
            if not getattr(self, name):
                raise ConfigurationError(f"a batch needs at least one entry in {name}")
        if self.games < 1:
            raise ConfigurationError(f"games must be at least 1, got {self.games}")

    def conditions(self) -> list[tuple[str, AgentEntry, AgentEntry, str]]:
        """``(label, pacman, ghosts, layout)`` of every condition, mazes outermost."""
        return [(f"{pac.label} vs {ghost.label} @ {_layout_label(layout)}", pac, ghost, layout)
                for layout in self.layouts for ghost in self.ghosts for pac in self.pacman]

    def jobs(self) -> list[GameJob]:
        """Every job of the plan as a list (see :meth:`numbered_jobs` for the lazy form)."""
        return [job for _, job in self.numbered_jobs()]

    def size(self, shard: tuple[int, int] | None = None) -> int:
        """How many jobs the plan (or shard ``(i, n)`` of it) holds."""
        width = len(self.conditions())
        if shard is None:
            return self.games * width
        number, count = shard
        return len(range(number - 1, self.games, count)) * width

    def numbered_jobs(self, shard: tuple[int, int] | None = None
                      ) -> Iterator[tuple[int, GameJob]]:
        """``(position, job)`` of every job, seed first, built one at a time (so a plan of
        any size costs no memory). With ``shard=(i, n)`` (``1 <= i <= n``) only games
        ``i - 1, i - 1 + n, i - 1 + 2n, ...`` of every condition: the n shards together are the
        plan, and each holds every condition in the same measure (so shards of a plan mixing
        slow and fast agents take about as long). Positions are those of the whole plan."""
        conditions = self.conditions()
        labels = [c[0] for c in conditions]
        duplicated = {label for label in labels if labels.count(label) > 1}
        if duplicated:
            raise ConfigurationError(f"the batch lists condition {sorted(duplicated)[0]!r} "
                                     "twice")
        number, count = shard or (1, 1)
        if not 1 <= number <= count:
            raise ConfigurationError(f"shard {number}/{count}: the shard number must be from "
                                     f"1 to {count}")
        return self._numbered(conditions, number - 1, count)

    def _numbered(self, conditions: list[tuple[str, AgentEntry, AgentEntry, str]],
                  first: int, step: int) -> Iterator[tuple[int, GameJob]]:
        """Jobs of games ``first, first + step, ...`` of every condition, seed first."""
        width = len(conditions)
        digests = {c[3]: _maze_digest(c[3]) for c in conditions}  # the maze text of this plan
        for index in range(first, self.games, step):
            for column, (label, pac, ghost, layout) in enumerate(conditions):
                yield index * width + column, GameJob(
                    condition=label, layout=layout, pacman=pac.agent,
                    pacman_options=pac.options,
                    ghosts=ghost.agent,  # type: ignore[arg-type]  # GameJob splits a name list
                    ghost_options=ghost.options, num_ghosts=self.num_ghosts,
                    seed=game_seed(self.seed, index), max_moves=self.max_moves,
                    move_time_limit=self.time_limit, layout_digest=digests[layout])


def _maze_digest(layout: str) -> str | None:
    """The digest of the maze's text (a maze that cannot be read gets ``None``: playing its
    jobs reports the error)."""
    try:
        return maze_digest(layout)
    except PacmanError:
        return None


def _layout_label(layout: str) -> str:
    path = Path(layout)
    return path.stem if path.suffix == ".lay" or len(path.parts) > 1 else layout


#: Keys a batch TOML file may hold, and the Python types each accepts.
FILE_KEYS: dict[str, tuple[type, ...]] = {
    "games": (int,), "seed": (int,), "layouts": (list,), "layout": (str,),
    "num_ghosts": (int,), "max_moves": (int,), "time_limit": (int, float), "workers": (int,),
    "backend": (str,), "scheduler": (str,), "store": (str,), "out": (str,),
    "plot_option": (str,), "chunk_size": (int,), "pacman": (list,), "ghosts": (list,),
}


def read_plan_file(path: str | Path) -> dict[str, Any]:
    """The settings of a batch TOML file, checked; agent tables become :class:`AgentEntry`
    lists (``pacman`` with its sweeps expanded) and ``layout`` joins ``layouts``."""
    path = Path(path)
    check_readable_file(path, "batch TOML")
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot be read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigurationError(f"{path}: not valid TOML ({error})") from None
    settings: dict[str, Any] = {}
    for key, value in data.items():
        if key not in FILE_KEYS:
            raise ConfigurationError(f"{path}: unknown key {key!r}{suggest(key, FILE_KEYS)}")
        wanted = FILE_KEYS[key]
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise ConfigurationError(f"{path}: {key} must be {_type_words(wanted)}, got "
                                     f"{value!r}")
        settings[key] = value
    if "layout" in settings:
        settings["layouts"] = [settings.pop("layout"), *settings.get("layouts", [])]
    if "layouts" in settings:
        if not all(isinstance(v, str) for v in settings["layouts"]):
            raise ConfigurationError(f"{path}: layouts must be a list of maze names or paths")
    for role in ("pacman", "ghosts"):
        if role in settings:
            entries = []
            for number, table in enumerate(settings[role], start=1):
                entries.extend(_entries_of(table, f"{path}: [[{role}]] number {number}",
                                           allow_sweep=role == "pacman"))
            settings[role] = entries
    return settings


def _type_words(types: tuple[type, ...]) -> str:
    words = {int: "a whole number", float: "a number", str: "a string", list: "a list"}
    return " or ".join(words[t] for t in types)


def _entries_of(table: Any, where: str, allow_sweep: bool) -> list[AgentEntry]:
    if not isinstance(table, dict):
        raise ConfigurationError(f"{where} must be a table with agent = \"NAME\"")
    allowed = {"agent", "options", "sweep"} if allow_sweep else {"agent", "options"}
    for key in table:
        if key not in allowed:
            raise ConfigurationError(f"{where}: unknown key {key!r}{suggest(key, sorted(allowed))}")
    agent = table.get("agent")
    if not isinstance(agent, str) or not agent.strip():
        raise ConfigurationError(f"{where} needs agent = \"NAME\"")
    options = table.get("options", {})
    if not isinstance(options, dict):
        raise ConfigurationError(f"{where}: options must be a table of key = value")
    entry = AgentEntry(agent.strip(), {k: _option_text(v) for k, v in options.items()})
    sweep = table.get("sweep", {})
    if not isinstance(sweep, dict) or not all(isinstance(v, list) and v for v in sweep.values()):
        raise ConfigurationError(f"{where}: sweep must map option names to non-empty lists")
    return expand_sweeps([entry], {k: [_option_text(x) for x in v] for k, v in sweep.items()})


def with_shared_options(entries: Sequence[AgentEntry], shared: Mapping[str, str]
                        ) -> list[AgentEntry]:
    """Entries with ``shared`` options added (an entry's own value wins)."""
    return [_with(entry, shared) for entry in entries]
