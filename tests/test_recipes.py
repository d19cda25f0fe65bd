"""Each recipe of docs/architecture.md ("## Recipes") followed as written: the new ghost,
evaluation, command, experiment or maze is written into a package of its own in a temporary
folder, registered in its catalog the way the recipe says (the catalog's line is a
``Registry`` entry: ``"name": "module:attr"``), and played through the command line in a
fresh process. No test here, or anywhere, pins how many entries a catalog holds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECIPES = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split("## Recipes", 1)[1]


def recipe(title: str) -> str:
    """The text of the recipe headed ``### title``."""
    found = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^##)", RECIPES, re.S | re.M)
    assert found, f"docs/architecture.md has no recipe '{title}'"
    return found.group(1)


def run(tmp_path: Path, files: dict[str, str], setup: str, argv: list[str]) -> subprocess.CompletedProcess:
    """Write ``files`` (paths under ``tmp_path``), run ``setup`` (the recipe's registration),
    then ``pacman-arena ARGV`` in a fresh process; its exit code is the command's."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    program = (f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n{textwrap.dedent(setup)}\n"
               f"from pacman.cli import main\nsys.exit(main({argv!r}))\n")
    return subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)


def played(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


GHOST = """
    from collections.abc import Mapping
    from pacman.agents.base import DistributionAgent


    class StillGhost(DistributionAgent):
        '''Stays where it is when it may (Stop), else takes its first legal move.'''

        def __init__(self, index: int, rng=None, stubborn: bool = False) -> None:
            super().__init__(index, rng)
            self.stubborn = stubborn

        def distribution(self, state) -> Mapping[str, float]:
            moves = state.legal_actions(self.index)
            return {"Stop" if "Stop" in moves else moves[0]: 1.0}
"""


def test_the_ghost_recipe(tmp_path):
    text = recipe("A ghost")
    assert "DistributionAgent" in text and "GHOST_AGENTS" in text and "--ghost-opt" in text
    done = run(tmp_path, {"recipe_pkg/__init__.py": "", "recipe_pkg/still.py": GHOST},
               "from pacman.agents.catalog import GHOST_AGENTS\n"
               "GHOST_AGENTS.register('still', 'recipe_pkg.still:StillGhost')",
               ["play", "-l", "tiny", "-p", "alphabeta", "-g", "still", "--ghost-opt",
                "stubborn=true", "-q", "-s", "3", "--json"])
    record = played(done)
    assert "still" in json.dumps(record["agents"])


EVALUATION = """
    from pathlib import Path

    from pacman.engine.state import GameState

    CALLED = Path(__file__).with_name("called")


    def hungry(state: GameState) -> float:
        '''The score, less ten points for every dot left.'''
        CALLED.touch()  # for the test: the search called it
        return state.score - 10 * state.food.bit_count()
"""


def test_the_evaluation_recipe(tmp_path):
    text = recipe("An evaluation")
    assert "EVALUATIONS" in text and "evaluation=" in text
    done = run(tmp_path, {"recipe_pkg/__init__.py": "", "recipe_pkg/hungry.py": EVALUATION},
               "from pacman.agents.evaluation import EVALUATIONS, Evaluation\n"
               "from recipe_pkg.hungry import hungry\n"
               "EVALUATIONS.register('hungry', Evaluation('hungry', hungry))",
               ["play", "-l", "tiny", "-p", "alphabeta", "-a", "depth=1", "-a",
                "evaluation=hungry", "-q", "-s", "3", "--json"])
    played(done)
    assert (tmp_path / "recipe_pkg" / "called").exists()
    unknown = run(tmp_path, {}, "", ["play", "-l", "tiny", "-p", "alphabeta", "-a",
                                     "evaluation=hungry", "-q"])
    assert unknown.returncode == 2 and "hungry" in unknown.stderr  # not registered: refused


COMMAND = """
    import argparse

    from pacman.engine.layout import load_layout
    from pacman.errors import ConfigurationError


    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("maze", help="a maze's name or file")


    def run(args: argparse.Namespace) -> int:
        layout = load_layout(args.maze)
        if layout.width < 3:
            raise ConfigurationError("a maze this narrow has no room")
        print(f"{args.maze}: {layout.width} x {layout.height}")
        return 0
"""


def test_the_command_recipe(tmp_path):
    text = recipe("A command")
    assert "configure(parser)" in text and "run(args)" in text and "COMMANDS" in text
    files = {"recipe_pkg/__init__.py": "", "recipe_pkg/size.py": COMMAND}
    setup = ("from pacman.cli import COMMANDS\n"
             "COMMANDS.register('size', 'recipe_pkg.size', help='the size of a maze')")
    done = run(tmp_path, files, setup, ["size", "tiny"])
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"tiny: \d+ x \d+\n", done.stdout)
    bad = run(tmp_path, files, setup, ["size", "no_such_maze"])
    assert bad.returncode == 2 and bad.stderr.startswith("pacman-arena:")
    assert bad.stderr.count("\n") == 1


EXPERIMENT = """
    from pacman.batch.jobs import GameJob
    from pacman.experiments.base import Experiment, Report, Settings
    from pacman.experiments.games import outcome_table, play


    def run(settings: Settings) -> Report:
        played = play([GameJob("alpha-beta", "tiny", "alphabeta", {"depth": "2"},
                               ghosts=("random",))], settings)
        report = Report("tiny_wins", "Alpha-beta on tiny", "Does depth 2 win the tiniest maze?")
        report.add(outcome_table(played))
        games = len(played.results["alpha-beta"])
        report.claim("alpha-beta at depth 2 plays every game to its end", games == settings.games,
                     f"{games} games")
        return report


    EXPERIMENT = Experiment("tiny_wins", "Alpha-beta on tiny", "depth 2 on the tiniest maze",
                            games=4, ci_games=2, run=run)
"""


def test_the_experiment_recipe(tmp_path):
    text = recipe("An experiment")
    assert "EXPERIMENT = Experiment(" in text and "EXPERIMENTS" in text
    done = run(tmp_path, {"recipe_pkg/__init__.py": "", "recipe_pkg/tiny_wins.py": EXPERIMENT},
               "from pacman.experiments import EXPERIMENTS\n"
               "EXPERIMENTS.register('tiny_wins', 'recipe_pkg.tiny_wins:EXPERIMENT')",
               ["experiment", "tiny_wins", "--games", "2", "--workers", "1", "--out",
                str(tmp_path / "report"), "--no-progress"])
    assert done.returncode == 0, done.stderr
    report = "\n".join(p.read_text() for p in (tmp_path / "report").rglob("*.md"))
    assert "Alpha-beta on tiny" in report and "plays every game to its end" in report


MAZE = """\
    %%%%%%%
    %P . G%
    %o%%%.%
    %. . .%
    %%%%%%%
"""


def test_the_maze_recipe(tmp_path):
    text = recipe("A maze")
    assert ".lay" in text and "catalog.toml" in text
    done = run(tmp_path, {"mazes/loop.lay": MAZE}, "",
               ["play", "-l", str(tmp_path / "mazes" / "loop.lay"), "-p", "alphabeta", "-g",
                "random", "-q", "-s", "1", "--json"])
    record = played(done)
    assert record["outcome"] in ("win", "loss", "moves", "draw") or record["outcome"]
