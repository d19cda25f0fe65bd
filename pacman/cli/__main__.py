"""``python -m pacman.cli``: the same program as ``pacman-arena``."""

import sys

from pacman.cli import main

if __name__ == "__main__":
    sys.exit(main())
