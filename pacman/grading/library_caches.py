"""What ordinary imports in a submission need: a private home, configuration and cache folder,
and the caches libraries would otherwise build on first import.

``import matplotlib.pyplot`` wants a writable configuration folder and, the first time, builds a
font list by opening every font of the system and writes it there. A worker can do neither:
the audit hook reports reading files outside its views, and refuses creating files. So the
grader builds matplotlib's font list once per process, in a folder of its own
(:func:`prepared_caches`, with the same interpreter the workers run), and each worker finds a
copy in its private folder (the jail's ``/tmp``, or its own temporary folder without the
jail), which :func:`private_environment` names as ``HOME``, ``MPLCONFIGDIR`` and the XDG
folders. With the list there, importing matplotlib reads it and writes nothing; creating the
folder again (which matplotlib does, ``exist_ok``) is refused harmlessly, as in a read-only
folder: the audit hook does not count what happens inside the private folder as an attempt to
escape (:func:`pacman.grading.policy.install_audit_hook`).
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pacman.contained.jail import runtime_roots

#: The private folder's sub-folder that is matplotlib's configuration and cache folder.
MATPLOTLIB_FOLDER = "matplotlib"


def private_environment(private: str) -> dict[str, str]:
    """Environment variables that point libraries at the worker's private folder."""
    return {"HOME": private, "MPLCONFIGDIR": os.path.join(private, MATPLOTLIB_FOLDER),
            "MPLBACKEND": "Agg", "XDG_CACHE_HOME": os.path.join(private, ".cache"),
            "XDG_CONFIG_HOME": os.path.join(private, ".config")}


@functools.lru_cache(maxsize=1)
def prepared_caches() -> dict[str, Path]:
    """The cache files a worker's matplotlib folder gets (file name: path of the grader's
    copy), built once per process; empty when matplotlib is not installed or building failed
    (a submission importing it then builds nothing and finds no list: its import may fail, as
    it would without a writable folder)."""
    if importlib.util.find_spec("matplotlib") is None:
        return {}
    folder = Path(tempfile.mkdtemp(prefix="pacman-grading-caches-"))
    atexit.register(shutil.rmtree, folder, True)
    target = folder / MATPLOTLIB_FOLDER
    target.mkdir()
    env = {"PATH": os.defpath, **private_environment(str(folder))}
    try:
        subprocess.run([sys.executable, "-I", "-c", "import matplotlib.font_manager"], env=env,
                       cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300, check=True)
    except (OSError, subprocess.SubprocessError):
        return {}
    os.chmod(folder, 0o755)  # the worker's user reads them (or bubblewrap binds them)
    os.chmod(target, 0o755)
    files = {}
    for path in target.glob("fontlist-*.json"):
        os.chmod(path, 0o644)
        files[path.name] = path
    return files


def place_caches(private: Path, owner: tuple[int, int] | None) -> None:
    """Copy :func:`prepared_caches` into the worker's private folder ``private`` (without the
    jail), owned by ``owner`` when given."""
    files = prepared_caches()
    if not files:
        return
    target = private / MATPLOTLIB_FOLDER
    target.mkdir(exist_ok=True)
    for name, source in files.items():
        shutil.copyfile(source, target / name)
        if owner is not None:
            os.chown(target / name, *owner)
    if owner is not None:
        os.chown(target, *owner)


def cache_files(private: str) -> tuple[tuple[Path, Path], ...]:
    """Where :func:`prepared_caches` go in the jail's private folder: ``(source, path)``
    pairs, each file bound read-only (their folder is made by bubblewrap, on the jail's
    ``/tmp``)."""
    if any(Path(private).is_relative_to(root) for root in runtime_roots()):
        return ()  # the private folder is a read-only view of the runtime: nothing goes there
    return tuple((source, Path(private, MATPLOTLIB_FOLDER, name))
                 for name, source in prepared_caches().items())
