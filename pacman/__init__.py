"""A Pacman-style grid world for adversarial search: the engine and the apps around it.

The engine core (:mod:`pacman.engine.layout`, :mod:`pacman.engine.state`, :mod:`pacman.engine.rules`,
:mod:`pacman.engine.game`) imports nothing from :mod:`pacman.agents` and nothing from the displays.
Imported inside IPython (Jupyter), the package tells IPython how games and states show.
"""

from typing import Any

from pacman.version import __version__

__all__ = ["__version__"]


def _result_html(result: Any) -> str:
    from pacman.display.notebook import result_html

    return result_html(result)


def _state_png(state: Any) -> bytes:
    from pacman.display.notebook import state_png

    return state_png(state)


def _show_in_notebooks() -> None:
    """Inside IPython (Jupyter), tell its formatters how games and states show: a ``GameResult``
    as the web page player, a ``GameState`` (and its variants) as a picture
    (:mod:`pacman.display.notebook`, loaded when a notebook first shows one). The engine's
    classes carry no display code. Outside IPython this does nothing."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    formatters = getattr(getattr(shell, "display_formatter", None), "formatters", None)
    if formatters:
        formatters["text/html"].for_type_by_name("pacman.engine.game", "GameResult", _result_html)
        formatters["image/png"].for_type_by_name("pacman.engine.state", "GameState", _state_png)


_show_in_notebooks()
