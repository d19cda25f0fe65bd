"""The version of the distribution, written once: ``pyproject.toml`` reads it, recordings and
experiment reports carry it, ``pacman-arena --version`` prints it."""

__version__ = "0.1.0"
