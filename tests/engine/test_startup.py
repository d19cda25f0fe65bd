"""What the program loads before it does anything: every command builds the whole parser, so
a heavy library imported at the top of a command's module is paid by ``--version`` and by
every game. SciPy's statistics (about a second to import) load when a statistic is computed."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from pacman.cli import build_parser
build_parser().parse_args(["play"])
print(",".join(sorted(name for name in ("scipy", "scipy.stats") if name in sys.modules)))
"""


def test_building_the_command_line_loads_no_scipy():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == ""


def test_a_statistic_loads_scipy_when_it_is_computed():
    probe = ("import sys\nfrom pacman.batch.stats import wilson_interval\n"
             "assert 'scipy.stats' not in sys.modules\n"
             "low, high = wilson_interval(3, 10)\n"
             "print('scipy.stats' in sys.modules, round(low, 4), round(high, 4))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.split() == ["True", "0.1078", "0.6032"]
