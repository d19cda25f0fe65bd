"""One game of a batch as plain data (:class:`GameJob`), and playing it (:func:`play_job`).

Seeds
    Game ``i`` of a batch (``i = 0, 1, ...``) is played with seed ``master_seed + i``
    (:func:`game_seed`), in every condition. So all conditions play the same seeds (paired
    comparisons), and any single game can be re-run alone with
    ``run.py play ... --seed <master_seed + i>``.

Keys
    :attr:`GameJob.key` is a digest of every field (condition label included), stable across
    processes, machines and Python versions: a results store uses it to skip finished games.
    Changing anything that shapes a game (an option, the move limit, ...) or the label makes a
    new job.

A job names its maze and agents instead of holding them, so it pickles in a few hundred bytes
and can be played by any process (or cluster worker) that can import the same agents; each
process builds the agent specs once per distinct condition and reuses them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any
from collections.abc import Mapping, Sequence

from pacman.errors import ConfigurationError
from pacman.engine.game import AgentSpec, GameResult
from pacman.engine.game_loop import run_game
from pacman.engine.layout import Layout, load_layout

__all__ = ["GameJob", "play_job", "game_seed", "check_job", "maze_digest", "text_digest"]


def game_seed(master_seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a batch with ``master_seed``: their sum."""
    if index < 0:
        raise ValueError(f"game index must be 0 or more, got {index}")
    return master_seed + index


def _options(value: Mapping[str, Any] | None, what: str) -> dict[str, str]:
    """Options as the user writes them: ``str -> str``, whatever TOML or Python handed us."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigurationError(f"{what} must be a table of key = value, got {value!r}")
    result = {}
    for key, item in value.items():
        if isinstance(item, bool):
            item = "true" if item else "false"
        result[str(key)] = str(item)
    return dict(sorted(result.items()))


def _ghost_names(value: str | Sequence[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        names = [g.strip() for g in value.split(",")] if value.strip() else []
    else:
        names = [str(g).strip() for g in value]
    return tuple(names)


@dataclass(frozen=True)
class GameJob:
    """Everything that decides one game of a batch.

    ``pacman_options`` and ``ghost_options`` hold the options as text (``{"depth": "3"}``),
    exactly as ``--pacman-opt`` takes them; values given as numbers or booleans are turned
    into that text. ``ghosts`` is one name for every ghost or one per ghost (a comma-separated
    string is split). ``num_ghosts`` ``None`` means every ghost start of the maze (or one per
    named ghost). Treat the option dicts as read-only: the key is computed from them.
    """

    condition: str
    layout: str
    pacman: str
    pacman_options: Mapping[str, Any] = field(default_factory=dict)
    ghosts: tuple[str, ...] = ("directional",)
    ghost_options: Mapping[str, Any] = field(default_factory=dict)
    num_ghosts: int | None = None
    seed: int = 0
    max_moves: int | None = 1000
    move_time_limit: float | None = None
    #: Each agent's total thinking time per game (``None``: no such limit; left out of the
    #: key then, so stores written before it existed keep their keys).
    game_time_limit: float | None = None
    #: :func:`maze_digest` of the maze's text when the job was planned (``None``: not
    #: recorded, as in stores written before it was): the same path with other text is
    #: another condition, and a game played on other text than this is refused.
    layout_digest: str | None = None

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        set_field(self, "pacman_options", _options(self.pacman_options, "pacman options"))
        set_field(self, "ghost_options", _options(self.ghost_options, "ghost options"))
        set_field(self, "ghosts", _ghost_names(self.ghosts))
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise ConfigurationError(f"a game seed must be a whole number, got {self.seed!r}")
        if self.max_moves is not None and self.max_moves < 1:
            raise ConfigurationError(f"max_moves must be at least 1, got {self.max_moves}")
        if self.move_time_limit is not None and not self.move_time_limit > 0:
            raise ConfigurationError(f"move_time_limit must be positive, got "
                                     f"{self.move_time_limit}")
        if self.game_time_limit is not None and not self.game_time_limit > 0:
            raise ConfigurationError(f"game_time_limit must be positive, got "
                                     f"{self.game_time_limit}")

    def __hash__(self) -> int:
        return hash(self.key)

    def to_dict(self) -> dict[str, Any]:
        """The job as JSON-friendly data (``ghosts`` as a list); :meth:`from_dict` inverts it."""
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data["pacman_options"] = dict(self.pacman_options)
        data["ghost_options"] = dict(self.ghost_options)
        data["ghosts"] = list(self.ghosts)
        for name in ("layout_digest", "game_time_limit"):
            if data[name] is None:  # keys of jobs without it stay what they were
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameJob:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    @cached_property
    def key(self) -> str:
        """A stable 20-hex-digit digest of all fields (used to resume a batch)."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    @property
    def setup(self) -> tuple:
        """Everything but the seed: jobs with the same setup share their agent specs."""
        return (self.layout, self.pacman, tuple(self.pacman_options.items()), self.ghosts,
                tuple(self.ghost_options.items()), self.num_ghosts)


