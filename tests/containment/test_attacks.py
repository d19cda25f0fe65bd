"""A stranger's hostile agent file, played the ways a user plays one (``play``, ``batch
--workers 1`` and ``--workers 2``, the Dask backend), with each containment backend
(``PACMAN_AGENT_JAIL=bwrap`` and ``plain``), judged from outside: what the agent reached,
what the program printed, stored and left running.

The plain backend (no bubblewrap: a child in its own session and process group, run as the
user ``nobody`` when the program runs as root, with resource limits) cannot prevent every
case; :data:`PLAIN` says which it does. Where it does not, its one stderr line must say "not
prevented" and name that kind of case (:data:`~tests.containment.attack_support.PLAIN_KEYWORDS`).

What is read from outside: ``play --json`` prints one object a game, with ``outcome`` and, for
a failed game, ``failure`` = ``{"agent", "kind", "message"}``; ``batch --json`` and ``report
--json`` print ``{"conditions": [...]}``, each with ``games``, ``wins``, ``mean_score``,
``mean_moves`` and ``causes`` (``crash`` ...); a store is a header line and one
``{"key", ..., "result": {..., "failure"}}`` line a game. The hostile agents
(``attack_agents/``) say what they reached on stderr (``ATTACK <name> <json>``).
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import signal
import stat
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from pacman.contained.jail import unprivileged_user
from tests.containment.attack_support import (
    BACKENDS, ROOT, Run, agent, as_root, batch, batch_argv, bwrap_problem, check_not_prevented_line,
    conditions, drive, games, kill_marked, marked, play, plain_lines, reports, token, wait_for)

#: Per case, what the plain backend does as root: ``True`` (prevents it) or the kind of case
#: its one line names as not prevented. Cases that rely on running the agent as another user
#: are not prevented when the program does not run as root (those tests skip the plain
#: backend then).
PLAIN: dict[str, bool | str] = {
    "fork_server": True,          # no fork server; the caller's TMPDIR is not the agent's
    "caller_tmpdir": True,        # as nobody, a 0700 folder of root's is closed
    "other_processes": "processes",
    "terminal": True,             # a new session: no controlling terminal
    "seal_key": True,             # the key is 0600 root's
    "memory": True,               # address-space and file-size limits
    "stopping_others": True,
    "orphans_group": True,        # killed with its process group
    "orphans_new_session": "sessions",
    "shadow_and_home": True,      # root-only files
    "checkout": "files",          # world-readable files
    "words": True,
    "bar": True,
    "signals": True,              # as nobody, root's program is out of reach
}
#: Cases the plain backend may prevent or else name in its line (a daemon in a session of its
#: own escapes a kill of the agent's process group).
PLAIN_MAY_PREVENT = {"orphans_new_session"}
NEEDS_ANOTHER_USER = {"fork_server", "caller_tmpdir", "seal_key", "stopping_others",
                      "shadow_and_home", "terminal", "signals"}


def _dask_installed() -> bool:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _slow(*drivers: str) -> list:
    """The drivers, ``dask`` skipped when the dask extra is missing, every driver but
    ``play`` marked slow."""
    params = []
    for driver in drivers:
        marks = [] if driver == "play" else [pytest.mark.slow]
        if driver == "dask" and not _dask_installed():
            marks.append(pytest.mark.skip(reason="the dask extra is not installed"))
        params.append(pytest.param(driver, marks=marks, id=driver))
    return params


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "bwrap":
        problem = bwrap_problem()
        if problem is not None:
            pytest.skip(f"bubblewrap cannot run on this machine: {problem}")
    return request.param


@pytest.fixture
def run(backend: str, tmp_path: Path):
    session = Run(backend, tmp_path)
    yield session
    session.close()


def prevented(run: Run, case: str) -> bool:
    """Whether this backend must prevent ``case`` (else the caller checks its one line)."""
    if run.backend == "bwrap":
        return True
    if case in NEEDS_ANOTHER_USER and not (as_root() and unprivileged_user()):
        pytest.skip("the plain backend separates agents from the user only when run as root "
                    "with a Python that user nobody can run (its line says so otherwise)")
    return PLAIN[case] is True


def expect_prevented_or_named(run: Run, case: str, stderr: str, happened: bool) -> None:
    """``happened`` (the attack worked) is allowed only where the backend names ``case`` as
    not prevented in its one line."""
    if prevented(run, case):
        assert not happened, f"{case}: the attack worked under {run.backend}"
    else:
        check_not_prevented_line(run, stderr, str(PLAIN[case]))


def slow(*values: object, id: str | None = None) -> object:
    """One parameter set marked slow."""
    return pytest.param(*values, marks=pytest.mark.slow, id=id)


def one_report(stderr: str, name: str) -> dict:
    found = reports(stderr, name)
    assert found, f"the agent did not report (its stderr is lost?):\n{stderr[-3000:]}"
    return found[0]


# 1. Full escape -------------------------------------------------------------------------

@pytest.mark.parametrize("driver", _slow("play", "batch1", "batch2"))
def test_an_agent_reaches_no_fork_server_and_no_socket_of_ours(run, driver):
    prevented(run, "fork_server")
    proof = run.tmp / "proof"
    done = drive(driver, run, agent("escape", "ForkServerEscape"), f"proof={proof}",
                 f"tmpdir={run.tmpdir}")
    assert done.returncode == 0, done.stderr[-3000:]
    found = one_report(done.stderr, "escape")
    wait_for(proof.exists, 1.0)
    assert not proof.exists(), f"code ran outside the box: {proof.read_text()!r}"
    assert found["connected"] == [], found


@pytest.mark.parametrize("driver", _slow("play", "batch2", "dask"))
def test_an_agent_sees_neither_the_callers_temporary_folder_nor_other_processes(run, driver):
    prevented(run, "caller_tmpdir")
    marker = run.tmpdir / "marker"
    marker.write_text("the caller's secret")
    done = drive(driver, run, agent("escape", "SeesTheCaller"), f"marker={marker}")
    assert done.returncode == 0, done.stderr[-3000:]
    found = one_report(done.stderr, "caller")
    assert "marker" not in found and "marker" not in found.get("listed", []), found
    expect_prevented_or_named(run, "other_processes", done.stderr, bool(found["programs"]))


# 2. Typing into the user's terminal -----------------------------------------------------

def test_an_agent_types_nothing_into_the_users_terminal(run):
    prevented(run, "terminal")
    mark = token()
    master, slave = pty.openpty()
    shown: list[bytes] = []

    def read_terminal() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            shown.append(data)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    out = run.tmp / "stdout"
    try:
        with open(out, "w") as stdout:
            done = run.run("play", "--json", "-p", agent("terminal", "TypesIntoTerminal"),
                           "--pacman-opt", f"token={mark}", "--layout", "small_classic",
                           "--max-moves", "20", "--seed", "2", stdin=slave, stdout=stdout,
                           stderr=slave, start_new_session=True,
                           preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        time.sleep(0.3)
        flags = fcntl.fcntl(slave, fcntl.F_GETFL)
        fcntl.fcntl(slave, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        try:
            typed = os.read(slave, 65536)
        except BlockingIOError:
            typed = b""
    finally:
        os.close(slave)
        reader.join(2)
        os.close(master)
    terminal = b"".join(shown).decode(errors="replace").replace("\r", "")
    assert done.returncode == 0, terminal[-3000:]
    assert len(games(out.read_text())) == 1
    found = one_report(terminal, "terminal")
    assert mark.encode() not in typed, f"typed into the terminal: {typed!r}"
    assert found["typed"] == [], found
    assert found["dev_tty"] is False, f"the agent has the user's terminal: {found}"


# 3. The seal key and the store ----------------------------------------------------------

@pytest.mark.parametrize("driver", _slow("batch1", "batch2"))
def test_an_agent_steals_no_seal_key_and_forges_no_win(run, driver):
    prevented(run, "seal_key")
    store = run.tmp / "store.jsonl"
    done = batch(run, agent("seal", "ForgesAWin"), f"key={run.key_path}", f"store={store}",
                 workers=int(driver[-1]), games=3, store=store)
    key = run.key_path.read_bytes() if run.key_path.exists() else b""
    found = reports(done.stderr, "seal")
    assert found, done.stderr[-3000:]
    assert all(entry["key"] is None for entry in found), "the agent read a seal key"
    assert key.hex() not in done.stderr + done.stdout
    assert not any(entry["store_read"] or entry["appended"] for entry in found), found
    assert done.returncode == 0, done.stderr[-3000:]
    report = run.run("report", str(store), "--json")
    assert report.returncode == 0, report.stderr
    (condition,) = conditions(report.stdout)
    assert condition["games"] == 3 and condition["wins"] == 0, condition
    assert condition["mean_score"] < 1000, condition


# 4. Memory ------------------------------------------------------------------------------

MEMORY_AGENTS = [pytest.param("MemfdHoarder", id="memfd"),
                 pytest.param("TmpHoarder", id="tmp", marks=pytest.mark.slow)]


@pytest.mark.parametrize("hoarder", MEMORY_AGENTS)
@pytest.mark.parametrize("driver", _slow("play", "batch1", "batch2", "dask"))
def test_memory_held_outside_the_address_space_is_the_agents_crash(run, hoarder, driver):
    prevented(run, "memory")
    run.env["PACMAN_AGENT_MEMORY_MB"] = "256"
    spec = agent("memory", hoarder)
    options = ("megabytes=1024", f"mark={token()}")
    if driver == "play":
        done = play(run, spec, *options)
        assert done.returncode == 1, done.stderr[-3000:]  # play's exit code for a crash
        (game,) = games(done.stdout)
        assert game["outcome"] == "crash", game
        failure = game["failure"]
        assert failure["agent"] == 0 and failure["kind"] == "crash", failure
        assert "memory limit" in failure["message"], failure
    else:
        store = run.tmp / "store.jsonl"
        done = drive(driver, run, spec, *options, games=2, store=store)
        assert done.returncode == 0, done.stderr[-3000:]
        (condition,) = conditions(done.stdout)
        assert condition["causes"]["crash"] == 2, condition
        for line in store.read_text().splitlines()[1:]:
            assert "memory limit" in json.loads(line)["result"]["failure"]["message"]


# 5. Stopping other people's work --------------------------------------------------------

def _records(store: Path) -> list[dict]:
    return [json.loads(line) for line in store.read_text().splitlines()[1:]]


@pytest.mark.slow
def test_an_agent_stops_no_other_game_of_its_batch(run):
    prevented(run, "stopping_others")
    store = run.tmp / "store.jsonl"
    argv = batch_argv(f"{agent('stopping', 'Saboteur')} store={store}", agent("quiet", "Quiet"),
                      workers=2, games=3, store=store)
    done = run.run(*argv)
    found = reports(done.stderr, "stopping")
    assert found, done.stderr[-3000:]
    assert done.returncode == 0, done.stderr[-3000:]
    records = _records(store)
    assert len(records) == 6 and len({r["key"] for r in records}) == 6, [r["key"] for r in records]
    assert not any(entry["duplicated"] for entry in found), found
    sabotage, quiet = conditions(done.stdout)
    assert quiet["games"] == 3 and quiet["causes"]["crash"] == 0, quiet
    alone = run.run(*batch_argv(agent("quiet", "Quiet"), workers=1, games=3))
    assert alone.returncode == 0, alone.stderr[-3000:]
    (unharmed,) = conditions(alone.stdout)
    for field in ("wins", "mean_score", "mean_moves", "causes"):
        assert quiet[field] == unharmed[field], (field, quiet, unharmed)
    report = run.run("report", str(store), "--json")
    assert report.returncode == 0, report.stderr
    assert [c["games"] for c in conditions(report.stdout)] == [3, 3]
    again = run.run(*argv)
    assert again.returncode == 0, again.stderr[-3000:]
    assert len(_records(store)) == 6


# 6. Orphans -----------------------------------------------------------------------------

def _orphan_agent(mark: str, name: str) -> tuple[str, ...]:
    return (agent("orphans", "LeavesDaemons"), f"token={mark}", f"name={name}")


def _group(pid: int) -> int | None:
    """The process group of ``pid`` (``None`` once it is gone)."""
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _left(mark: str, name: str) -> set[int]:
    return marked(mark) | marked(name)


@pytest.mark.parametrize("how", [pytest.param("play", id="play-kill-9"),
                                 pytest.param("batch", id="batch-sigterm",
                                              marks=pytest.mark.slow)])
def test_nothing_of_an_agent_outlives_its_program(run, how):
    prevented(run, "orphans_group")
    mark, name = token(), f"orph{token().replace('.', '')[:10]}"
    spec, *options = _orphan_agent(mark, name)
    if how == "play":
        opts = [part for option in options for part in ("--pacman-opt", option)]
        argv = ["play", "--json", "-p", spec, *opts, "--layout", "small_classic",
                "--max-moves", "1000", "--seed", "2"]
        stop = signal.SIGKILL
    else:
        argv = batch_argv(" ".join([spec, *options]), workers=2, games=2)
        argv[argv.index("--max-moves") + 1] = "1000"
        stop = signal.SIGTERM
    err = run.tmp / "stderr"
    with open(err, "w") as stderr:
        program = run.start(*argv, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        started = wait_for(lambda: len(marked(mark)) >= 2, 60)
        assert started, "the agent's processes never started: " + err.read_text()[-2000:]
        time.sleep(0.3)
        agents = marked(name)
        groups = {_group(pid) for pid in agents}
        program.send_signal(stop)
        program.wait(30)
        gone = wait_for(lambda: not _left(mark, name), 5.0)
        left = _left(mark, name)
        if left and not prevented(run, "orphans_new_session"):
            # Only the daemons in sessions of their own (one per agent process) may remain,
            # and the line must say so.
            assert not {pid for pid in left if _group(pid) in groups}, \
                f"processes of the agent's group outlived the program: {sorted(left)}"
            assert len(left) <= len(agents), f"more than the daemons outlived it: {sorted(left)}"
            assert not marked(name), "the agent itself outlived the program"
            check_not_prevented_line(run, err.read_text(), str(PLAIN["orphans_new_session"]))
            return
        assert gone, f"processes of the agent outlived its program: {sorted(left)}"
    finally:
        if program.poll() is None:
            program.kill()
            program.wait()
        kill_marked(mark)
        kill_marked(name)


def test_the_plain_backend_names_what_it_does_not_prevent(run):
    done = play(run, agent("quiet", "Quiet"))
    assert done.returncode == 0, done.stderr
    assert len(games(done.stdout)) == 1
    if run.backend == "bwrap":
        assert plain_lines(done.stderr) == [], done.stderr
        return
    kinds = {str(value) for case, value in PLAIN.items()
             if value is not True and case not in PLAIN_MAY_PREVENT}
    for kind in sorted(kinds):
        check_not_prevented_line(run, done.stderr, kind)


# 7. Files -------------------------------------------------------------------------------

@pytest.mark.parametrize("driver", _slow("play", "batch1", "batch2", "dask"))
def test_an_agent_reads_no_private_file_and_nothing_of_the_checkout(run, driver):
    home = os.path.expanduser("~")
    done = drive(driver, run, agent("files", "ReadsFiles"), f"checkout={ROOT}", f"home={home}")
    assert done.returncode == 0, done.stderr[-3000:]
    found = one_report(done.stderr, "files")
    # the Python that runs the agent may live in the home folder (a pyenv): its folder is the
    # runtime, read-only, not the user's files
    runtime = {Path(where).relative_to(home).parts[0] for where in
               (sys.prefix, sys.base_prefix, os.path.realpath(sys.executable))
               if Path(where).is_relative_to(home) and Path(where) != Path(home)}
    real_home = set(os.listdir(home)) - runtime
    home_seen = set(found["home"] or []) & real_home or set(found["env_home"] or []) & real_home
    private = bool(found["shadow"] or found["ssh"] or home_seen)
    expect_prevented_or_named(run, "shadow_and_home", done.stderr, private)
    listing = set(found["checkout"] or [])
    seen = bool(found["project"] or found["git"] or listing & {".git", "pyproject.toml", "docs"})
    expect_prevented_or_named(run, "checkout", done.stderr, seen)


# 8. Blame and words ---------------------------------------------------------------------

@pytest.mark.parametrize("name", [slow("HugeStats", id="HugeStats"), "DeepStats"])
@pytest.mark.parametrize("driver", _slow("play", "batch1"))
def test_statistics_too_big_or_too_deep_are_dropped_and_the_game_counts(run, name, driver):
    prevented(run, "words")
    done = drive(driver, run, agent("words", name))
    assert done.returncode == 0, done.stderr[-3000:]
    if driver == "play":
        (game,) = games(done.stdout)
        assert game.get("failure") is None and game["outcome"] != "crash", game
    else:
        (condition,) = conditions(done.stdout)
        assert condition["games"] == 2 and condition["causes"]["crash"] == 0, condition
    warnings = [line for line in done.stderr.splitlines() if "stats()" in line]
    assert warnings and all(len(line) < 500 for line in warnings), done.stderr[-2000:]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("name,kind", [slow("HugeMessage", "EnormousComplaint", id="HugeMessage"),
                                       ("StrRaises", "UnprintableError")])
@pytest.mark.parametrize("driver", _slow("play", "batch2"))
def test_an_exception_too_big_or_unprintable_is_a_crash_in_bounded_words(run, name, kind,
                                                                         driver):
    prevented(run, "words")
    store = run.tmp / "store.jsonl"
    if driver == "play":
        done = play(run, agent("words", name))
    else:
        done = batch(run, agent("words", name), workers=2, games=2, store=store)
    # a crash is play's failure (exit 1); a batch records it and goes on (exit 0)
    assert done.returncode == (1 if driver == "play" else 0), done.stderr[-3000:]
    assert len(done.stdout) < 20_000, len(done.stdout)
    if driver == "play":
        (game,) = games(done.stdout)
        messages = [game["failure"]]
    else:
        (condition,) = conditions(done.stdout)
        assert condition["causes"]["crash"] == 2, condition
        messages = [record["result"]["failure"] for record in _records(store)]
        assert len(messages) == 2
    for failure in messages:
        assert failure["agent"] == 0 and failure["kind"] == "crash", failure
        assert len(failure["message"]) <= 2000, len(failure["message"])
        assert kind in failure["message"], failure["message"][:300]
        assert "exited with code" not in failure["message"], failure["message"][:300]
    assert len(done.stderr) < 200_000, len(done.stderr)


def _private_folder(tmp: Path, owner: str) -> Path:
    folder = tmp / f"private-{owner}"
    folder.mkdir()
    if owner == "nobody" and as_root():
        os.chown(folder, 65534, 65534)
    os.chmod(folder, stat.S_IRWXU if owner != "unwritable" else stat.S_IRUSR | stat.S_IXUSR)
    return folder


@pytest.mark.parametrize("owner", [slow("root", id="root"), "nobody",
                                   slow("unwritable", id="unwritable")])
@pytest.mark.parametrize("driver", _slow("play", "batch1"))
def test_a_private_temporary_folder_is_never_an_agents_crash(run, owner, driver):
    """Either the games are played as usual, or the program stops with its one-line error,
    exit code 2, and stores nothing; never an agent's crash."""
    if owner == "root" and not as_root():
        pytest.skip("a folder of root's needs root")
    folder = _private_folder(run.tmp, owner)
    store = run.tmp / "store.jsonl"
    short = Path("/tmp") / f"pmp-{token()}"
    short.symlink_to(folder)
    run.env["TMPDIR"] = str(short)
    try:
        if driver == "play":
            done = play(run, agent("quiet", "Quiet"), extra=("--record", str(store)))
        else:
            done = batch(run, agent("quiet", "Quiet"), games=2, store=store)
    finally:
        short.unlink()
        os.chmod(folder, stat.S_IRWXU)
    assert "Traceback" not in done.stderr
    if done.returncode == 2:
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("pacman-arena:"), done.stderr
        assert not store.exists() or "crash" not in store.read_text()
        assert "crash" not in done.stdout
    else:
        assert done.returncode == 0, done.stderr[-3000:]
        if driver == "play":
            (game,) = games(done.stdout)
            assert game.get("failure") is None, game
        else:
            (condition,) = conditions(done.stdout)
            assert condition["causes"]["crash"] == 0, condition


