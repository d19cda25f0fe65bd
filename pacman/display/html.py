"""A recorded game as one self-contained web page: the maze, every state and a canvas player.

The page needs no server and no network: the player (``player.html`` beside this module: a
canvas, play/pause, step, a slider and a speed choice; keys space, arrows, Home, End;
``game.html#move=N`` opens paused at Pacman's N-th move) and the game are inline. The game
is stored compactly: the maze text, one letter per agent move (``N S E W``, ``X`` for Stop),
and for every state the score, every agent's cell and every ghost's scared timer; food and
capsules are derived from Pacman's path, since eaten ones never come back. A 300-move game
with two ghosts takes about 30 kB.

The same page, in an ``iframe``, is how games show in Jupyter (:mod:`pacman.display.notebook`).
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from pacman.errors import ConfigurationError
from pacman.engine.game import GameResult, replay_states

#: The file ending the exporters write a page for.
SUFFIX = ".html"
_LETTERS = {"North": "N", "South": "S", "East": "E", "West": "W", "Stop": "X"}
_PLACEHOLDER = "__GAME_DATA__"


def is_html(path: str) -> bool:
    """Whether ``path`` names a web page (``.html``, any case)."""
    return Path(path).suffix.lower() == SUFFIX


def game_data(result: GameResult, *, title: str | None = None,
              autoplay: bool = True) -> dict[str, Any]:
    """What the player needs of ``result``, replayed (and so checked) move by move.

    Raises :class:`pacman.engine.game.ReplayError` if the recording does not reproduce.
    """
    states = list(replay_states(result))
    frames: list[int] = []
    for state in states:
        frames.append(state.score)
        frames.extend(state.positions)
        frames.extend(state.scared_timers)
    agents = [str(agent.get("name", "?")) for agent in result.agents]
    return {
        "title": title or (f"{agents[0] if agents else '?'} on {result.layout}, seed "
                           f"{result.seed}: {result.outcome}, score {result.score}"),
        "layout": result.layout, "seed": result.seed, "outcome": result.outcome,
        "score": result.score, "moves": result.moves, "agents": agents,
        "maze": states[0].layout.text.split("\n"), "ghosts": result.num_ghosts,
        "actions": "".join(_LETTERS[action] for action in result.actions),
        "frames": frames, "autoplay": autoplay,
    }


def _template() -> str:
    return resources.files("pacman.display").joinpath("player.html").read_text("utf-8")


def game_html(result: GameResult, *, title: str | None = None, autoplay: bool = True) -> str:
    """The whole page of ``result``: one HTML document with the game and its player."""
    data = game_data(result, title=title, autoplay=autoplay)
    # No "<" at all inside the script element: "</script" would end it early and "<!--"
    # would change how the rest is parsed. JSON spells it \u003c just as well.
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    page = _template().replace("__TITLE__", html.escape(data["title"]))
    return page.replace(_PLACEHOLDER, payload)


def write_html(result: GameResult, path: str, *, title: str | None = None) -> int:
    """Write the page of ``result`` to ``path``; returns its size in bytes."""
    page = game_html(result, title=title).encode("utf-8")
    try:
        Path(path).write_bytes(page)
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot write ({error.strerror or error})") from None
    return len(page)


def iframe(result: GameResult, *, title: str | None = None, autoplay: bool = False) -> str:
    """The page of ``result`` inside an ``iframe`` element, sized to its maze: a fragment that
    can sit in another page (a notebook's output) without its script touching that page."""
    page = game_html(result, title=title, autoplay=autoplay)
    rows = result.layout_text.split("\n")
    height, width = len(rows), max(len(row) for row in rows)
    tile = max(6, min(32, min(860 // width, 560 // height)))
    frame_width = max(520, width * tile + 30)
    frame_height = height * tile + 120
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" width="{frame_width}" '
            f'height="{frame_height}" style="border:0" sandbox="allow-scripts" '
            f'title="{html.escape(result.layout)}"></iframe>')
