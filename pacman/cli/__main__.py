"""``python -m pacman.cli``: the same program as ``pacman-arena``."""

import sys

from pacman.cli import main

sys.exit(main())
