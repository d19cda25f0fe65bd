"""All the AI: Pacman agents, ghost agents, evaluation functions and the generic search core.

:mod:`pacman.agents.search` is generic and imports nothing from :mod:`pacman`; the other modules play
the Pacman game through :class:`pacman.state.GameState`.
"""
