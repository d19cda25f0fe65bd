"""The experiments' building blocks: varied starts, distinct games, clipped intervals, the
paired decisions (with their degenerate cases) and the commands reports print."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman.experiments.games import (SIGN_TEST_PAIRS, clip, distinct_games, distinct_wins,
                                      interval_note, paired, score_bounds)
from pacman.experiments.invocation import (command_line, program_name, replay_command,
                                           software_version)
from pacman.experiments.starts import varied_start_file, varied_start_text
from pacman.engine.game_loop import run_game
from pacman.engine.layout import load_layout, parse_layout
from pacman.lineup.build import lineup

MAZES = ["coordination", "smallClassic", "mediumClassic", "trapped", "tiny"]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.sampled_from(MAZES), st.integers(0, 10**6), st.integers(0, 5))
def test_varied_starts_keep_the_maze_and_move_each_start_at_most_radius(name, seed, radius):
    layout = load_layout(name)
    varied = parse_layout(varied_start_text(layout, seed, radius), name="v")
    assert varied.walls == layout.walls
    assert varied.food.bit_count() + varied.capsules.bit_count() == (
        layout.food.bit_count() + layout.capsules.bit_count())
    assert varied.num_ghosts == layout.num_ghosts
    rows = layout.distance_rows
    assert 0 <= rows[layout.pacman_start][varied.pacman_start] <= radius
    for cell in varied.ghost_starts:
        assert any(0 <= rows[g][cell] <= radius for g in layout.ghost_starts)
    if varied.pacman_start != layout.pacman_start:
        assert all(rows[g][varied.pacman_start] > 2 for g in varied.ghost_starts)
    assert varied_start_text(layout, seed, radius) == varied_start_text(layout, seed, radius)


def test_radius_zero_is_the_maze_and_seeds_give_different_starts(tmp_path):
    layout = load_layout("smallClassic")
    assert varied_start_text(layout, 3, 0) == layout.text + "\n"
    starts = {parse_layout(varied_start_text(layout, s, 3)).pacman_start for s in range(20)}
    assert len(starts) > 3
    path = varied_start_file("smallClassic", 7, 3, tmp_path)
    assert load_layout(path).text == parse_layout(varied_start_text(layout, 7, 3)).text
    with pytest.raises(ValueError):
        varied_start_text(layout, 0, -1)


def test_distinct_games_count_mazes_and_moves():
    layout = load_layout("tiny")
    specs = lineup(layout, "random", "random")
    games = [run_game(layout, specs, seed) for seed in (1, 1, 2)]
    assert distinct_games(games) == 2
    assert distinct_wins(games)[1] == 2
    low, high = score_bounds(games[0])
    assert low <= min(g.score for g in games) and high >= max(g.score for g in games)


def test_intervals_are_clipped_and_degenerate_ones_named():
    assert clip(-0.2, 1.3, (-1.0, 1.0)) == (-0.2, 1.0)
    assert all(math.isnan(v) for v in clip(math.nan, math.nan, (0, 1)))
    assert interval_note(1, 10, 5.0, 5.0) == "degenerate: one game repeated"
    assert interval_note(10, 10, 5.0, 5.0) == "degenerate: no spread"
    assert interval_note(1, 1, math.nan, math.nan) == "degenerate: one game"
    assert interval_note(10, 10, 4.0, 6.0) == ""
    wide = paired("win rate", [1, 1, 0, 1], [0, 1, 1, 0], (-1.0, 1.0))
    assert wide.low >= -1.0 and wide.high <= 1.0


def test_paired_decisions_go_both_ways_and_refuse_repeated_games():
    up = paired("score", [5, 7, 6, 8, 9, 7], [1, 2, 1, 3, 2, 2], (-100, 100))
    assert up.above_zero and not up.below_zero
    down = paired("score", [1, 2, 1, 3, 2, 2], [5, 7, 6, 8, 9, 7], (-100, 100))
    assert down.below_zero and not down.above_zero
    noise = paired("score", [1, 5, 2, 6], [4, 2, 5, 3], (-100, 100))
    assert not noise.above_zero and not noise.below_zero
    repeated = paired("score", [9] * 20, [1] * 20, (-100, 100), distinct_pairs=1)
    assert not repeated.above_zero and "decides nothing" in repeated.text()
    constant = paired("score", [9] * SIGN_TEST_PAIRS, [1] * SIGN_TEST_PAIRS, (-100, 100))
    assert constant.above_zero and "sign test" in constant.text()
    few = paired("score", [9] * (SIGN_TEST_PAIRS - 1), [1] * (SIGN_TEST_PAIRS - 1), (-100, 100))
    assert not few.above_zero
    ties = paired("score", [3] * 8, [3] * 8, (-100, 100))
    assert not ties.above_zero and not ties.below_zero and "ties" in ties.text()


def test_report_commands_go_through_the_program_name():
    assert program_name() == "pacman-arena"
    assert command_line(["experiment", "depth", "--out", "a b"]) == (
        "pacman-arena experiment depth --out 'a b'")
    # the store by its absolute path: the command works from any folder
    assert replay_command("out/games.jsonl", 12) == (
        f"pacman-arena --replay {Path('out/games.jsonl').resolve()} --game 12")
    assert re.fullmatch(r"pacman-arena \S+(, commit [0-9a-f]+( \+ uncommitted changes)?)?",
                        software_version())
