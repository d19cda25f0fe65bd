"""A cup of sixteen entries made from real and broken student files (a crash at import, an
endless loop, illegal moves, a hostile entrant, ...): every entrant ranked or marked, the same
seeds for all, failures recorded in the student's words, the hostile entrant unable to touch
the others' files, games or the store, the same tables again on a rerun, after a stopped and
resumed run, from ``report`` and from shards.

The cup is played once for the module (``small_cup``); the variants that play it again in full
(a fresh rerun, Ctrl-C and resume in a process of its own, shards) are ``slow``."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pacman.batch import read_store
from pacman.cli import main
from pacman.tournament.config import read_config

from .conftest import class_folder, cup_config, others_files

ROOT = Path(__file__).resolve().parents[2]
PLAYING = {"alice.py", "bob.py", "carol", "dave", "frank.py", "grace.py", "heidi.py",
           "ivan.py", "oscar.py", "walter"}
MARKED = {"erin.py": "ZeroDivisionError", "judy.py": "not valid Python",
          "ken.py": "missing: the file is empty", "lena-notes.txt": "unsupported",
          "mallory.py": "neither ContestAgent nor ExpectimaxAgent",
          "peggy.py": "Python 2"}


def standings(out: Path) -> dict:
    return json.loads((out / "standings.json").read_text())


def rows(out: Path) -> dict[str, dict]:
    return {row["id"]: row for row in standings(out)["tables"]["pacman"]}


def test_every_entry_is_ranked_or_marked(small_cup):
    table = rows(small_cup["out"])
    entries = {p.name for p in small_cup["folder"].iterdir()}
    assert len(entries) >= 12
    assert set(table) == entries == PLAYING | set(MARKED)
    for name in PLAYING:
        assert table[name]["rank"] != "-" and table[name]["games"] == 2, table[name]
    for name, reason in MARKED.items():
        assert table[name]["rank"] == "-" and table[name]["games"] == 0
        assert reason in table[name]["status"], table[name]["status"]


def test_the_class_each_entrant_plays_is_said(small_cup):
    table = rows(small_cup["out"])
    assert table["bob.py"]["plays"] == "ContestAgent"
    for name in ("alice.py", "carol", "dave"):  # a file, a project folder, a nested one
        assert table[name]["plays"] == "ExpectimaxAgent with its betterEvaluationFunction"
    assert table["walter"]["plays"] == "ContestAgent"  # found in the folder's agents.py


def test_every_entrant_plays_the_same_seeds(small_cup):
    seeds = standings(small_cup["out"])["cup"]["seeds"]
    assert seeds == [5, 6]
    games, _ = read_store(small_cup["out"] / "cup.jsonl")
    played: dict[str, list[int]] = {}
    for game in games:
        played.setdefault(game.job.condition, []).append(game.result.seed)
    assert len(played) == len(PLAYING)
    assert all(sorted(s) == seeds for s in played.values()), played


def test_failures_are_recorded_in_the_students_words(small_cup):
    table = rows(small_cup["out"])
    assert table["frank.py"]["failed"]["timeout"] == 2
    assert table["grace.py"]["failed"]["illegal"] == 2
    assert table["ivan.py"]["failed"]["crash"] == 2
    assert all("max() arg is an empty sequence" in f["message"]
               for f in table["ivan.py"]["failures"])
    page = (small_cup["out"] / "leaderboard.html").read_text()
    assert "max() arg is an empty sequence" in page
    # the student's own file and line, none of the program's frames
    words = table["ivan.py"]["failures"][0]["traceback"]
    assert words.splitlines()[0] == '  File "ivan.py", line 14, in getAction', words
    assert "return max(distances)" in words and "agent_child" not in words
    assert "return max(distances)" in page
    # Failing loses: a failed game counts as caught, below every entrant that wins games.
    failing = {"frank.py", "grace.py", "ivan.py"}
    winning = {name for name in PLAYING if table[name]["wins"] > 0}
    ranks = {name: int(table[name]["rank"].lstrip("=")) for name in PLAYING}
    assert winning and max(ranks[n] for n in winning) < min(ranks[n] for n in failing)
    assert all(table[n]["mean_score"] < -450 for n in failing)


def test_ties_with_the_leader_are_shown(small_cup):
    table = rows(small_cup["out"])
    leader = [r for r in table.values() if r["rank"] == "1"]
    assert len(leader) == 1
    # alice, carol and dave play the same file: one result, tied with each other.
    same = [table[n] for n in ("alice.py", "carol", "dave")]
    assert len({(r["mean_score"], r["rank"]) for r in same}) == 1
    for row in table.values():
        versus = row.get("versus_leader")
        if row["tied_with_leader"]:
            assert row["rank"] == "=1"
            assert versus["interval"][0] <= 0 <= versus["interval"][1]
        elif versus is not None:
            assert not versus["interval"][0] <= 0 <= versus["interval"][1]


def test_the_hostile_entrant_touches_nothing_of_others(small_cup):
    """``heidi.py`` tries, at load and on every move, to append to the others' files and the
    cup's store and to overwrite its game pages: none of it lands."""
    assert others_files(small_cup["folder"]) == small_cup["before"]
    games, dropped = read_store(small_cup["out"] / "cup.jsonl")
    assert dropped is None
    assert sorted(g.job.condition for g in games) == sorted(
        f"cup: {who} @ testClassic" for who in PLAYING for _ in range(2))
    assert b'"key":"heidi"' not in (small_cup["out"] / "cup.jsonl").read_bytes()
    assert rows(small_cup["out"])["heidi.py"]["failures"] == []  # it played its games
    pages = list((small_cup["out"] / "games").iterdir())
    assert len(pages) == len(games)
    assert not any("heidi was here" in page.read_text() for page in pages)