@lru_cache(maxsize=64)
def _layout(name: str) -> Layout:
    return load_layout(name)


def text_digest(text: str) -> str:
    """A 16-hex-digit digest of a maze's text (as :attr:`Layout.text` holds it)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def maze_digest(name_or_path: str) -> str:
    """:func:`text_digest` of the maze ``name_or_path`` names now (read afresh each call: a
    plan made after the file changed gets the new text's digest)."""
    return text_digest(load_layout(name_or_path).text)


@lru_cache(maxsize=256)
def _specs(setup: tuple) -> tuple[Layout, list[AgentSpec]]:
    from pacman.lineup.build import lineup  # app layer: imports the agent catalog

    layout_name, pacman, pacman_options, ghosts, ghost_options, num_ghosts = setup
    layout = _layout(layout_name)
    specs = lineup(layout, pacman, list(ghosts), num_ghosts, dict(pacman_options),
                   dict(ghost_options))
    return layout, specs


def check_job(job: GameJob) -> None:
    """Raise the :class:`~pacman.errors.PacmanError` that playing ``job`` would raise for a bad
    maze, agent name or option, without playing it. Cheap after the first job of a setup."""
    _specs(job.setup)


def _fingerprint(layout: Layout) -> tuple:
    """What a game starts from, compared before every game of a worker: a cached maze that
    anything changed is thrown away (the maze is immutable and agents from files play in
    processes of their own, so this is the last line of defence, not the first)."""
    return (layout.text, layout.width, layout.height, layout.walls, layout.food,
            layout.capsules, layout.pacman_start, tuple(layout.ghost_starts))


_FINGERPRINTS: dict[str, tuple] = {}


def play_job(job: GameJob) -> GameResult:
    """Play ``job`` and return its result; agent failures are outcomes, not exceptions.

    Every game starts from a maze no earlier game can have changed. Raises a
    :class:`~pacman.errors.PacmanError` only when the job itself is invalid (unknown maze or
    agent, bad option).
    """
    layout, specs = _specs(job.setup)
    seen = _FINGERPRINTS.setdefault(job.layout, _fingerprint(layout))
    if _fingerprint(layout) != seen:
        _layout.cache_clear()
        _specs.cache_clear()
        layout, specs = _specs(job.setup)
    if job.layout_digest is not None and text_digest(layout.text) != job.layout_digest:
        _layout.cache_clear()  # the file may have changed since it was cached: read it again
        _specs.cache_clear()
        layout, specs = _specs(job.setup)
        if text_digest(layout.text) != job.layout_digest:
            raise ConfigurationError(f"maze {job.layout!r} changed since the batch was "
                                     "planned; run the batch again to plan it with the new "
                                     "maze")
    return run_game(layout, specs, job.seed, max_moves=job.max_moves,
                    move_time_limit=job.move_time_limit, game_time_limit=job.game_time_limit)
