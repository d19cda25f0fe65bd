"""Compatibility with the classic course's Pacman API, kept thin and separate from the engine.

Submissions written for the classic course import ``game`` (``Agent``, ``Directions``,
``Actions``), ``util`` (``manhattanDistance``, ``Counter``, ...), sometimes ``multiAgents``
(``MultiAgentSearchAgent``) and ``from pacman import GameState``. :mod:`pacman.compat.loader`
makes those imports resolve to the modules here while such a file is loaded, and wraps classic
agents (``getAction(gameState)``) and evaluation functions so they play in normal games.
:class:`pacman.compat.state.GameState` presents an engine state through the classic methods.
"""
