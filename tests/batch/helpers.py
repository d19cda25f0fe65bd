"""Shared helpers of the batch tests: small mazes, agent files, and results without timings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pacman.engine.game import GameResult

#: A small two-ghost maze: random games end within a few dozen moves.
MAZE_TEXT = ("%%%%%%%%%%\n"
             "%P...o..G%\n"
             "%.%%.%%%.%\n"
             "%...G....%\n"
             "%%%%%%%%%%\n")

#: A Pacman agent that plays randomly and raises on its third move of every game.
CRASHER = '''
from pacman.agents.base import BaseAgent


class Crasher(BaseAgent):
    def __init__(self, index=0, rng=None, *, after: int = 2):
        super().__init__(index, rng)
        self.after = after
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.moves > self.after:
            raise RuntimeError("deliberate crash")
        return self.rng.choice(state.legal_actions())
'''


def write_maze(folder: Path) -> str:
    path = folder / "mini.lay"
    path.write_text(MAZE_TEXT, encoding="utf-8")
    return str(path)


def write_crasher(folder: Path) -> str:
    path = folder / "crasher.py"
    path.write_text(CRASHER, encoding="utf-8")
    return f"{path}:Crasher"


def comparable(result: GameResult) -> dict[str, Any]:
    """A result without what measuring time adds (think times, elapsed search seconds)."""
    data = result.to_dict()
    for name in ("think_time", "max_move_time"):
        data.pop(name)
    data["agent_stats"] = [None if s is None else {k: v for k, v in s.items() if k != "seconds"}
                           for s in data["agent_stats"]]
    return data
