"""Hostile: tries to change the game: rewrites the rules and the state it is shown.

It patches the engine's rules so that every move wins, and tries to set attributes on the
state (the node of a tree, or the handle the grader gave it, pointed at a node it never
generated); neither may change the grade it gets for playing (the game runs in the grader, and
the grader refuses a state it did not give out).
"""

import pacman.engine.rules
from pacman.engine.state import GameState

from _native_student import MinimaxAgent as _Minimax, ReflexAgent as _Reflex

_honest = pacman.engine.rules.successor


def _always_win(state, action, agent=None):
    s = _honest(state, action, agent)
    return tuple.__new__(GameState, (*s[:4], 0, 0, 10**6, s[7], "win"))


pacman.engine.rules.successor = _always_win
pacman.engine.rules.WIN_SCORE = 10**6


class MinimaxAgent(_Minimax):
    def get_action(self, state):
        for name, forged in (("_node", None), ("_handle", "E")):
            try:
                object.__setattr__(state, name, forged)
            except Exception:
                pass
        return super().get_action(state)


class ReflexAgent(_Reflex):
    def get_action(self, state):
        return "Stop" if "Stop" in state.legal_actions(0) else state.legal_actions(0)[0]
