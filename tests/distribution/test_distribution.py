"""The distribution as PyPI would get it: ``python -m build`` makes an sdist and a wheel that
``twine check`` accepts, with the mazes, the HTML player, the assignments and the licences
inside; the wheel installed into a fresh virtual environment plays a game and makes the
Gymnasium environment, run from a folder holding a user's own ``agents.py`` and ``layouts.py``.

The fresh environment gets the wheel alone (``--no-deps``, offline); its dependencies are read
from this interpreter's site-packages through a path file, which adds the folder to
``sys.path`` without running its path files, so the checkout's editable install stays out.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import pacman

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("build", reason="the test extra is not installed")
pytest.importorskip("twine", reason="the test extra is not installed")

SHIPPED = ["pacman/layouts/small_classic.lay", "pacman/layouts/smallClassic.lay",
           "pacman/layouts/catalog.toml", "pacman/layouts/NOTICE", "pacman/agents/catalog.py",
           "pacman/agents/search/textbook.py", "pacman/display/player.html",
           "pacman/grading/assignments/classic.toml", "pacman/grading/assignments/default.toml",
           "pacman/examples/train_masked_ppo.py"]
USER_FILES = {"agents.py": "raise SystemExit('the user agents.py was imported')\n",
              "layouts.py": "raise SystemExit('the user layouts.py was imported')\n"}


def run(command: list, cwd: Path | None = None, timeout: int = 600) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The sdist and the wheel, the wheel built from the sdist (as ``python -m build`` does)."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--outdir", out, ROOT])
    return out


@pytest.fixture(scope="module")
def fresh(dist, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed; its python."""
    where = tmp_path_factory.mktemp("venv") / "fresh"
    run([sys.executable, "-m", "venv", where])
    python = where / "bin" / "python"
    purelib = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                   .strip())
    (purelib / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wheel = next(dist.glob("*.whl"))
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", wheel])
    return python


def test_sdist_and_wheel_pass_twine_and_hold_the_data(dist):
    wheel, sdist = next(dist.glob("*.whl")), next(dist.glob("*.tar.gz"))
    assert wheel.name == f"pacman_arena-{pacman.__version__}-py3-none-any.whl"
    run([sys.executable, "-m", "twine", "check", "--strict", wheel, sdist])
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(SHIPPED) <= names
    info = f"pacman_arena-{pacman.__version__}.dist-info"
    assert {f"{info}/licenses/LICENSE", f"{info}/licenses/pacman/layouts/NOTICE"} <= names
    # no generic top-level names (agents, layouts, tests...) claimed in site-packages
    assert {name.split("/")[0] for name in names} == {"pacman", info}
    top = f"pacman_arena-{pacman.__version__}/"
    with tarfile.open(sdist) as archive:
        members = set(archive.getnames())
    assert {top + name for name in [*SHIPPED, "LICENSE", "CHANGELOG.md", "tests/envs/test_training.py",
                                    "pacman/examples/train_masked_ppo.py"]} <= members


def test_the_installed_wheel_plays_and_makes_the_environment(fresh, tmp_path):
    code = ("import json, gymnasium, pacman, pacman.envs\n"
            "env = gymnasium.make(pacman.envs.GYMNASIUM_ID, layout='smallClassic')\n"
            "observation, info = env.reset(seed=0)\n"
            "print(json.dumps({'file': pacman.__file__, 'shape': observation.shape,\n"
            "                  'steps': env.spec.max_episode_steps}))\n")
    shown = json.loads(run([fresh, "-c", code], cwd=tmp_path))
    assert "site-packages" in shown["file"] and str(ROOT) not in shown["file"]
    assert shown["shape"] == [8, 42, 120] and shown["steps"] is None  # image; max_moves limits
    version = run([fresh.parent / "pacman-arena", "--version"], cwd=tmp_path)
    assert version.split() == ["pacman-arena", pacman.__version__]
    for name, text in USER_FILES.items():
        (tmp_path / name).write_text(text)
    game = json.loads(run([fresh.parent / "pacman-arena", "--display", "none", "--seed", "1",
                           "--json", "--layout", "testClassic"], cwd=tmp_path))
    assert game["outcome"] in ("win", "loss", "move_limit")


def test_a_users_agents_and_layouts_modules_do_not_shadow_the_package(fresh, tmp_path):
    for name, text in USER_FILES.items():
        (tmp_path / name).write_text(text)
    code = ("import gymnasium, pacman.envs\n"
            "gymnasium.make(pacman.envs.GYMNASIUM_ID).reset(seed=0)\n"
            "from pacman.engine.layout import load_layout\n"
            "print(load_layout('small_classic').name)\n")
    assert run([fresh, "-c", code], cwd=tmp_path).strip() == "small_classic"
