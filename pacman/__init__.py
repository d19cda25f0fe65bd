"""A Pacman-style grid world for adversarial search: the engine and the apps around it.

The engine core (:mod:`pacman.layout`, :mod:`pacman.state`, :mod:`pacman.rules`,
:mod:`pacman.game`) imports nothing from :mod:`pacman.agents` and nothing from the displays.
"""

__version__ = "0.1.0"
