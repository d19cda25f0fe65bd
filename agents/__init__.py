"""All the AI: Pacman agents, ghost agents, evaluation functions and the generic search core.

:mod:`pacman.agents.search` is generic and imports nothing outside itself; the other modules play
the Pacman game through :class:`pacman.engine.state.GameState`. The repository's ``agents/`` folder is
installed as ``pacman.agents`` (see ``docs/architecture.md``, "One package").
"""
