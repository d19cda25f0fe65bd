"""Code the program does not ship runs here: in a contained process of its own per agent.

:mod:`~pacman.contained.agent` (the agent the game sees and the spec the line-up builds),
:mod:`~pacman.contained.process` (one process, and those kept for later games),
:mod:`~pacman.contained.jail` (the bubblewrap and plain backends, the unprivileged user and the
limits; the grader starts its workers there too),
:mod:`~pacman.contained.child` (the process's own side) and
:mod:`~pacman.contained.protocol` (the messages between them). See docs/contained-agents.md.
"""
