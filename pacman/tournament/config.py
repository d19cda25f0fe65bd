"""A cup's settings: defaults, and a TOML file read and checked.

The file (every key optional)::

    seed = 0                       # game i of every maze plays seed + i, for every entrant
    games = 10                     # games per maze
    mazes = ["contestClassic"]     # the classic mini-contest's maze
    ghosts = "directional"         # the house ghosts of a one-sided cup
    num_ghosts = 2                 # default: every ghost start of the maze
    max_moves = 1000               # Pacman's moves before a game ends undecided
    move_time_limit = 1.0          # seconds a move may take; over it the game is a timeout
    game_time_limit = 180.0        # seconds of thinking an agent may take in all in one game
                                   # (the classic mini-contest's 3 minutes a game); over it
                                   # the game is a timeout naming this limit

    [pacman]
    class = "ContestAgent"         # default: ContestAgent where the file defines one, else
                                   # ExpectimaxAgent with its betterEvaluationFunction
    options = { depth = 2 }

    [ghost_team]                   # a two-sided cup: every entrant's ghost team plays too
    class = "GhostTeam"
    options = {}

Every problem is one :class:`~pacman.errors.ConfigurationError` line naming the file and key.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from pacman.errors import ConfigurationError
from pacman.engine.files import check_readable_file
from pacman.lineup.plugins import suggest

#: The classic mini-contest's maze.
DEFAULT_MAZE = "contestClassic"
#: The house ghosts of a one-sided cup (the classic mini-contest's).
DEFAULT_GHOSTS = "directional"
#: Seconds of thinking an agent may take in one game: the classic mini-contest's "games can
#: last a maximum of 3 minutes" (its ghosts take no time to speak of, so a game's length is
#: Pacman's thinking).
DEFAULT_GAME_TIME_LIMIT = 180.0


@dataclass(frozen=True)
class Side:
    """The class an entrant plays on one side (``None``: the default rule) and its options
    as text."""

    cls: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CupConfig:
    """Everything that decides a cup's games (see the module docstring for each key)."""

    seed: int = 0
    games: int = 10
    mazes: tuple[str, ...] = (DEFAULT_MAZE,)
    ghosts: str = DEFAULT_GHOSTS
    num_ghosts: int | None = None
    max_moves: int = 1000
    move_time_limit: float | None = 1.0
    game_time_limit: float | None = DEFAULT_GAME_TIME_LIMIT
    pacman: Side = Side()
    ghost_team: Side | None = None

    @property
    def two_sided(self) -> bool:
        """Whether entrants' ghost teams play (every Pacman against every ghost team)."""
        return self.ghost_team is not None


_KEYS: dict[str, tuple[type, ...]] = {
    "seed": (int,), "games": (int,), "mazes": (list,), "ghosts": (str,), "num_ghosts": (int,),
    "max_moves": (int,), "move_time_limit": (int, float), "game_time_limit": (int, float),
    "pacman": (dict,), "ghost_team": (dict,),
}
_WORDS = {int: "a whole number", float: "a number", str: "a string", list: "a list",
          dict: "a table"}


def read_config(path: str | Path | None) -> CupConfig:
    """The cup's settings: the defaults, with the file's values over them (``None``: none)."""
    if path is None:
        return CupConfig()
    path = Path(path)
    check_readable_file(path, "cup TOML")
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot be read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigurationError(f"{path}: not valid TOML ({error})") from None
    return config_from(data, str(path))


def config_from(data: Mapping[str, Any], where: str = "the cup's settings") -> CupConfig:
    """A :class:`CupConfig` from parsed TOML ``data``; ``where`` names it in errors."""
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _KEYS:
            raise ConfigurationError(f"{where}: unknown key {key!r}{suggest(key, _KEYS)}")
        wanted = _KEYS[key]
        if isinstance(value, bool) or not isinstance(value, wanted):
            raise ConfigurationError(f"{where}: {key} must be "
                                     f"{' or '.join(_WORDS[t] for t in wanted)}, got {value!r}")
        values[key] = value
    for key, least in (("games", 1), ("max_moves", 1), ("num_ghosts", 0)):
        if key in values and values[key] < least:
            raise ConfigurationError(f"{where}: {key} must be at least {least}, got "
                                     f"{values[key]}")
    if "mazes" in values:
        mazes = values["mazes"]
        if not mazes or not all(isinstance(m, str) and m.strip() for m in mazes):
            raise ConfigurationError(f"{where}: mazes must be a non-empty list of maze names "
                                     "or paths")
        if len(set(mazes)) != len(mazes):
            raise ConfigurationError(f"{where}: mazes lists a maze twice")
        values["mazes"] = tuple(m.strip() for m in mazes)
    if "ghosts" in values and not values["ghosts"].strip():
        raise ConfigurationError(f"{where}: ghosts must name a ghost agent")
    for key in ("move_time_limit", "game_time_limit"):
        if key in values:
            limit = float(values[key])
            if not limit > 0:
                raise ConfigurationError(f"{where}: {key} must be a positive number of "
                                         f"seconds (inf: none), got {values[key]!r}")
            values[key] = None if math.isinf(limit) else limit
    for key in ("pacman", "ghost_team"):
        if key in values:
            values[key] = _side(values[key], f"{where}: [{key}]", needs_class=key == "ghost_team")
    return CupConfig(**values)


def _side(table: Mapping[str, Any], where: str, needs_class: bool) -> Side:
    allowed = ("class", "options")
    for key in table:
        if key not in allowed:
            raise ConfigurationError(f"{where}: unknown key {key!r}{suggest(key, allowed)}")
    cls = table.get("class")
    if cls is None and needs_class:
        raise ConfigurationError(f"{where} needs class = \"NAME\": the class every entrant's "
                                 "ghost team is")
    if cls is not None and (not isinstance(cls, str) or not cls.isidentifier()):
        raise ConfigurationError(f"{where}: class must be a Python class name, got {cls!r}")
    options = table.get("options", {})
    if not isinstance(options, dict):
        raise ConfigurationError(f"{where}: options must be a table of key = value")
    text = {}
    for key, value in options.items():
        if isinstance(value, (dict, list)):
            raise ConfigurationError(f"{where}: option {key} must be a number, text or "
                                     f"true/false, got {value!r}")
        text[str(key)] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return Side(cls, dict(sorted(text.items())))
