"""The short mutation check: under each target's lying mutant, every test named for the target
fails (``tests/mutation/mutants.py``; ``python bench/mutation_check.py`` runs both mutants of
every target, and against another revision's tests)."""

from __future__ import annotations

import pytest

from mutants import TARGETS, run_mutant


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_every_test_named_for_a_function_fails_when_it_lies(target):
    outcomes = run_mutant(target, "lie")
    assert outcomes, f"no tests are named for {target}"
    survivors = sorted(node for node, outcome in outcomes.items() if outcome != "failed")
    assert survivors == []


def test_the_mutants_replace_the_function_everywhere_it_is_bound():
    """The fast loop's raising mutant reaches the loop through the class, and the rules' lying
    one through a name imported before the mutant was applied (checked in a subprocess: the
    mutant stays for the life of the process)."""
    import subprocess
    import sys
    from pathlib import Path

    program = (
        "import sys; sys.path.insert(0, %r)\n"
        "from pacman.agents.pacman_search import PacmanSearch, engine_successor\n"
        "from pacman.engine.layout import load_layout\n"
        "from pacman.engine.state import GameState\n"
        "import mutants\n"
        "state = GameState.initial(load_layout('smallClassic'))\n"
        "before = engine_successor(state, state.legal_actions()[0]).score\n"
        "mutants.apply('rules.successor', 'lie')\n"
        "assert engine_successor(state, state.legal_actions()[0]).score == before + 1\n"
        "mutants.apply('node_value', 'raise')\n"
        "try:\n"
        "    PacmanSearch.node_value(None, state, 1, 0, 0)\n"
        "except mutants.Mutant:\n"
        "    print('raised')\n"
    ) % str(Path(__file__).parent)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.stdout.strip() == "raised", done.stderr
