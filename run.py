#!/usr/bin/env python3
"""Entry point from a source checkout: ``python run.py [COMMAND] [OPTIONS]`` (see --help)."""

import sys

from pacman.cli import main

if __name__ == "__main__":
    sys.exit(main())
