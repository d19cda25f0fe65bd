"""The game and position tests of an assignment file (see :mod:`pacman.grading.assignment`).

A game test plays seeded games and gives points by credit bands::

    [[questions.tests]]
    type = "game"
    agent = "reflex"                # or: search = "expectimax" and evaluation = "evaluation"
    options = { depth = 2 }         # given to the agent (classic agents get them as text)
    layout = "openClassic"
    ghosts = "random"               # one ghost kind, or a comma-separated list, one per ghost
    ghost_count = 1                 # the first N ghosts of the maze (default: all of them)
    games = 10
    seed = 1
    max_moves = 500
    rules = "classic"               # the rules variant (default: "default"), see below
    random = "shared"               # the classic autograder's games (default: "per-game"), see below
    credit = [{ metric = "wins", at_least = 1, points = 0, required = true },
              { metric = "mean_score", at_least = 500, points = 1 }]

``rules`` picks the rules the games are played under (:data:`pacman.engine.state.RULES_VARIANTS`):
``"default"`` (the engine's rules, :mod:`pacman.engine.rules`) or ``"classic"``, the classic scared
speed: scared ghosts move at half speed, as in the classic course's engine, and agents written
for the classic API get their legal actions in its order (West, Stop, East, North, South), so
scores can be compared with the classic course's thresholds. The submission's process searches states of
the same variant.

``random`` picks where the games' random numbers come from. ``"per-game"`` (the default): game
``i`` is seeded with ``seed + i``, every agent has its own generator seeded from it, and Pacman
is built afresh for each game, so each game stands alone. ``"shared"``: the classic autograder's
own games. It seeds Python's global ``random`` once with ``seed`` and plays the games in a row
with one Pacman object and one random ghost, all drawing from that one stream; so does this test
(see :mod:`pacman.grading.classic_stream`): one stream seeded with ``seed``, the ghosts
(``ghosts = "random"`` only) draw from it exactly as the classic random ghost, the submission's
global ``random`` is set to it for each of its calls (``registerInitialState``, ``getAction``)
and the grader draws as many words as the submission drew, and the submission's agent is built
once and kept across the test's games (``registerInitialState`` is called at each game's start,
as the classic engine does). A submission that seeds or sets ``random`` itself (or answers what
is not a count of words) is refused: its games go on from the grader's stream and the test's
output says once that they no longer follow the classic autograder's. With ``rules = "classic"``
and a deterministic agent the games are the classic autograder's, move for move, with one known
exception: a capsule eaten while a scared ghost is between two cells restarts that ghost's timer
on its next cell, half a cell ahead of the classic engine, which restarts it mid-cell.

A band with ``required = true`` that is not met makes the whole test score 0, whatever the
other bands (the classic course's "minimum" values).

A position test plays one seeded game in which Pacman follows the reference search and asks the
student's agent at every position (see :mod:`pacman.grading.position_tests`)::

    [[questions.tests]]
    type = "positions"
    agent = "minimax"               # a role; the algorithm defaults to the role's name
    depth = 2
    layout = "smallClassic"
    ghosts = "directional"
    ghost_count = 2
    seed = 0
    max_moves = 100                 # positions asked at most
    game = "classic"                # the classic autograder's game (default: "seeded"), see below
    points = 1

``game`` picks the game played. ``"seeded"`` (the default): the engine's rules, ghosts with their
own generators seeded from ``seed``, Pacman playing the reference's first best move. ``"classic"``:
the classic autograder's own game test, position for position (``ghosts = "directional"`` only):
the classic rules variant (``rules = "classic"`` above), directional ghosts that draw exactly as
the classic directional ghost from one stream reseeded as the classic grading Pacman reseeds
Python's ``random`` (``seed``, then ``seed + k`` after its ``k``-th move; see
:class:`pacman.grading.classic_stream.SteppedStream`), and Pacman playing the reference's first
best move in the classic action order, which is the classic solution's recorded first optimal
move at every step (``tests/grading/test_classic_position_game.py`` checks it). The student's
own random draws therefore never change the positions asked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Mapping

from pacman.errors import ConfigurationError
from pacman.grading.assignment_model import METRICS, Band, Test, TestLimits
from pacman.grading.assignment_tables import GAME_KEYS, POSITION_KEYS, common_fields, search_fields, Table
from pacman.lineup.plugins import suggest
from pacman.engine.state import RULES_VARIANTS

#: The ``random`` modes of a game test (see the module docstring).
RANDOM_MODES = ("per-game", "shared")
#: The games a position test may play (see the module docstring).
POSITION_GAMES = ("seeded", "classic")


def _maze_and_ghosts(t: Table, where: str) -> dict[str, Any]:
    from pacman.agents.catalog import GHOST_AGENTS
    from pacman.engine.layout import load_layout

    layout = t.get("layout", str, "tiny")
    maze = load_layout(layout)  # fail now, with the maze's own message, rather than while grading
    ghosts = t.get("ghosts", str, "random")
    for g in ghosts.split(","):
        if g.strip() not in GHOST_AGENTS:
            raise ConfigurationError(f"{where}: unknown ghost {g.strip()!r}{suggest(g.strip(), GHOST_AGENTS)}")
    count = t.get("ghost_count", int, None)
    if count is not None and not 0 <= count <= maze.num_ghosts:
        raise ConfigurationError(f"{where}: 'ghost_count' must be between 0 and {maze.num_ghosts} "
                                 f"(the ghosts of {layout})")
    return {"layout": layout, "ghosts": ghosts, "ghost_count": count,
            "seed": t.get("seed", int, 0)}


def game_test(data: Any, where: str, number: str, limits: TestLimits, roles: Mapping[str, Any],
              strict: bool, ties: str, base: Path | None) -> Test:
    """A ``type = "game"`` test (see the module docstring)."""
    from pacman.agents.catalog import PACMAN_AGENTS

    t = Table(data, where, GAME_KEYS)
    common = common_fields(t, number, limits, roles, "game", "games")
    search = t.get("search", str, None)
    evaluation = t.get("evaluation", str, None)
    if search is not None:
        if search not in PACMAN_AGENTS:
            raise ConfigurationError(f"{where}: 'search' {search!r} is not a Pacman agent"
                                     f"{suggest(search, PACMAN_AGENTS)}")
        if evaluation is None or evaluation not in roles:
            raise ConfigurationError(f"{where}: 'search' needs 'evaluation', a role of [roles]")
        if common["role"] is not None:
            raise ConfigurationError(f"{where}: give either 'agent' or 'search', not both")
    elif common["role"] is None:
        raise ConfigurationError(f"{where}: a game test needs 'agent' (a role) or 'search' with 'evaluation'")
    maze = _maze_and_ghosts(t, where)
    options = t.get("options", dict, {})
    credit = [_band(band, f"{where}: credit band {i}")
              for i, band in enumerate(t.get("credit", list, required=True), start=1)]
    leaderboard = t.get("leaderboard", str, None)
    if leaderboard is not None and leaderboard not in METRICS:
        raise ConfigurationError(f"{where}: 'leaderboard' must be one of {', '.join(METRICS)}")
    common["points"] = sum(b.points for b in credit)
    rules = t.choice("rules", tuple(RULES_VARIANTS), "default")
    stream = t.choice("random", RANDOM_MODES, "per-game")
    if stream == "shared" and any(g.strip() != "random" for g in maze["ghosts"].split(",")):
        raise ConfigurationError(f"{where}: 'random = \"shared\"' plays the classic random ghost "
                                 "only: 'ghosts' must be \"random\"")
    if stream == "shared" and search is not None:
        raise ConfigurationError(f"{where}: 'random = \"shared\"' needs the submission's own "
                                 "agent ('agent'), not 'search'")
    return Test(search=search, evaluation_role=evaluation, options=options, rules=rules,
                random=stream,
                games=t.positive("games", int, 1), max_moves=t.positive("max_moves", int, 500),
                credit=tuple(credit), leaderboard=leaderboard, **maze, **common)


def _band(data: Any, where: str) -> Band:
    b = Table(data, where, ("metric", "at_least", "at_most", "points", "required"))
    metric = b.choice("metric", METRICS, "win_rate")
    if ("at_least" in b.data) == ("at_most" in b.data):
        raise ConfigurationError(f"{b.where}: give exactly one of 'at_least' and 'at_most'")
    key = "at_least" if "at_least" in b.data else "at_most"
    points = float(b.get("points", (int, float), 1))
    if points < 0:
        raise ConfigurationError(f"{b.where}: 'points' must be 0 or more")
    return Band(metric, float(b.get(key, (int, float))), key == "at_least", points,
                b.get("required", bool, False))


def position_test(data: Any, where: str, number: str, limits: TestLimits, roles: Mapping[str, Any],
                  strict: bool, ties: str, base: Path | None) -> Test:
    """A ``type = "positions"`` test (see the module docstring)."""
    t = Table(data, where, POSITION_KEYS)
    common = common_fields(t, number, limits, roles, "positions", "positions")
    keys = search_fields(t, common, strict, ties)
    maze = _maze_and_ghosts(t, where)
    game = t.choice("game", POSITION_GAMES, "seeded")
    if game == "classic" and any(g.strip() != "directional" for g in maze["ghosts"].split(",")):
        raise ConfigurationError(f"{where}: game = \"classic\" plays the classic directional "
                                 "ghosts; set ghosts = \"directional\"")
    return Test(max_moves=t.positive("max_moves", int, 100), game=game, **maze, **keys, **common)

