"""Resisting a forced loss: what a worst-case search plays when every move loses.

Alpha-beta values the ghosts as perfect adversaries. Once two of them can corner Pacman, every
move of the deepest iteration ends in a capture, all moves look alike, and the search plays the
first of them, or the one that dies soonest (the score loses a point per move): it walks into
the ghosts. Real ghosts are not perfect (a directional ghost takes a random move one time in
five), so the better move is the one that holds out longest against the worst case, which gives
the ghosts the most chances to err. An iterative-deepening search knows it: the move of the
deepest finished iteration that did not yet see the capture.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from pacman.agents.search.result import SearchResult
from pacman.engine.state import LOSS, OUTCOME, GameState


def line_loses(state: GameState, line: Sequence[str]) -> bool:
    """Whether playing the moves of ``line`` from ``state`` ends the game in Pacman's loss."""
    for action in line:
        if state[OUTCOME] is not None:
            break
        state = state.successor(action)
    return state[OUTCOME] == LOSS


def longest_resistance(state: GameState, result: SearchResult,
                       iterations: Sequence[SearchResult]) -> SearchResult:
    """``result`` (the deepest finished iteration) with its action replaced, when its principal
    variation ends in Pacman's capture, by the action of the deepest of ``iterations`` (in the
    order they finished) whose principal variation does not; unchanged otherwise."""
    if not line_loses(state, result.principal_variation):
        return result
    for earlier in reversed(iterations):
        if earlier.action is not None and not line_loses(state, earlier.principal_variation):
            return dataclasses.replace(result, action=earlier.action,
                                       principal_variation=earlier.principal_variation)
    return result
