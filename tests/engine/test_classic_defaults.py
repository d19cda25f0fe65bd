"""The classic course's handout commands, typed verbatim, play its default (random) ghosts, say
so in their first line, and give the handout's results."""

from __future__ import annotations

import json

import pytest

from pacman.cli import main


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def ghost_names(json_lines: str) -> set[str]:
    return {name for line in json_lines.splitlines() for name in json.loads(line)["agents"][1:]}


def wins(out: str) -> int:
    return sum(json.loads(line)["outcome"] == "win" for line in out.splitlines())


@pytest.mark.parametrize("habit", [["-p", "MinimaxAgent", "-l", "small_classic"],
                                   ["-p", "alphabeta", "-l", "trappedClassic"],
                                   ["-p", "ExpectimaxAgent", "-l", "minimaxClassic"]])
def test_a_classic_class_or_maze_name_plays_random_ghosts_and_says_so(capsys, habit):
    code, out, _ = run_cli(capsys, *habit, "-q", "-n", "2", "-s", "0", "--max-moves", "5")
    first, *rest = out.splitlines()
    assert code == 0 and first.startswith("ghosts: random (the classic default with ")
    assert len(first) <= 80
    assert " ".join(habit[:2]) in first or " ".join(habit[2:]) in first
    code, out, err = run_cli(capsys, *habit, "-n", "2", "-s", "0", "--max-moves", "5", "--json")
    assert ghost_names(out) == {"random"} and err.startswith("ghosts: random")


@pytest.mark.parametrize("argv", [["-p", "MinimaxAgent", "-l", "minimaxClassic", "-g",
                                   "DirectionalGhost"],
                                  ["-p", "alphabeta", "-l", "small_classic"]])
def test_without_a_classic_habit_or_with_g_the_ghosts_are_as_asked(capsys, argv):
    code, out, err = run_cli(capsys, *argv, "-n", "2", "-s", "0", "--max-moves", "5", "--json")
    assert code == 0 and ghost_names(out) <= {"directional", "DirectionalGhost"}
    assert "ghosts:" not in err


def test_handout_minimax_classic_depth_4_wins_about_two_thirds(capsys):
    # The handout: 665 of 1000 games won despite the dire depth-4 minimax value.
    _, out, _ = run_cli(capsys, "-p", "MinimaxAgent", "-l", "minimaxClassic", "-a", "depth=4",
                        "-n", "60", "-s", "0", "--json")
    assert 0.5 <= wins(out) / 60 <= 0.8


def test_handout_trapped_classic_alpha_beta_always_loses_expectimax_wins_about_half(capsys):
    _, out, _ = run_cli(capsys, "-p", "AlphaBetaAgent", "-l", "trappedClassic", "-a", "depth=3",
                        "-q", "-n", "60", "-s", "0", "--json")
    assert wins(out) == 0
    _, out, _ = run_cli(capsys, "-p", "ExpectimaxAgent", "-l", "trappedClassic", "-a",
                        "depth=3", "-q", "-n", "60", "-s", "0", "--json")
    assert 0.35 <= wins(out) / 60 <= 0.65
