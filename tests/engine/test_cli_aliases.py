"""The classic course's habits on the command line, and the program's name as invoked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pacman.agents.catalog import CLASSIC_NAMES, GHOST_AGENTS, PACMAN_AGENTS, short_name, summary
from pacman.cli import build_parser, program_name
from pacman.cli.play import DEFAULT_PACMAN_OPTIONS, FIXED_SEED, pacman_options
from pacman.engine.layout import load_layout, shipped_layout_names
from tests.cli_support import run_cli

ROOT = Path(__file__).resolve().parents[2]
CLASSIC_MAZES = ["smallClassic", "mediumClassic", "openClassic", "originalClassic",
                 "minimaxClassic", "trappedClassic", "capsuleClassic", "contestClassic",
                 "testClassic", "trickyClassic"]




def play_args(*argv: str):
    return build_parser().parse_args(["play", *argv])


# --- flags --------------------------------------------------------------------------------

@pytest.mark.parametrize("flag, display", [("-q", "none"), ("--quietTextGraphics", "none"),
                                           ("-t", "text"), ("--textGraphics", "text")])
def test_display_aliases(flag, display):
    assert play_args(flag).display == display


def test_without_display_flag_the_display_is_auto():
    assert play_args().display == "auto"


def test_zoom_frame_time_games_layout_agents_and_ghost_count_aliases():
    args = play_args("-z", "1.5", "--frameTime", "0.03", "-n", "4", "-l", "mediumClassic",
                     "-p", "AlphaBetaAgent", "-g", "RandomGhost", "-k", "1")
    assert (args.zoom, args.frame_time, args.games, args.layout) == (1.5, 0.03, 4,
                                                                      "mediumClassic")
    assert (args.pacman, args.ghosts, args.max_ghosts) == ("AlphaBetaAgent", "RandomGhost", 1)
    long = play_args("--numGames", "2", "--numghosts", "0")
    assert (long.games, long.max_ghosts) == (2, 0)


def test_k_is_the_classic_most_ghosts_and_num_ghosts_stays_exact(capsys):
    code, out, _ = run_cli(capsys, "-q", "-k", "4", "-l", "smallClassic", "--json", "-f",
                           "--max-moves", "5")
    assert code == 0 and len(json.loads(out)["agents"]) == 3  # the maze has two ghost starts
    code, out, _ = run_cli(capsys, "-q", "-k", "1", "-l", "smallClassic", "--json", "-f",
                           "--max-moves", "5")
    assert len(json.loads(out)["agents"]) == 2
    code, _, err = run_cli(capsys, "-q", "--num-ghosts", "4", "-l", "smallClassic")
    assert code == 2 and "cannot place 4" in err


def test_agent_args_are_comma_separated_and_pacman_opt_wins():
    args = play_args("-p", "MinimaxAgent", "-a", "depth=3,evalFn=scoreEvaluationFunction",
                     "--pacman-opt", "depth=1")
    assert pacman_options(args) == {"depth": "1", "evaluation": "score"}
    default = dict(DEFAULT_PACMAN_OPTIONS)
    assert pacman_options(play_args("-a", "evalFn=better")) == {**default, "evaluation": "better"}
    assert pacman_options(play_args()) == default
    assert pacman_options(play_args("-p", "minimax")) == {}


def test_agent_args_without_equals_is_one_line_error(capsys):
    code, _, err = run_cli(capsys, "-q", "-a", "depth3")
    assert code == 2 and err.strip().count("\n") == 0 and "-a expects key=value" in err


def test_fixed_seed_plays_the_same_game(capsys):
    code, out, _ = run_cli(capsys, "-q", "-f", "--json", "-l", "smallClassic", "--max-moves",
                           "30")
    again = run_cli(capsys, "-q", "-f", "--json", "-l", "smallClassic", "--max-moves", "30")[1]
    first, second = json.loads(out), json.loads(again)
    assert code == 0 and first["seed"] == FIXED_SEED
    assert (first["score"], first["moves"]) == (second["score"], second["moves"])
    given = run_cli(capsys, "-q", "-f", "--seed", "5", "--json", "-l", "tiny")[1]
    assert json.loads(given)["seed"] == 5


def test_classic_command_line_plays(capsys):
    code, out, _ = run_cli(capsys, "-q", "-p", "AlphaBetaAgent", "-a", "depth=1", "-g",
                           "DirectionalGhost", "-l", "smallClassic", "-n", "2", "-f",
                           "--json", "--max-moves", "40")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 2 and {r["layout"] for r in rows} == {"smallClassic"}


# --- agent and maze names -----------------------------------------------------------------

@pytest.mark.parametrize("role, registry", [("pacman", PACMAN_AGENTS), ("ghost", GHOST_AGENTS)])
def test_every_classic_agent_name_maps_to_an_agent_here(role, registry):
    for classic, short in CLASSIC_NAMES[role].items():
        assert short_name(classic, role) == short and short in registry


def test_classic_names_keep_their_roles_and_other_names_pass_unchanged():
    assert short_name("RandomGhost", "pacman") == "RandomGhost"
    assert short_name("AlphaBetaAgent", "ghost") == "AlphaBetaAgent"
    assert short_name("alphabeta", "pacman") == "alphabeta"
    assert short_name("pacman.agents.basic:RandomPacman", "pacman") == "pacman.agents.basic:RandomPacman"


def test_an_unknown_classic_looking_name_is_refused(capsys):
    code, _, err = run_cli(capsys, "-q", "-p", "AlphaBetaAgnet")
    assert code == 2 and "AlphaBetaAgnet" in err


@pytest.mark.parametrize("name", CLASSIC_MAZES)
def test_classic_mazes_are_shipped_under_their_classic_names(name):
    assert name in shipped_layout_names()
    assert load_layout(name).name == name


def test_our_mazes_keep_their_own_distinct_names():
    assert load_layout("small_classic").text != load_layout("smallClassic").text


def test_list_layouts_says_where_classic_mazes_come_from(capsys):
    code, out, _ = run_cli(capsys, "--list-layouts")
    items = out.replace("\n" + " " * 18, " ").splitlines()  # each item's wrapped text joined
    lines = {line.split()[0]: line for line in items}
    assert code == 0 and "CS188" in lines["mediumClassic"] and "[from" in lines["mediumClassic"]
    assert "[from" not in lines["medium_classic"]


# --- --list-agents --------------------------------------------------------------------------

def test_list_agents_is_clean_sentences_within_100_columns(capsys):
    code, out, _ = run_cli(capsys, "--list-agents")
    assert code == 0 and "`" not in out
    assert max(len(line) for line in out.splitlines()) <= 100
    from pacman.cli.listing import plain_text

    assert ":meth:" not in out and ":func:" not in out
    for factory in (*PACMAN_AGENTS.values(), *GHOST_AGENTS.values()):
        sentence = summary(factory)
        assert sentence.endswith((".", "!", "?")) and "`" not in sentence
        assert " ".join(out.split()).count(plain_text(sentence)) >= 1


def test_summary_takes_the_whole_first_sentence_across_lines():
    class Wrapped:
        """Searches ``depth`` rounds, with move
        ordering. More text."""

    assert summary(Wrapped) == "Searches depth rounds, with move ordering."


# --- the program's name -----------------------------------------------------------------------

@pytest.mark.parametrize("argv0, name", [("/home/x/.venv/bin/pacman-arena", "pacman-arena"),
                                         ("run.py", "run.py"), ("./run.py", "run.py"),
                                         (r"C:\venv\Scripts\pacman-arena.exe", "pacman-arena"),
                                         ("/usr/lib/python3/pytest", "pacman-arena"),
                                         ("-c", "pacman-arena")])
def test_program_name_is_the_name_typed(argv0, name, monkeypatch):
    monkeypatch.setattr(sys, "argv", [argv0.replace("\\", "/")])
    assert program_name() == name
    assert program_name(argv0.replace("\\", "/")) == name


@pytest.mark.parametrize("script", ["run.py", "pacman-arena"])
def test_help_usage_errors_and_version_name_the_program_as_invoked(script):
    other = "pacman-arena" if script == "run.py" else "run.py"
    if script == "run.py":
        command = [sys.executable, "run.py"]
    else:
        command = [str(Path(sys.executable).with_name("pacman-arena"))]
        if not Path(command[0]).exists():
            pytest.skip("the pacman-arena script is not installed next to this Python")
    texts = []
    for argv in (["--version"], ["--help"], ["play", "--help"], ["play", "--zoom", "9"],
                 ["batch", "--bogus"]):
        done = subprocess.run(command + argv, cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        texts.append(done.stdout + done.stderr)
    assert texts[0].startswith(f"{script} ")
    assert all(script in text for text in texts)
    assert not any(other in text for text in texts)