STANDINGS = ("standings.json", "standings.csv", "standings.txt")


def test_a_stopped_cup_resumes_to_the_same_files(small_cup, tmp_path, capsys):
    """A cup stopped mid-way (its store lost its last games, the very last line torn as a kill
    leaves it) and run again with the same command: only the missing games are played, none
    twice, and every table is the uninterrupted cup's, byte for byte."""
    out = tmp_path / "stopped"
    out.mkdir()
    lines = (small_cup["out"] / "cup.jsonl").read_bytes().splitlines(keepends=True)
    kept, lost = lines[:-7], lines[-7:]
    (out / "cup.jsonl").write_bytes(b"".join(kept) + lost[0][:len(lost[0]) // 2])
    assert main(["tournament", str(small_cup["folder"]), "--config",
                 str(small_cup["config"]), "--out", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    store = (out / "cup.jsonl").read_bytes()
    assert store.startswith(b"".join(kept))
    games, dropped = read_store(out / "cup.jsonl")
    keys = [g.job.key for g in games]
    assert dropped is None and len(keys) == len(set(keys)) == len(PLAYING) * 2
    for name in STANDINGS:
        assert (out / name).read_bytes() == (small_cup["out"] / name).read_bytes(), name


@pytest.mark.slow
def test_a_rerun_gives_the_same_files(small_cup, tmp_path, capsys):
    out = small_cup["out"]
    before = {name: (out / name).read_bytes() for name in STANDINGS}
    store = (out / "cup.jsonl").read_bytes()
    # The same command again: nothing is played again, nothing doubled.
    assert main(["tournament", str(small_cup["folder"]), "--config",
                 str(small_cup["config"]), "--out", str(out), "--no-progress"]) == 0
    assert (out / "cup.jsonl").read_bytes() == store
    assert {name: (out / name).read_bytes() for name in before} == before
    # A fresh cup of the same seeds, one worker: the same table.
    fresh = tmp_path / "fresh"
    assert main(["tournament", str(small_cup["folder"]), "--config",
                 str(small_cup["config"]), "--out", str(fresh), "--workers", "1",
                 "--no-progress"]) == 0
    assert standings(fresh) == standings(out)
    capsys.readouterr()


def test_report_on_the_store_shows_the_table(small_cup, capsys):
    assert main(["report", str(small_cup["out"] / "cup.jsonl"), "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)["tables"]["pacman"]

    def figures(row: dict) -> dict:  # a store does not know what each entrant plays
        return {k: v for k, v in row.items() if k not in ("plays", "status")}

    cup = [figures(r) for r in standings(small_cup["out"])["tables"]["pacman"] if r["games"]]
    assert [figures(r) for r in reported] == cup
    assert main(["report", str(small_cup["out"] / "cup.jsonl")]) == 0
    assert "ties: ordered by mean score" in capsys.readouterr().out


@pytest.mark.slow
def test_shards_merge_into_the_same_table(small_cup, tmp_path):
    out = tmp_path / "sharded"
    for part in ("1/2", "2/2"):
        assert main(["tournament", str(small_cup["folder"]), "--config",
                     str(small_cup["config"]), "--out", str(out), "--shard", part,
                     "--workers", "1", "--no-progress"]) == 0
    assert sorted(p.name for p in out.glob("cup*.jsonl")) == ["cup.shard-1-of-2.jsonl",
                                                              "cup.shard-2-of-2.jsonl"]
    assert main(["tournament", str(small_cup["folder"]), "--config",
                 str(small_cup["config"]), "--out", str(out), "--merge"]) == 0
    assert standings(out)["tables"] == standings(small_cup["out"])["tables"]


def test_gradescope_leaderboard_fields(small_cup):
    table = rows(small_cup["out"])
    fields = json.loads((small_cup["out"] / "gradescope" / "bob.py.json").read_text())
    board = {entry["name"]: entry for entry in fields["leaderboard"]}
    assert board["Rank"]["value"] == 1
    assert board["Mean score"]["value"] == round(table["bob.py"]["mean_score"], 2)
    assert board["Mean score"]["order"] == "desc"


@pytest.mark.slow
def test_an_interrupted_cup_resumes_to_the_same_table(small_cup, tmp_path):
    """Ctrl-C in the middle of a cup, then the same command: every game once, the table of
    the uninterrupted cup."""
    out = tmp_path / "interrupted"
    argv = [sys.executable, str(ROOT / "run.py"), "tournament", str(small_cup["folder"]),
            "--config", str(small_cup["config"]), "--out", str(out), "--workers", "1",
            "--no-progress"]
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    store = out / "cup.jsonl"
    deadline = time.monotonic() + 120
    while process.poll() is None:
        lines = store.read_bytes().count(b"\n") if store.exists() else 0
        if lines >= 1 + 5:  # the header and five games
            break
        assert time.monotonic() < deadline, "the cup never got going"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err.decode()
    assert b"run the same command again to resume" in err
    played = store.read_bytes().count(b"\n") - 1
    assert 5 <= played < len(PLAYING) * 2
    assert subprocess.run(argv, cwd=ROOT, capture_output=True, timeout=300).returncode == 0
    games, _ = read_store(store)
    keys = [g.job.key for g in games]
    assert len(keys) == len(set(keys)) == len(PLAYING) * 2
    assert store.read_bytes().count(b"\n") - 1 == len(PLAYING) * 2  # nothing doubled
    assert standings(out)["tables"] == standings(small_cup["out"])["tables"]


@pytest.mark.parametrize("text, message", [
    ("games = 0", "games must be at least 1"),
    ("mazes = []", "mazes must be a non-empty list"),
    ("gamez = 3", "unknown key 'gamez'; did you mean games?"),
    ("move_time_limit = -1", "move_time_limit must be a positive number"),
    ("seed = 'x'", "seed must be a whole number"),
    ("[pacman]\nclass = 'not a name'", "class must be a Python class name"),
    ("[ghost_team]\noptions = {}", "needs class"),
    ("mazes = ['noSuchMaze']", "noSuchMaze"),
    ("games = [", "not valid TOML"),
])
def test_a_bad_config_is_one_line_and_exit_2(tmp_path, capsys, text, message):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "a.py").write_text("class ContestAgent:\n    pass\n")
    config = cup_config(tmp_path, text)
    code = main(["tournament", str(folder), "--config", str(config), "--out",
                 str(tmp_path / "out"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("pacman-arena: ") and message in err, err


def test_a_missing_folder_is_one_line_and_exit_2(tmp_path, capsys):
    code = main(["tournament", str(tmp_path / "none"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "not a folder of submissions" in err


def test_defaults_are_the_mini_contest():
    config = read_config(None)
    assert config.mazes == ("contestClassic",) and config.ghosts == "directional"
    assert config.pacman.cls is None and not config.two_sided


def test_class_folder_is_built(tmp_path):
    folder = class_folder(tmp_path)
    assert (folder / "judy.py").exists() and not (folder / "heidi.py").exists()
