"""Fuzzing the command line's options: any value of any option ends with exit code 0, or with
exit code 2 and one line on stderr; never a traceback."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from pacman.cli import build_parser

from .test_cli import MAZE_TEXT, run_cli

TRICKY = ["", " ", "-1", "0", "1", "2", "3", "inf", "-inf", "nan", "1e999", "0.5", "-0",
          "9" * 5000, "\x00", "\u00e9", "a=b", "=", "depth=3", "..", "/", "/dev/null",
          "/dev/full", "os:system", "builtins:print", "nope:Thing", "x.py:Agent", "--", "-h",
          "random", "directional,random", "1_000", " 2 ", "\ufeff3", "\n"]
VALUES = st.one_of(st.sampled_from(TRICKY), st.text(max_size=30))


def _value_options(subcommand: str) -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    options = []
    for action in sub.choices[subcommand]._actions:
        if action.option_strings and action.nargs != 0 and action.dest != "help":
            options.append(max(action.option_strings, key=len))
    return options


PLAY_OPTIONS = _value_options("play")


def _option_dest(subcommand: str, option: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return next(a.dest for a in sub.choices[subcommand]._actions if option in a.option_strings)


#: The options (under any of their names) whose value is a number of games to play.
GAME_COUNT_OPTIONS = {option for option in PLAY_OPTIONS
                      if _option_dest("play", option) in ("games", "game")}


def _too_many(option: str, value: str) -> bool:
    """Whether ``value`` asks ``option`` for more work than a test may spend."""
    if option not in GAME_COUNT_OPTIONS:
        return False
    try:
        return int(value) > 3
    except ValueError:
        return False


def _assert_clean(code, out, err):
    assert "Traceback" not in err and "Traceback" not in out, err
    assert code in (0, 2), (code, err)
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1, err


@pytest.fixture
def playground(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # files an option names land here
    (tmp_path / "maze.lay").write_text(MAZE_TEXT, encoding="utf-8")
    return tmp_path


def test_every_name_of_the_game_count_is_kept_small():
    assert {"--numGames", "--game"} <= GAME_COUNT_OPTIONS


def test_the_fuzzed_options_are_the_real_ones():
    assert {"--layout", "--pacman", "--ghosts", "--seed", "--frame-time", "--time-limit",
            "--record", "--replay", "--export", "--zoom", "--game"} <= set(PLAY_OPTIONS)


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(option=st.sampled_from(PLAY_OPTIONS), value=VALUES)
@example(option="--pacman", value="\x00\\:0")  # a plug-in "file" whose name holds a NUL byte
def test_play_options_with_any_value(capsys, playground, option, value):
    assume(not _too_many(option, value))
    capsys.readouterr()
    argv = ["--layout", "maze.lay", "--pacman", "random", "--ghosts", "random", "--max-moves",
            "3", "--display", "none", "--seed", "1"]
    _assert_clean(*run_cli(capsys, *argv, option, value))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(option=st.sampled_from(_value_options("tree")), value=VALUES)
def test_tree_options_with_any_value(capsys, playground, option, value):
    capsys.readouterr()
    _assert_clean(*run_cli(capsys, "tree", "recitation", "--algorithm", "alphabeta", option,
                           value))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(value=VALUES)
def test_tree_files_with_any_content(capsys, playground, value):
    (playground / "t.json").write_text(value, encoding="utf-8")
    capsys.readouterr()
    _assert_clean(*run_cli(capsys, "tree", "t.json", "--algorithm", "minimax"))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(option=st.sampled_from(_value_options("export")), value=VALUES)
def test_export_options_with_any_value(capsys, playground, option, value):
    assume(not _too_many(option, value) and not (option == "--smooth" and value.strip() == "100"))
    capsys.readouterr()
    code, _, err = run_cli(capsys, "--layout", "maze.lay", "--pacman", "random", "--ghosts",
                           "random", "--max-moves", "3", "--display", "none", "--seed", "1",
                           "--record", "game.jsonl")
    assert code == 0, err
    _assert_clean(*run_cli(capsys, "export", "game.jsonl", "out.gif", option, value))
