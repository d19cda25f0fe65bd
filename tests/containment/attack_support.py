"""Driving the program as its user does, with a hostile agent file, for the attack suite.

Every run is a fresh ``pacman-arena`` process (``run.py``) with ``PACMAN_AGENT_JAIL`` naming
the backend under test, its own ``TMPDIR`` and its own seal key. The hostile agents report
what they managed on stderr as lines ``ATTACK <name> <json>`` (:func:`reports`); the tests
judge only what is visible from outside: exit codes, ``--json`` output, stores, files and
processes.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AGENTS = Path(__file__).with_name("attack_agents")
BACKENDS = ("bwrap", "plain")
#: A short maze and game: the agents attack on their first move.
FAST = ["--layout", "small_classic", "--max-moves", "20", "--seed", "2"]
#: What the plain backend (``PACMAN_AGENT_JAIL=plain``) cannot prevent, each kind with the
#: word its one stderr line must use for it (next to "not prevented").
PLAIN_KEYWORDS = {"processes": "processes", "files": "files", "sessions": "session"}


def agent(file: str, name: str) -> str:
    """``attack_agents/FILE.py:NAME`` as a command line names it."""
    return f"{AGENTS / file}.py:{name}"


@functools.lru_cache(maxsize=1)
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot run here (``None`` if it can)."""
    if shutil.which("bwrap") is None:
        return "bwrap is not installed"
    try:
        done = subprocess.run(["bwrap", "--unshare-all", "--new-session", "--die-with-parent",
                               "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev",
                               "--tmpfs", "/tmp", "true"], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap cannot run: {error}"
    if done.returncode != 0:
        return f"bwrap cannot make namespaces here: {done.stderr.strip()[:200]}"
    return None


def as_root() -> bool:
    return os.geteuid() == 0


def token() -> str:
    """A number no other process has on its command line: a ``sleep`` duration."""
    return f"{3000 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 10 ** 6:06d}"


class Run:
    """One program run's environment: the backend, a private ``TMPDIR`` and seal key."""

    def __init__(self, backend: str, tmp_path: Path, **env: str) -> None:
        self.backend = backend
        self.tmp = tmp_path
        # Short: a socket's name in it must fit in 108 bytes.
        self.tmpdir = Path(tempfile.mkdtemp(prefix="pma-", dir="/tmp"))
        self.config = tmp_path / "config"
        self.env = {"PACMAN_AGENT_JAIL": backend, "TMPDIR": str(self.tmpdir),
                    "XDG_CONFIG_HOME": str(self.config), **env}

    def close(self) -> None:
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    @property
    def key_path(self) -> Path:
        return self.config / "pacman-arena" / "seal.key"

    def environment(self) -> dict[str, str]:
        environment = {**os.environ, **self.env}
        environment.pop("PACMAN_ARENA_SEAL_KEY", None)
        return environment

    def argv(self, *argv: str) -> list[str]:
        return [sys.executable, str(ROOT / "run.py"), *argv]

    def run(self, *argv: str, timeout: float = 120, **extra: Any) -> subprocess.CompletedProcess:
        """``pacman-arena ARGV``, its output captured as text."""
        options: dict[str, Any] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE,
                                   "stderr": subprocess.PIPE, **extra}
        return subprocess.run(self.argv(*argv), text=True, timeout=timeout, cwd=ROOT,
                              env=self.environment(), **options)

    def start(self, *argv: str, **extra: Any) -> subprocess.Popen:
        """``pacman-arena ARGV`` started, not waited for."""
        return subprocess.Popen(self.argv(*argv), cwd=ROOT, env=self.environment(),
                                stdin=subprocess.DEVNULL, **extra)


def play(run: Run, spec: str, *options: str, extra: tuple[str, ...] = (),
         **kw: Any) -> subprocess.CompletedProcess:
    """``play --json`` of the agent ``spec`` with ``options`` (``KEY=VALUE``) as Pacman."""
    pacman_opts = [part for option in options for part in ("--pacman-opt", option)]
    return run.run("play", "--json", "-p", spec, *pacman_opts, *FAST, *extra, **kw)


def batch_argv(*pacmen: str, workers: int = 1, games: int = 2, store: Path | None = None,
               backend: str = "local") -> list[str]:
    """``batch --json`` of the Pacman entries ``pacmen`` (``"SPEC KEY=VALUE ..."``)."""
    where = ["--store", str(store)] if store is not None else ["--no-store"]
    entries = [part for pacman in pacmen for part in ("-p", pacman)]
    return ["batch", "--backend", backend, "--workers", str(workers), "-n", str(games),
            *entries, *FAST[:4], *where, "--no-progress", "--json"]


def batch(run: Run, spec: str, *options: str, workers: int = 1, games: int = 2,
          store: Path | None = None, backend: str = "local", **kw: Any
          ) -> subprocess.CompletedProcess:
    """``batch --json`` of the agent ``spec`` with ``options`` on ``games`` seeds."""
    return run.run(*batch_argv(" ".join([spec, *options]), workers=workers, games=games,
                               store=store, backend=backend), **kw)


def drive(driver: str, run: Run, spec: str, *options: str, **kw: Any) -> subprocess.CompletedProcess:
    """The agent played by one of the user's ways: ``play``, ``batch1``, ``batch2``,
    ``dask``."""
    if driver == "play":
        return play(run, spec, *options, **kw)
    if driver == "dask":
        return batch(run, spec, *options, backend="dask", timeout=240, **kw)
    return batch(run, spec, *options, workers=int(driver[-1]), **kw)


def reports(stderr: str, name: str) -> list[dict[str, Any]]:
    """What the hostile agent reported under ``name`` (one entry per report line)."""
    found = []
    for line in stderr.splitlines():
        head, marker, rest = line.partition(f"ATTACK {name} ")
        if marker:
            found.append(json.loads(rest))
    return found


def plain_lines(stderr: str) -> list[str]:
    """The lines that say what the backend does not prevent."""
    return [line for line in stderr.splitlines() if "not prevented" in line]


def check_not_prevented_line(run: Run, stderr: str, kind: str) -> None:
    """With the plain backend: its one line names ``kind`` (a key of
    :data:`PLAIN_KEYWORDS`) as not prevented."""
    lines = plain_lines(stderr)
    assert len(lines) == 1, f"want one 'not prevented' line, got {lines!r}"
    assert PLAIN_KEYWORDS[kind] in lines[0], (kind, lines[0])


def games(stdout: str) -> list[dict[str, Any]]:
    """The games ``play --json`` printed (one JSON object a line; nothing else allowed)."""
    return [json.loads(line) for line in stdout.splitlines()]


def conditions(stdout: str) -> list[dict[str, Any]]:
    """The conditions a ``batch --json`` or ``report --json`` printed."""
    return json.loads(stdout)["conditions"]


def _cmdline(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _comm(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as file:
            return file.read().strip()
    except OSError:
        return ""


def _zombie(pid: str) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
            return file.read().rpartition(")")[2].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return True


def marked(mark: str) -> set[int]:
    """Live processes anywhere whose command line or name holds ``mark``."""
    return {int(pid) for pid in os.listdir("/proc") if pid.isdigit()
            and (mark in _cmdline(pid) or mark[:15] in _comm(pid)) and not _zombie(pid)}


def wait_for(check: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return bool(check())


def kill_marked(mark: str) -> None:
    """End whatever a failed test left running (so that one failure is not many)."""
    for pid in marked(mark):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