# The bar that held must still hold ------------------------------------------------------

@pytest.mark.parametrize("name", ["ExhaustsFiles", slow("ExhaustsThreads", id="ExhaustsThreads")])
def test_exhausting_files_or_threads_harms_only_the_agent(run, name):
    prevented(run, "bar")
    done = play(run, agent("bar", name))
    assert done.returncode == 0, done.stderr[-3000:]
    (game,) = games(done.stdout)
    assert game.get("failure") is None or game["failure"]["agent"] == 0, game


def test_an_agent_cannot_trace_stop_or_kill_the_program(run):
    prevented(run, "signals")
    mark = token()
    done = play(run, agent("bar", "AttacksTheProgram"), f"mark={mark}", timeout=60)
    assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
    (game,) = games(done.stdout)
    assert game.get("failure") is None or game["failure"]["agent"] == 0, game


def test_a_150_mb_flood_on_stdout_keeps_json_output_pure(run):
    prevented(run, "bar")
    err = run.tmp / "stderr"
    with open(err, "w") as stderr:
        done = play(run, agent("bar", "FloodsStdout"), stderr=stderr, timeout=120)
    assert done.returncode == 0, err.read_text()[-3000:]
    (game,) = games(done.stdout)
    assert game.get("failure") is None or game["failure"]["agent"] == 0, game
    assert err.stat().st_size >= 150 * 10 ** 6 or game.get("failure") is not None
